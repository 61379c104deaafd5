"""Quantities a text states (a dose, a weight, a rate): the same quantity said again with another number is
the value changing, not a second value.

Why its own test: the change model reads words, and a dose or a weekly count differs from the entry's in one
number only ("the methimazole went up to 5mg" after "methimazole 2.5mg twice a day", "up to five runs a week"
after "running 3 times a week"), which a word-for-word comparison misses when the rest is reworded.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import contrast
from .cuescan import Prefiltered
from .grounding import UNITS, negated, numbers
from .index.embedders import _stem
from .linking import specific
from .written import written_alike

_UNIT_WORDS = rf"µg|{UNITS}|mi|miles|%"
_NUMBER = r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
"""A number as written, thousands apart or not ("1,210.00" is 1210, not 210)."""
_UNIT = re.compile(rf"{_NUMBER}\s?({_UNIT_WORDS})(?!\w)", re.I)
_RATE = re.compile(_NUMBER + r"\s+(?:[a-z]+\s+){0,2}?(?:a|an|per|each|every|/)\s*(day|week|wk|month|year|yr)s?\b", re.I)
"""A count per period ("3 times a week", "five runs a week", "1.5 cups a day"): the unit is its period."""
_LABELS = frozenset("year grade class size floor level tier band stage phase zone row gate platform bay lane week chapter "
                    "lesson module book season episode".split())
_LABELLED = re.compile(rf"\b({'|'.join(_LABELS)})\s+(\d{{1,3}})(?![\w:./-])", re.I)
"""A number a noun labels ("year 2", "floor 3", "level 4"): the unit is the noun, so "year 3" after "year 2" is the
same quantity moved on (a child's school year, a training plan's week), not a second one; the noun said again is
the link, however the rest is reworded ("she's in year 3 after the summer")."""
_HELD_ON = re.compile(r"\bstill\b[^.;,\d]{0,20}\d|\b(?:unchanged|as before|no change)\b", re.I)
"""A claim that says the quantity held ("still 5%"): it disputes the entry, it does not move it on."""
_PERIODS = {"wk": "week", "yr": "year"}
_TALK = frozenset(_stem(w) for w in "dose dosage amount upped bumped raised increased lowered reduced cut dropped "
                  "went gone going moved changed up down now doc doctor gp nurse consultant psychiatrist".split())
"""Words that only say a quantity moved, or who moved it ("Dose upped to 100mg", "doc upped me to 30mg"): they name
no other thing than the entry's."""
_MOVED_TO = re.compile(r"\b(?:up|down|upped|upping|bumped|bumping|raised|raising|increased|increasing|lowered|lowering|reduced|"
                       r"reducing|cut|cutting|dropped|dropping|changed|changing|switched|switching|moved|moving)\b"
                       rf"[^.;,\d]{{0,30}}?\bto\s+(?:an?\s+)?(\d+(?:\.\d+)?)(?!\s?(?:{_UNIT_WORDS}|am|pm)\b|[\d:./-])", re.I)
"""A number a quantity moved to, its unit left unsaid ("the gp bumped the sertraline up to 100", "gone up to a 12")."""


_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|sun"
_AFTER = (r"(?=\s*(?:$|[.,;:!?)\u2014-]|(?:now|from|at|on|in|for|since|until|till|instead|again|these|then|and|but|so|"
          r"with|or|too|as|anymore|atm|rn|lol)\b))")
"""Where "weekly" says how often (the end of a clause: "cleaner comes weekly from june"); before a noun it names a thing
("daily target's 1800 kcal", "weekly shop")."""
_HOW_OFTEN = Prefiltered(re.compile(
    rf"\b(?:(once|twice|thrice|\d+\s?x)(?=\s+(?:a|an|per|each|every)\s+(?:day|week|month|year)\b)|"
    r"(?:(once|twice|thrice|\d+(?:\.\d+)?\s?(?:x|times?))\s+)?"
    rf"(daily|nightly|weekly|fortnightly|monthly|yearly|annually){_AFTER}|"
    rf"every\s+(other|second)\s+(day|night|week|month|year|{_DAYS})s?|"
    rf"every\s+(day|night|week|month|year|{_DAYS})s?)\b(?!\s+(?:and|&|or|,)\s)", re.I))
