"""Values people write in many ways, written one way: a tool that restates what the user said in its own
format ("16:00" for "4pm", "+14155550188" for "415-555-0188", "2024-10-12" for "12 Oct") says the same value,
so grounding and the change model compare values as written here, not as typed."""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import Prefiltered, has_digit
from .moments import DAYS

_ZERO_FRACTION = re.compile(r"^(-?\d+)\.0+$")


def plain_number(value: str) -> str:
    """A tool's ``120.0`` is the user's ``120``: a zero fraction is dropped (``3.10`` keeps its digits), and so
    are thousands separators (``1,180`` is ``1180``). (What ``sub`` with a ``\\1`` template would give, without
    its template handling: read for every number.)"""
    if "," in value and _THOUSANDS.match(value):
        value = value.replace(",", "")
    m = _ZERO_FRACTION.match(value)
    return value if m is None else m.group(1) + value[m.end():]


_THOUSANDS = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_CLOCK = re.compile(r"(?<![\d.:])(\d{1,2})(?:[:.](\d{2}))?\s?([ap])\.?m\b\.?|\b(\d{1,2}):(\d{2})(?::00(?!:))?\b|"
                    r"\b(at|from|until|till|before|after|around)\s+(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\b"
                    r"(?![:.,]?\d|\s*(?:%|x\b|(?:days?|weeks?|months?|years?|hours?|hrs?|mins?|minutes?|people|kids|times|of|"
                    r"per|miles?|km|kg)\b|\s?[ap]\.?m\b))", re.I)
"""A time of day: "4pm", "6.15am" (a dot before the minutes where a meridiem follows), "16:00", or an hour after "at",
"from", "until" ("at 8", "from 7.30"); a tool's zero seconds ("09:30:00") say nothing. Written on a twelve-hour clock,
"4:00": people drop the meridiem ("guitar's at 5" after "guitar lesson is at 5pm"), so a time said again without it is
the same time; a morning moved to the evening at the same hour is the one change this misses."""
_PHONE = re.compile(r"(?<![\w/-])\+?\(?\d[\d ().-]{6,}\d\b")


def _clock(m: re.Match[str]) -> str:
    if m.group(6) is not None:
        return f"{m.group(6)} {int(m.group(7)) % 12 or 12}:{m.group(8) or '00'}"
    if m.group(4) is not None:
        return f"{int(m.group(4)) % 12 or 12}:{m.group(5)}"
    return f"{int(m.group(1)) % 12 or 12}:{m.group(2) or '00'}"


_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}:\d{2})[\d:.]*Z?)?\b|"
                   rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?: of)? {_MONTH}(?:,? (\d{{4}}))?\b|"
                   rf"\b{_MONTH} (\d{{1,2}})(?:st|nd|rd|th)?\b(?:,? (\d{{4}}))?|"
                   rf"\b{_MONTH},? (\d{{4}})\b", re.I)


def _date(m: re.Match[str]) -> str:
    """One spelling per calendar day: ``2024-10-12``, ``12 Oct`` and ``October 12th`` are ``oct-12`` (and the
    year, when written, beside it)."""
    g = m.groups()
    if g[10]:
        return f" {g[10].lower()[:3]}-{g[11]} "      # a month of a year, one value: "Nov 2026" is "November 2026"
    if g[0]:
        month, day, year = int(g[1]), int(g[2]), g[0]
        if not 1 <= month <= 12:
            return m.group()
        name = _MONTHS[month - 1]
    else:
        day, name, year = (int(g[4]), g[5], g[6]) if g[4] else (int(g[8]), g[7], g[9])
        name = name.lower()[:3]
    return f" {name}-{day}{' ' + year if year else ''}{' ' + g[3] if g[3] else ''} "   # a timestamp's time of day kept


def unphoned(text: str) -> str:
    """The text without its phone numbers: their digit groups ("+351 936 100 245") are no numbers of their own."""
    return _PHONE.sub(" ", text) if has_digit(text) else text


