"""Units: one amount said in another unit ("6 ft" and "183 cm", "50 gallons" and "189 L", "68°F" and "20°C", "336h" and
"14 days", "2 GiB" and "2048 MiB").

Why its own test: the comparisons downstream read numbers as written, so an amount converted by a person or a tool
(a thermostat app in Fahrenheit, a nurse in centimetres, an odometer in km) reads as a new number, a change, where it
is the same amount again; and an amount that did move, said in another unit, shares no number with the entry it moves.
A claim's amount is rewritten in the entry's unit before the two are compared: as the entry wrote it where it is the
same amount, else as converted, so the number that moved is the only difference left.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .cuescan import Prefiltered, has_digit
from .tokens import KEY_UNITS
from .written import numbered, phoned_as

_UNITS: dict[str, tuple[str, float, float]] = {}
"""A unit's spelling -> (what it measures, factor to the base unit, offset added before the factor)."""
for _names, _kind, _factor in (
        ("mm", "length", 0.001), ("cm", "length", 0.01), ("km kms kilometres kilometers kilometre kilometer", "length", 1000),
        ("metres meters metre meter", "length", 1.0), ("ft feet foot", "length", 0.3048), ("inches inch", "length", 0.0254),
        ("yd yds yards yard", "length", 0.9144), ("mi miles mile", "length", 1609.344),
        ("mg", "mass", 1e-6), ("g grams gram", "mass", 0.001), ("kg kgs kilos kilo kilograms kilogram", "mass", 1.0),
        ("lb lbs pounds pound", "mass", 0.45359237), ("oz ounces ounce", "mass", 0.028349523), ("stone", "mass", 6.35029318),
        ("ml", "volume", 0.001), ("l litres liters litre liter", "volume", 1.0), ("gal gallons gallon", "volume", 3.785411784),
        ("psi", "pressure", 6.894757), ("bar", "pressure", 100.0), ("kpa", "pressure", 1.0),
        ("mph", "speed", 1.609344), ("km/h kph kmh", "speed", 1.0),
        ("m² m2 sqm", "area", 1.0), ("ft² ft2 sqft", "area", 0.09290304),
        ("sec secs seconds second", "duration", 1.0), ("min mins minutes minute", "duration", 60.0),
        ("h hr hrs hours hour", "duration", 3600.0), ("d days day", "duration", 86400.0),
        ("wk wks weeks week", "duration", 604800.0), ("ms millis milliseconds millisecond", "duration", 0.001),
        ("bytes byte", "data", 1.0), ("kb", "data", 1e3), ("mb", "data", 1e6), ("gb", "data", 1e9),
        ("tb", "data", 1e12), ("kib", "data", 1024.0), ("mib", "data", 1024.0 ** 2), ("gib", "data", 1024.0 ** 3),
        ("tib", "data", 1024.0 ** 4)):
    for _name in _names.split():
        _UNITS[_name] = (_kind, _factor, 0.0)
_AREA = {r"sq\.?\s?ft|square\s+f(?:ee|oo)t": "sqft", r"sq\.?\s?m|square\s+met(?:re|er)s?": "sqm"}
_HEAT = {r"°\s?c|degrees?\s+c(?:elsius)?|celsius|c": "c", r"°\s?f|degrees?\s+f(?:ahrenheit)?|fahrenheit|f": "f"}
_UNITS["c"], _UNITS["f"], _UNITS["in"] = ("heat", 1.0, 0.0), ("heat", 5 / 9, -32.0), ("length", 0.0254, 0.0)
_UNITS["s"] = ("duration", 1.0, 0.0)      # (only in a config's value or key: "45s", "timeout_s"; "the 90s" is a decade)

_SPELLED = "|".join(sorted((re.escape(u) for u in _UNITS if u not in ("c", "f", "in", "s")), key=len, reverse=True))
_AMOUNT = Prefiltered(re.compile(
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s?"
    rf"({'|'.join(_AREA)}|{'|'.join(_HEAT)}|{_SPELLED})(?![\w²])", re.I))
_TALL = re.compile(r"(?<![\w.])(\d)\s?(?:'|’|ft|feet|foot)\s?(\d{1,2})(?:\s?(?:\"|”|''|in\b|inch(?:es)?\b))?", re.I)
"""A height in feet and inches ("5'9\"", "5 ft 9", "5 foot 9 in")."""
_WARM = re.compile(r"°|\b(?:temp\w*|thermostat|setpoint|heat\w*|cool\w*|weather|forecast|oven|fridge|freezer|fever|"
                   r"outside|indoors?|degrees?|warm|cold|hot)\b", re.I)
"""A text about heat: only there is a bare "20 C" or "68F" a temperature ("flat 4F" is a flat)."""
_KEYED = Prefiltered(re.compile(
    rf"[a-z][\w.-]*?[_.-]({KEY_UNITS})"
    r"[\"']?(?:\s*[:=]\s*|\s+(?:is|to|of|at)\s+)[\"']?(\d+)(?![\w,]|\.\d)", re.I))
