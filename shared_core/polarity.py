"""Polarity: a like turned into a dislike, or a dislike into a like, of the same thing.

Why its own test: "Movies I dislike: horror films" and "his movie preference has evolved to include horror
films" share their value and most of their words, so the change model reads a restatement; what changed is
the sign in front of the value. Written from general English, not from any data set.
"""

from __future__ import annotations

import re

from . import slots
from .cuescan import Prefiltered
from .index.embedders import _stem
from .linking import person_words, specific

_AGAINST = Prefiltered(re.compile(r"\b(?:dislikes?|hates?|hated|hating|can'?t stand|cannot stand|not a fan|"
                                  r"(?:do|does|did)(?:n'?t| not) (?:like|enjoy)|avoids?|steers? clear|gone off|went off|"
                                  r"(?:not|no longer|isn'?t|aren'?t|wasn'?t) (?:really |that |so |very |much )?"
                                  r"(?:into|keen on|a fan of))\b",
                                  re.I))
_FOR = Prefiltered(re.compile(r"\b(?:likes?|liked|loves?|loved|loving|enjoys?|enjoyed|enjoying|appreciates?|"
                              r"(?:a |big )?fan of|into|prefers?|preference|favou?rites?|now includes?|"
                              r"evolved to include|grown to (?:like|love|appreciate)|(?:ha[sv]e?|'s|'ve) grown on|"
                              r"c[oa]me (?:a)?round (?:on|to)|warm(?:ed|ing)? (?:up )?to|"
                              r"reconsidered (?:my|his|her|their|our) (?:stance|view|opinion)s? on|"
                              r"changed (?:my|his|her|their|our) mind (?:on|about))\b", re.I))


def flipped(claim: str, entry: str) -> bool:
    """One side is against a value the other is for ("I used to hate olives" / "loving olives these days"), and
    both name it: the claim turns the entry's stance around, so it changes the entry whatever else it shares. The name
    of whoever holds both stances is no value they share ("Martin Mark Sports I dislike: Wrestling" is not turned
    around by "Martin Mark's music preference includes ...")."""
    against_claim, against_entry = bool(_AGAINST.search(claim)), bool(_AGAINST.search(entry))
    if against_claim == against_entry:
        return False
    pro, con = (entry, claim) if against_claim else (claim, entry)
    if not _FOR.search(pro):
        return False
    shared = _near(pro, _FOR) & _near(con, _AGAINST)
    if not shared:
        return False
    people = {_stem(w) for t in (claim, entry) for w in person_words(slots.of(t).subject or "")}
    return bool(shared - people)        # the value both name, not whose stance it is


_TOKEN = re.compile(r"[\w'-]+")


def _near(text: str, stance: Prefiltered) -> set[str]:
    """The specific words a stance is about: those within a few words of it ("dislike: Wrestling", "evolved to include
    sodas"), not every word of the text ("went off sushi after the food poisoning thing" takes no stance on food)."""
    words = specific(text)
    near: set[str] = set()
    for m in stance.finditer(text):
        before, after = _TOKEN.findall(text[:m.start()])[-2:], _TOKEN.findall(text[m.end():])[:3]
        near |= {w for w in (_stem(t.lower().removesuffix("'s")) for t in before + after) if w in words}
    return near