def phoned_as(claim: str, entry: str) -> str:
    """``claim`` with each phone number the entry holds too written as the entry writes it ("07700900123" for "+44 7700
    900123": one number, its country code, trunk zero and spacing aside), so the two compare word for word."""
    if not (has_digit(claim) and has_digit(entry)):
        return claim
    held = {key: m.group() for m in _PHONE.finditer(entry) if (key := _last_nine(m.group()))}
    return _PHONE.sub(lambda m: held.get(_last_nine(m.group()), m.group()), claim) if held else claim


def _last_nine(number: str) -> str:
    """A phone number's last nine digits, its country code and trunk zero aside; empty for a shorter number."""
    digits = re.sub(r"\D", "", number)
    return digits[-9:] if len(digits) >= 9 else ""


def _phone(m: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", m.group())
    return f" {digits[-10:]} " if len(digits) >= 9 else m.group()


@lru_cache(maxsize=65536)
def written_alike(text: str) -> str:
    """One spelling for the values people write in many ways: a time of day as ``H:MM`` on a twelve-hour clock
    ("4pm", "4:00 PM", "16:00", "at 4", "noon"), a phone number as its last ten digits ("+14155550188", "415-555-0188"), a
    day as ``oct-12`` ("2024-10-12", "12 Oct", "12/10/2024"), a count as digits ("two", "forty-five"), a rate without
    trailing zeros ("4.20%"), a street's kind and a short weekday in full ("Rd", "St,", "Fri 10:00"), so a tool that
    restates what the user said in its own format is not taken for a new value. Cached: an entry's text meets every
    later claim that grounds on it. (Each pattern but the street's, noon's, the counts' and the weekdays' needs a digit.)"""
    text = _IS.sub(" is ", text)        # (prefiltered: a text without "'s" is returned as it is)
    if _BLOOD.search(text):
        text = _GROUP.sub(_group, text)
    if _WEEKDAY.search(text):
        text = _WEEKDAY.sub(_weekday, text)
    if _STREET.search(text):
        text = _STREET.sub(_street, text)
    if _NOON.search(text):
        text = _NOON.sub("12:00", text)
    text = _SPOKEN_TIME.sub(_spoken_time, text)     # (prefiltered: a text without "quarter past" and the like as it is)
    text = numbered(text)
    if _ORDINAL.search(text):
        text = _ORDINAL.sub(lambda m: str(_ORDINALS.index(m.group(1).lower().replace(" ", "-")) + 1), text)
    if not has_digit(text):
        return text
    text = _SLASHED.sub(_slashed, text) if "/" in text else text
    text = _DOTTED.sub(_slashed, text) if "." in text else text
    text = _PERCENT.sub(lambda m: m.group(1) + (f".{m.group(2)}" if m.group(2) else ""), text) if "%" in text else text
    return _CLOCK.sub(_clock, _PHONE.sub(_phone, _DATE.sub(_date, _HTTP_STATUS.sub(r"\1", text))))


_BLOOD = Prefiltered(re.compile(r"\bblood\b|\brh\(?d\)?\b", re.I))
_GROUP = re.compile(r"(?<![\w-])(?:((?-i:AB|A|B|O))\s*(?:rh\s*\(?d\)?\s*)?(\+|-|pos(?:itive)?\b|neg(?:ative)?\b)"
                    r"|(ab|a|b|o)\s*(\+|-|pos\b|neg\b))(?![\w+-])", re.I)
"""A blood group written any way ("O RhD positive", "o neg", "O+") as ``O-positive``, where the text speaks of blood."""


def _group(m: re.Match[str]) -> str:
    group, sign = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return f"{group.upper()}-{'positive' if sign[0] in '+pP' else 'negative'}"


_NOON = Prefiltered(re.compile(r"\b(?:noon|midday|midnight|12 ?(?:noon|midnight))\b", re.I))
"""Noon and midnight are a time of day, twelve o'clock ("made it noon" moves a 2pm cutoff)."""
_WEEKDAY = Prefiltered(re.compile(r"(?<![\w'’])(mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?(?=\s*\d|[/:])", re.I))
"""A weekday written short before its time or in a tool's list ("Fri 10:00", "Sat/Sun", "Sun: closed") is that weekday;
"sat in traffic" and "sun is out" are words, and elsewhere ("tue-thu") a short day is left as written."""


def _weekday(m: re.Match[str]) -> str:
    day = DAYS[m.group(1).lower()[:3]]        # (the days as ``moments`` reads them)
    return day.capitalize() if m.group(1)[0].isupper() else day


_PERCENT = re.compile(r"(\d+)\.(\d*?)0+(?=\s?%)")
"""A rate's trailing zeros say nothing ("4.20%" is "4.2%", "5.0%" is "5%"); a version's do ("3.10"), so only before a "%"."""


_SLASHED = re.compile(r"(?<![\w/.:-])(\d{1,2})/(\d{1,2})(?:/(\d{4}|\d{2}))?(?![\w/.:-])")
"""A day written with slashes ("28/02/2026", "21/9"), read only where it can be one day: the day is the part above 12
(as in "9/21"); with a year and both parts up to 12, day first ("01/09/2025": 1 September, as most of the world
writes it); without a year and both up to 12 it is left alone ("1/2" may be a half) unless both are one ("03/03"),
and so is "24/7". A two-digit year is read as ``strptime``'s ``%y`` reads it: "14/03/90" is 1990, "03/05/24" 2024."""


_DOTTED = re.compile(r"(?<![\w/.:-])(\d{1,2})\.(\d{1,2})\.(\d{4})(?![\w/:-]|\.\d)")
"""A day written with dots and its year, day first ("31.03.2026", as German, Dutch or Polish write it); without a year
("14.03") it is a number."""


def _slashed(m: re.Match[str]) -> str:
    a, b, year = int(m.group(1)), int(m.group(2)), m.group(3)
    if m.group(0) == "24/7" or not (a and b):
        return m.group(0)
    day, month = (a, b) if b <= 12 and (a > 12 or year or a == b) else (b, a) if a <= 12 < b else (0, 0)
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return m.group(0)
    year = year and (year if len(year) == 4 else ("19" if int(year) >= 69 else "20") + year)   # as strptime's %y reads it
    return f" {_MONTHS[month - 1]}-{day}{' ' + year if year else ''} "


_IS = Prefiltered(re.compile(r"(?<=\w)['’]s\s+(?=(?:in|at|on|with|now|still|off|out|not|a|an|the|no|away|into|"
                               r"living|working|staying|based|doing|using|going|moving|over|done)\b)", re.I))
"""``Leo's in year 4`` is ``Leo is in year 4``: the contraction before a place, a state or an article is
the verb, not a possessive ("Leo's school"; "back" and "home" are left out: "Leo's back hurts", "Ana's home
address"), so the sentence compares word for word with the one it changes."""
_ORDINALS = tuple("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth "
                  "fifteenth sixteenth seventeenth eighteenth nineteenth twentieth".split()) + tuple(
    f"twenty-{o}" for o in "first second third fourth fifth sixth seventh eighth ninth".split()) + ("thirtieth", "thirty-first")
_SPELT = "|".join(o.replace("-", "[ -]") for o in reversed(_ORDINALS))   # ("twenty-first" before "twenty")
_ORDINAL = Prefiltered(re.compile(rf"\b({_SPELT})(?=\s+(?:of\s+)?{_MONTH})", re.I))
"""A day said as an ordinal word before its month ("the third of march"): its number, so ``_DATE`` reads it."""
_UNITS = tuple("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
               "seventeen eighteen nineteen".split())
_TENS = tuple("twenty thirty forty fifty sixty seventy eighty ninety".split())
_NUM = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[:9])}))?|(?:{'|'.join(_UNITS)}))"
_HUNDREDS = rf"(?:(?:a|{_NUM})\s+hundred(?:\s+(?:and\s+)?{_NUM})?|{_NUM})"
_NUMBER_WORD = Prefiltered(re.compile(rf"\b(?:(?:a|{_HUNDREDS})\s+thousand(?:\s+(?:and\s+)?{_HUNDREDS})?|{_HUNDREDS})"
                                      r"(?:\s+and\s+a\s+half)?\b(?![’']|-[a-z]*(?:st|nd|rd|th)\b)", re.I))