"""A number under a key whose name ends in its unit ("session_ttl_seconds: 1800", "MAX_UPLOAD_BYTES=26214400")."""
_SPAN = re.compile(r"(?<=[:=])\s*[\"']?((?:\d+(?:ms|[hmsdw]))+)(?!\w|\.\d)")
"""A duration as a config writes it ("timeout: 45s", "ttl=1h30m", "retention: 720h"): a number and a letter, chained."""
_SUFFIXED = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)(?:([KMGT])i|h(\d\d))(?![\w.])")
"""A size as Kubernetes writes it ("1536Mi", "1.5Gi": binary units, "Mi" no miles) or a duration as "1h30"."""
_LETTER = {"ms": "ms", "s": "s", "m": "min", "h": "h", "d": "d", "w": "wk"}
"""Each letter of such a duration and the unit it is (an "m" there is minutes, not metres)."""
_AGO = re.compile(r"\s+(?:ago|back|earlier|before)\b", re.I)
SLACK, ROUGH = 0.01, 0.03
"""How far a converted amount may sit from the other and still be it (an odometer's 42,300 mi as 68,077 km), and how
far a loosely written one may at most."""


class Amount(NamedTuple):
    start: int
    end: int
    kind: str
    base: float            # in the kind's base unit (m, kg, l, kPa, km/h, m², °C)
    value: float           # as written
    places: int            # decimals written
    unit: str              # its key in ``_UNITS``


def _unit(word: str) -> str:
    low = re.sub(r"\s+", " ", word.lower())
    for table in (_AREA, _HEAT):
        for spelled, name in table.items():
            if re.fullmatch(spelled, low):
                return name
    return low


@lru_cache(maxsize=65536)
def amounts(text: str) -> tuple[Amount, ...]:
    """The amounts a text states with a unit this module converts, in order."""
    out: list[Amount] = []
    warm = None
    for m in _TALL.finditer(text):
        inches = int(m.group(1)) * 12 + int(m.group(2))
        out.append(Amount(m.start(), m.end(), "length", inches * 0.0254, inches, 0, "in"))
    for m in _KEYED.finditer(text):
        kind, factor, _ = _UNITS[unit := _unit(m.group(1))]
        value = float(m.group(2))
        out.append(Amount(m.start(2), m.end(2), kind, value * factor, value, 0, unit))
    for m in _SPAN.finditer(text):
        seconds = sum(float(n) * _UNITS[_LETTER[u]][1] for n, u in re.findall(r"(\d+)(ms|[hmsdw])", m.group(1)))
        if not any(a.start <= m.start(1) < a.end for a in out):
            out.append(Amount(m.start(1), m.end(1), "duration", seconds, seconds, 0, "s"))
    for m in _SUFFIXED.finditer(text):
        value = float(m.group(1))
        unit, value = (f"{m.group(2).lower()}ib", value) if m.group(2) else ("min", value * 60 + float(m.group(3)))
        places = len(m.group(1).partition(".")[2])
        out.append(Amount(m.start(), m.end(), _UNITS[unit][0], value * _UNITS[unit][1], value, places, unit))
    for m in _AMOUNT.finditer(text):
        if any(a.start <= m.start() < a.end for a in out):
            continue
        unit = _unit(m.group(3))
        if unit in "cf" and "°" not in m.group(3) and not (warm := _WARM.search(text) if warm is None else warm):
            continue
        kind, factor, offset = _UNITS[unit]
        if kind == "duration" and _AGO.match(text, m.end()):
            continue        # "generated 2 weeks ago": when, a stale reading's cue, said as it was
        value = float(m.group(1).replace(",", "") + "." + (m.group(2) or "0"))
        out.append(Amount(m.start(), m.end(), kind, (value + offset) * factor, value, len(m.group(2) or ""), unit))
    return tuple(sorted(out))


def _in(amount: Amount, other: Amount) -> float:
    """``amount`` in ``other``'s unit."""
    _, factor, offset = _UNITS[other.unit]
    return amount.base / factor - offset


def _loose(a: Amount) -> float:
    """How loosely an amount is written: half its last digit against its size ("6 ft" is loose, "183 cm" is not)."""
    return 0.5 * 10 ** -a.places / max(abs(a.value), 1e-9)


def same(a: Amount, b: Amount) -> bool:
    """Two amounts of one kind in other units that are one amount: the loosely written one, converted, lands on the
    other to within the last digit of either ("23 kg" is "50 lbs": 50.7 give or take the half kilo), but never further
    than ``ROUGH`` ("6 ft" is not "190 cm") unless within ``SLACK``."""
    rough, exact = sorted((a, b), key=_loose, reverse=True)
    near = 0.5 * 10 ** -rough.places * _UNITS[rough.unit][1] / _UNITS[exact.unit][1]
    size = abs(exact.value)
    return abs(_in(rough, exact) - exact.value) <= max(0.5 * 10 ** -exact.places, SLACK * size, min(near, ROUGH * size))


def _others(claim: str, entry: str) -> list[tuple[Amount, Amount]]:
    """Each claim amount with the entry's amount of its kind in another unit, where the entry has one such."""
    theirs = amounts(entry)
    pairs = []
    for a in amounts(claim):
        kin = [b for b in theirs if b.kind == a.kind]
        if len(kin) == 1 and kin[0].unit != a.unit:
            pairs.append((a, kin[0]))
    return pairs


