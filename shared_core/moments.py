"""When something happens: a claim that moves a date or a time ("it's the 27th now", "push me to the thursday,
same time", "moved to 28 Aug") is about the one entry that holds when something happens.

Why its own test: a rescheduled appointment rarely names what it moves ("clinic called, it really did move,
16th at 5pm" about "dentist on the 14th at 8:30"), so neither the words nor the linker find the entry; the
moved moment is the link, when exactly one candidate holds a moment to move. And a weekday or a month said in
place of another is another value, however the rest is worded (``other_day``, read by ``change.replaced``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import Prefiltered

_MONTH = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|"
          r"nov(?:ember)?|dec(?:ember)?")
_MOMENT = Prefiltered(re.compile(
    rf"\b\d{{1,2}}(?:st|nd|rd|th)\b|\b\d{{1,2}} (?:{_MONTH})\b|\b(?:{_MONTH}) \d{{1,2}}\b|\b\d{{4}}-\d\d-\d\d\b|"
    r"\b(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?\b|\b\d{1,2}:\d\d\b|\b\d{1,2} ?(?:am|pm)\b|"
    r"\b(?:noon|midday|midnight|morning|afternoon|evening)\b", re.I))
"""A day, a date or a time of day (general English; a year alone is no moment of an event)."""
_MOVED = Prefiltered(re.compile(
    r"\b(?:moved?|moving|push(?:ed|ing)? (?:it|me|us|him|her|them|the|back|forward|to)|brought forward|bring forward|"
    r"rebook(?:ed)?|re-?schedul\w+|retimed|delayed|postponed|amended|shifted|slipped|slips|bumped|changed|it'?s (?:now |the )|"
    r"now|instead|new (?:date|time|slot)|this (?:term|semester|season)|from now on|going forward)\b", re.I))
"""A word that moves when something happens."""
_SAME = re.compile(r"\b(?:still|same (?:day|date)|as planned|unchanged|confirmed for)\b", re.I)


@lru_cache(maxsize=65536)
def moments(text: str) -> frozenset[str]:
    """The days, dates and times a text names, as written (lower-cased)."""
    return frozenset(m.group(0).lower() for m in _MOMENT.finditer(text))


@lru_cache(maxsize=65536)
def moving(claim: str) -> frozenset[str]:
    """The moments a claim moves something to (empty unless a word moves it and none says it held): asked once
    per claim, before any candidate."""
    said = moments(claim)
    return said if said and _MOVED.search(claim) and not _SAME.search(claim) else frozenset()


def moves(claim: str, entry: str) -> bool:
    """The claim moves when something happens and the entry holds a moment the claim does not repeat."""
    said = moving(claim)
    return bool(said) and bool(held := moments(entry)) and bool(said - held)


DAYS = {d: d for d in "monday tuesday wednesday thursday friday saturday sunday".split()}
DAYS.update({d[:3]: d for d in DAYS} | {d + "s": d for d in DAYS}
             | {"weds": "wednesday", "tues": "tuesday", "thurs": "thursday"})


_MONTH_NAMES = {m: m for m in "january february march april june july august september october november december".split()}
_MONTH_NAMES.update({m[:3]: m for m in _MONTH_NAMES if m != "march"} | {"sept": "september"})
"""Month names ("may" and "mar" left out: a modal verb and a prefix far more often than a month)."""


def other_day(a: list[str], b: list[str]) -> bool:
    """"karate's moving to thursdays" about "Noah does karate wednesdays", "fellowship got extended to
    december" about "my fellowship ends in august": each side names a weekday (or a month) the other lacks.
    Both are closed classes: about the same thing, another one is another value, however the rest is
    worded (a day only added, "and fridays too", is not a change)."""
    days = [{DAYS[w] for w in ws if w in DAYS} for ws in (a, b)]
    months = [{_MONTH_NAMES[w] for w in ws if w in _MONTH_NAMES} | _may(ws) for ws in (a, b)]
    return any(x - y and y - x for x, y in (days, months))


_BEFORE_MAY = frozenset("in by until till from since of mid early late before after next last".split())


def _may(words: list[str]) -> set[str]:
    """"may" as the month where a preposition or a season word says so ("due a service in may", "till may"); the
    modal ("it may rain") and "this may" are left out."""
    return {"may"} if "may" in words and any(
        w == "may" and i and words[i - 1] in _BEFORE_MAY for i, w in enumerate(words)) else set()