"""A count in words is its number ("two kids" is "2 kids", "forty-five bucks" "45 bucks", "twelve hundred" "1200", "a
thousand and ten" "1010", "seven and a half" "7.5"); "one" alone is left alone, it is mostly a pronoun."""
_SCALES = {"hundred": 100, "thousand": 1000}


_HOURS = _UNITS[:12]
_SPOKEN_TIME = Prefiltered(re.compile(r"\b(quarter|half|five|ten|twenty|twenty[- ]five) (past|after|to) (" + "|".join(_HOURS)
                                      + r"|1[0-2]|[1-9])\b(?![:.]?\d)", re.I))
"""A time of day said in words ("quarter past three", "ten after six", "quarter to nine"): its clock time. Only a
quarter comes before "to": "ten to twelve" may be a range of people."""


def _spoken_time(m: re.Match[str]) -> str:
    part, way, hour = m.group(1).lower(), m.group(2).lower(), m.group(3).lower()
    if way == "to" and part != "quarter":
        return m.group(0)
    h = _HOURS.index(hour) + 1 if hour in _HOURS else int(hour)
    minutes = {"quarter": 15, "half": 30, "five": 5, "ten": 10, "twenty": 20}.get(part, 25)
    return f"{h}:{minutes:02d}" if way != "to" else f"{h - 1 or 12}:45"