"""How often, in words ("twice a week", "fortnightly", "3x weekly", "3x a week", "every other Thursday", "every day"), said
as a count per period, so "once a week now" after "physio twice a week" is the same quantity moved on. A weekday is a
week's ("every other Thursday" is half a time a week); a list of days ("every Tuesday and Friday") is left alone."""
_ADVERBS = {"daily": ("day", 1.0), "nightly": ("day", 1.0), "weekly": ("week", 1.0), "fortnightly": ("week", 0.5),
            "monthly": ("month", 1.0), "yearly": ("year", 1.0), "annually": ("year", 1.0)}
_COUNTS = {"once": 1.0, "twice": 2.0, "thrice": 3.0}


def _count(word: str) -> float:
    """A count as said: "twice", "3x", "3 times"."""
    return _COUNTS.get(word.lower()) or float(re.sub(r"[^\d.]", "", word))


def _how_often(m: re.Match[str]) -> str:
    times, count, adverb, other, period_other, period = m.groups()
    if times:
        return f"{_count(times):g} times"      # "3x a week" too
    if adverb:
        unit, share = _ADVERBS[adverb.lower()]
        return f"{(1.0 if count is None else _count(count)) * share:g} times a {unit}"
    unit = (period_other or period).lower()
    unit = "day" if unit == "night" else unit if unit in ("day", "week", "month", "year") else "week"
    return ("0.5 times a " if other else "1 time a ") + unit


_PER = Prefiltered(re.compile(
    r"(?<=\d)\s?(?:/\s?(?:(mo|mth|month|m)|(wk|week|w)|(yr|year|y)|(day|d))|(pcm|p/m)|(pw|p/w)|(pa|p/a))(?![\w/])", re.I))
"""A rate in shorthand ("£300/m", "150 pw"); "pm" is left alone, it is mostly a time of day."""
_SHORT = ("a month", "a week", "a year", "a day", "a month", "a week", "a year")


_PRICED = re.compile(r"((?:[£$€]\s?\d[\d,]*(?:\.\d+)?|\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d\d|"
                     r"\d[\d,]*(?:\.\d+)?\s*(?-i:[A-Z]{3}))\s+)(daily|weekly|monthly|yearly|annually)\b", re.I)
"""An amount paid so often, written as money ("32.00 GBP monthly", "1,210.00 monthly", "£40 weekly"): that amount a
period, not once a period ("6 weekly" is every six weeks)."""
_EACH = {"daily": "a day", "weekly": "a week", "monthly": "a month", "yearly": "a year", "annually": "a year"}


@lru_cache(maxsize=65536)
def _rated(text: str, often: bool = True) -> str:
    """``text`` with its rate shorthand (``_PER``), amounts paid so often (``_PRICED``) and how-often words
    (``_HOW_OFTEN``) said as counts per period."""
    text = _PER.sub(lambda m: " " + _SHORT[next(i for i, g in enumerate(m.groups()) if g)], text)
    text = _PRICED.sub(lambda m: m.group(1) + _EACH[m.group(2).lower()], text)
    return _HOW_OFTEN.sub(_how_often, text) if often else text


@lru_cache(maxsize=65536)
def quantities(text: str, often: bool = True) -> dict[str, frozenset[str]]:
    """The numbers a text states per unit (``{"mg": {"50"}, "per week": {"3"}}``), numbers written as words read
    as digits, how often in words as a count per period (unless ``often`` is False: a number moved with its unit
    unsaid, "doc upped it to 100", is a dose or an amount, not how often it is taken)."""
    text = _rated(written_alike(text), often)
    out: dict[str, set[str]] = {}
    for value, unit in _UNIT.findall(text):
        out.setdefault(unit.lower(), set()).add(_plain(value))
    for label, value in _LABELLED.findall(text):
        out.setdefault(label.lower(), set()).add(value)
    for value, period in _RATE.findall(text):
        out.setdefault("per " + _PERIODS.get(period.lower(), period.lower()), set()).add(_plain(value))
    return {u: frozenset(v) for u, v in out.items()}


def _plain(value: str) -> str:
    value = value.replace(",", "")
    return value.rstrip("0").rstrip(".") if "." in value else value      # "2.50" is "2.5", "2.0" is "2"


