"""Polarity: a like turned into a dislike, or a dislike into a like, of the same thing.

Why its own test: "Movies I dislike: horror films" and "his movie preference has evolved to include horror
films" share their value and most of their words, so the change model reads a restatement; what changed is
the sign in front of the value. Written from general English, not from any data set.
"""

from __future__ import annotations

import re

from .cuescan import Prefiltered
from .linking import specific

_AGAINST = Prefiltered(re.compile(r"\b(?:dislikes?|hates?|hated|hating|can'?t stand|cannot stand|not a fan|"
                                  r"(?:do|does|did)(?:n'?t| not) (?:like|enjoy)|avoids?|steers? clear|gone off|went off|"
                                  r"(?:not|no longer|isn'?t|aren'?t|wasn'?t) (?:really |that |so |very |much )?"
                                  r"(?:into|keen on|a fan of))\b",
                                  re.I))
_FOR = Prefiltered(re.compile(r"\b(?:likes?|liked|loves?|loved|loving|enjoys?|enjoyed|enjoying|appreciates?|"
                              r"(?:a |big )?fan of|into|prefers?|preference|favou?rites?|now includes?|"
                              r"evolved to include|grown to (?:like|love|appreciate))\b", re.I))


def flipped(claim: str, entry: str) -> bool:
    """One side is against a value the other is for ("I used to hate olives" / "loving olives these days"), and
    both name it: the claim turns the entry's stance around, so it changes the entry whatever else it shares."""
    against_claim, against_entry = bool(_AGAINST.search(claim)), bool(_AGAINST.search(entry))
    if against_claim == against_entry:
        return False
    pro = entry if against_claim else claim
    return bool(_FOR.search(pro)) and bool(specific(claim) & specific(entry))