def numbered(text: str) -> str:
    """``text`` with its counts in words written in digits (``_NUMBER_WORD``), a half too ("7 and a half" is "7.5")."""
    text = _NUMBER_WORD.sub(_number, text) if _NUMBER_WORD.search(text) else text
    return _HALF.sub(r"\1.5", text) if "half" in text else text


_HALF = re.compile(r"\b(\d+) and a half\b", re.I)


def _number(m: re.Match[str]) -> str:
    words = re.split(r"[\s-]+", m.group(0).lower())
    if words == ["one"]:
        return m.group(0)
    total = current = 0
    for w in words:
        if w in _SCALES:
            current = max(current, 1) * _SCALES[w]
            if w == "thousand":
                total, current = total + current, 0
        elif w in _TENS:
            current += (_TENS.index(w) + 2) * 10
        elif w in _UNITS:
            current += _UNITS.index(w) + 1
    return str(total + current) + (".5" if words[-1] == "half" else "")


_STREET = re.compile(r"\b((?i:rd|ave|ln|sq|st))\.?(?=\s*(?:[,;)]|$)|\s+[a-z\d])|\b((?i:ste|blvd|apt|hwy|cres))\.?(?=[\s,;)]|$)")
_STREETS = {"rd": "road", "ave": "avenue", "ln": "lane", "sq": "square", "st": "street", "ste": "suite", "blvd": "boulevard",
            "apt": "apartment", "hwy": "highway", "cres": "crescent"}


def _street(m: re.Match[str]) -> str:
    """"Harbour Rd" is "Harbour Road", "12 Queen St, Bedford" is "12 Queen Street", "Ste 2" is "Suite 2" ("St Aidan's",
    followed by a name, stays a saint)."""
    return _STREETS[(m.group(1) or m.group(2)).lower()]


_HTTP_STATUS = re.compile(r"(->|→)\s*[1-5]\d\d(?=\s*[{\[])")
"""``GET /orders/B204 -> 200 {...}``: the request's status code is no value of the record."""