_IN_K = re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?)\s?k(?!\w)", re.I)
"""A count in thousands ("45k", "2.5k")."""
_PLAIN = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{4,7})(?![\w,]|\.\d)")
"""A number of a thousand or more written out ("45,000", "1150")."""


def _thousands(claim: str, entry: str) -> str:
    """``claim`` with its thousands written as the entry writes them ("45k" for "£45,000" reads "45,000", "$2,500"
    for "2.5k" reads "2.5k"), where the entry writes one such number and none the other way."""
    ks, plain = _IN_K.findall(entry) if "k" in entry.lower() else [], _PLAIN.findall(entry)
    if len(plain) == 1 and not ks and "k" in claim.lower():
        value = float(plain[0].replace(",", ""))
        return _IN_K.sub(lambda m: plain[0] if float(m.group(1)) * 1000 == value else
                              f"{float(m.group(1)) * 1000:{',' if ',' in plain[0] else ''}.0f}", claim)
    if len(ks) == 1 and not plain:
        value = float(ks[0]) * 1000
        return _PLAIN.sub(lambda m: f"{ks[0]}k" if float(m.group(1).replace(",", "")) == value else
                          f"{float(m.group(1).replace(',', '')) / 1000:g}k", claim)
    return claim


def restated(claim: str, entry: str) -> str:
    """``claim`` with each amount the entry states in another unit written in the entry's: as the entry wrote it where
    it is the same amount ("about 183cm" for "6 ft tall" reads "about 6 ft"), else converted at the entry's decimals;
    its thousands as the entry writes them (``_IN_K``), a number given roughly as the entry's number it rounds to
    (``_approximated``), and a phone number the entry holds as it spells it."""
    claim = phoned_as(_thousands(_approximated(claim, entry), entry), entry) if has_digit(claim) else claim
    spoken = numbered(claim)        # "seven and a half miles" for "12 km": an amount in words, read where the entry has one
    pairs = _others(spoken, entry) if amounts(spoken) else []
    claim = spoken if pairs else claim
    for a, b in sorted(pairs, reverse=True):
        said = entry[b.start:b.end] if same(a, b) else f"{_moved(_in(a, b), b)} {_written(entry, b)}"
        claim = claim[:a.start] + said + claim[a.end:]
    return claim


_ABOUT = re.compile(r"(?:\b(?:about|around|roughly|approx(?:\.|imately)?|nearly|almost|circa|like)\s+|~\s?)[£$€]?"
                    r"(\d[\d,]*(?:\.\d+)?)(?:\s?-?ish\b)?|(?<![\w.])[£$€]?(\d[\d,]*(?:\.\d+)?)\s?-?ish\b", re.I)
"""A number given as an approximation ("about 1950", "4.8ish", "~20")."""
ROUGHLY = frozenset("about around roughly approx approximately nearly almost circa like ish".split())
"""``_ABOUT``'s words that give a number loosely: no value of their own beside the amount they give."""
_HELD = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")


def _approximated(claim: str, entry: str) -> str:
    """``claim`` with each number it gives roughly written as the entry's number it rounds ("the rate's like 4.8ish"
    for "rate=4.79%", "1700ish" for 1712, "about 82" for 82.4), at the claim's own precision (its decimals, or its
    trailing zeros): an approximation of the entry's value is that value, one that rounds otherwise is another."""
    if not _ABOUT.search(claim):
        return claim
    held = [(float(n.replace(",", "")), n) for n in _HELD.findall(entry)]

    def exact(m: re.Match[str]) -> str:
        said = (m.group(1) or m.group(2)).replace(",", "")
        value = float(said)
        places = len(said.split(".")[1]) if "." in said else -(len(said) - len(said.rstrip("0")))
        same = next((n for v, n in held if v != value and round(v, places) == value and v > 0), None)
        return m.group(0) if same is None else m.group(0)[:m.start(1 if m.group(1) else 2) - m.start()] + same

    return _ABOUT.sub(exact, claim)


def _moved(value: float, other: Amount) -> str:
    """A converted amount that is not ``other`` at ``other``'s decimals, with as many more as it takes to differ
    from it ("190 cm" for "6 ft" is "6.2 ft", not "6 ft")."""
    places = other.places
    while round(value, places) == other.value and places < other.places + 2:
        places += 1
    return f"{value:.{places}f}"


def _written(text: str, a: Amount) -> str:
    """An amount's unit as its text writes it (the number's digits left out)."""
    return re.sub(r"^[\d,.\s]+", "", text[a.start:a.end]) if a.unit != "in" else "in"


def same_amount(claim: str, entry: str) -> bool:
    """The claim states one of the entry's amounts in another unit: the amount is the link ("im about 183cm" is the
    height "User is 6 ft tall" holds), as a moved number is in ``quantities.moves``."""
    return bool(amounts(claim)) and any(same(a, b) for a, b in _others(claim, entry))