def requantified(claim: str, entry: str) -> bool:
    """The entry's one quantity of a unit, said again with another number and a word both name, or by a claim
    that names nothing else ("down to 78kg now"), or moved "up to 100" with the unit left unsaid where the entry
    holds one unit; "started on omeprazole 20mg" names another medicine. An entry
    with two quantities of the unit (two medicines) is left to the other evidence, and so is ``_HELD_ON``."""
    if _HELD_ON.search(claim):
        return False
    qa, qb = quantities(claim), quantities(entry)
    stated = quantities(entry, often=False)     # (a number moved with its unit unsaid is an amount, not how often)
    if not qa and len(stated) == 1 and (moved := _moved(claim)) is not None:
        qa, qb = {next(iter(stated)): frozenset({moved})}, stated     # the entry's one unit, by the number alone
    held = frozenset().union(*qb.values())      # "50 a day" of "50mg every day": the entry's number said again
    units = {u for u, v in qa.items() if len(qb.get(u, ())) == 1 and len(v) == 1 and v != qb[u] and not v <= held}
    if not units:
        return False
    if contrast.other_leads(claim, entry):
        return False        # "the cat gets fed once a day" after "the dog gets fed twice a day"
    words = _named(claim)
    return bool(words & specific(entry)) or not words or not units.isdisjoint(_LABELS)


def _named(claim: str) -> set[str]:
    """What a claim that moves a quantity names beyond its numbers and the words of moving it (``_TALK``): what links
    it to the entry whose quantity it moves."""
    return {w for w in specific(claim) if not any(c.isdigit() for c in w)} - _TALK


MOVE_RATIO = 4.0
"""How far a moved number may be from the entry's and still be the same quantity (rent 1150 -> 1225, a dose
50 -> 100, a calorie target 1800 -> 2100); beyond it the number is likely another thing's."""


@lru_cache(maxsize=65536)
def _moved(claim: str) -> str | None:
    """The number ``_MOVED_TO`` reads in the claim, as written."""
    found = _MOVED_TO.search(_rated(written_alike(claim)))
    return found.group(1) if found else None


@lru_cache(maxsize=65536)
def moved_to(claim: str) -> float | None:
    """The number a claim moves something to with its unit unsaid ("nutritionist upped me to 2100", "going up to
    1225 from september"), or None: asked once per claim, before any candidate."""
    moved = _moved(claim)
    if moved is None or _HELD_ON.search(claim):
        return None
    try:
        return float(moved)
    except ValueError:
        return None


@lru_cache(maxsize=65536)
def _sole(entry: str) -> float | None:
    """The one quantity an entry states (or its one number), or None when it states none or several."""
    qb = quantities(entry, often=False) or quantities(entry)    # an amount first ("sertraline 50mg once daily")
    held = [v for vs in qb.values() for v in vs] if qb else [n for n in numbers(written_alike(entry)) if "/" not in n]
    try:
        return float(held[0].replace(",", "")) if len(held) == 1 else None
    except ValueError:
        return None


def moving(claim: str) -> bool:
    """The claim moves some quantity, to a number (``moved_to``) or unsaid (``nudges``): asked once per claim."""
    return moved_to(claim) is not None or _NUDGED.search(claim) is not None


def moves(claim: str, entry: str) -> bool:
    """The claim moves a number (``moved_to``) and the entry states one quantity within ``MOVE_RATIO`` of it
    ("daily target's 1800 kcal", "rent's 1150 a month"): the claim may name nothing else the entry holds, the
    number is the link. Or it moves the entry's one quantity to a number unsaid (``nudges``)."""
    new, old = moved_to(claim), _sole(entry)
    if new is None:
        return nudges(claim, entry)
    return old is not None and new != old and old > 0 and 1 / MOVE_RATIO <= new / old <= MOVE_RATIO


_NUDGED = Prefiltered(re.compile(
    r"\b(?:upped|bumped|raised|hiked|increased|lowered|reduced|halved|doubled|tripled|cut|put\s+(?:\w+\s+){0,2}?up|"
    r"(?:went|gone|going|come|came|coming)\s+(?:up|down)|pay\s+(?:rise|cut)|price\s+(?:rise|hike))\b", re.I))
"""A quantity said to move, its new number unsaid ("gp upped the sertraline", "landlord put the rent up again")."""


def nudges(claim: str, entry: str) -> bool:
    """The claim moves the one quantity the entry states without saying to what ("netflix hiked the price again"
    after "netflix is 10.99 a month"): the entry's number no longer holds, so the claim is its news, not a repeat
    of it. It states no number, negates nothing and names a word of the entry's beyond what moved it."""
    if numbers(claim) or not _NUDGED.search(claim) or negated(claim) or _HELD_ON.search(claim) or _sole(entry) is None:
        return False
    return bool(_named(claim) & specific(entry))
