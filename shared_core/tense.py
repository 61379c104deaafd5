"""When a claim says something happened: a dated past event, a conversation's moment as an extractor reports
it, a past habit. None of them is an attribute's current value, so none replaces one (``policy.contract``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import Prefiltered
from .moments import _MONTH as _MONTHS

_DATED_PAST = Prefiltered(re.compile(
    r"\b(?:yesterday|the day before|the other day|recently|this morning|earlier today|over the weekend|before the "
    r"conversation|last (?:week|weekend|month|year|night|summer|winter|spring|autumn|fall|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday)|(?:a|a few|few|a couple of|couple of|two|three|\d+) (?:days?|weeks?|weekends?|"
    r"months?|years?) ago)\b", re.I))


def dated_past(text: str) -> bool:
    """``text`` dates what it says in the past ("last Tuesday", "two weeks ago", "recently"): an event
    that happened. Two such events are two events: the later one ends nothing the earlier one said
    ("went fishing last weekend" does not replace "went on a bike ride last weekend")."""
    return bool(_DATED_PAST.search(text))


_REPORTED = Prefiltered(re.compile(
    r"^(?:(?:the\s+)?user|(?-i:[A-Z])[\w'.-]*(?:\s+(?-i:[A-Z])[\w'.-]*){0,2})(?:'s\s+dialogue)?"
    r"\s+(?:also\s+|has\s+|had\s+|was\s+)?"
    r"(?:expressed|shared|reflected|emphasi[sz]ed|acknowledged|highlighted|discussed|sought|seeks|recogni[sz]ed|voiced|"
    r"conveyed|celebrated|admitted|marked|reflects|envisions)\b(?!\s+that\b)", re.I))


@lru_cache(maxsize=65536)
def reported(text: str) -> bool:
    """A conversation's moment as a memory extractor reports it ("Martin expressed gratitude for ...", "Martin
    reflected on ...", "Martin's dialogue was marked by ..."): an event of the talk, not an attribute's value. It
    supersedes no entry, repeats one only nearly word for word, and two are never one fact (HaluMem's extracted
    points as claims: new facts superseding each other); "The user mentioned that ..." wraps a fact and is not one.
    Cached per text: asked of both texts of every pair."""
    return bool(_REPORTED.search(text))


USED_TO_RX = (r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )(?<!\bbe )(?<!\bbeen )(?<!getting )(?<!\bget )(?<!\bgot )"
              r"(?<!\bgets )(?<!\bnot )\bused to\b")
"""What someone used to do ("used to work as a lab technician"): the past, not what holds now ("is used to sign
releases", "getting used to" and "not used to" are no habit). Also one of ``grounding``'s stale cues."""
USED_TO = Prefiltered(re.compile(USED_TO_RX, re.I))


_DAY = rf"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b|" \
       rf"(?:{_MONTHS})\s+\d{{1,2}}\b|\d{{4}}-\d\d-\d\d\b)"
_DATED_FROM = Prefiltered(re.compile(
    rf"\b(?:(?:with effect from|effective(?: from)?|as of|starting(?: from)?|commencing)\s+(?:{_MONTHS}\b|{_DAY})|"
    rf"from\s+(?:(?:your|the) next \w+ on\s+)?{_DAY})", re.I))
"""A change's own date, as a notice gives it ("with effect from 1 July 2024", "from Monday 9 September", "from your next
payment on 1 Aug"; not "a payslip from March", nor "from the 20th", which a schedule reads as well)."""


def dated_from(text: str) -> bool:
    """The text dates when what it states takes effect: a notice's firm future change, not a rumour of one."""
    return bool(_DATED_FROM.search(text))
