"""Topics: what a like, a dislike or a taste is of (films, music, food, drinks, sports, pets, games, travel, clothes).

Why its own test: "Martin's beverage preference evolved to include superfood smoothies" and "Martin Mark's movie
preference has evolved to include horror films" share their subject, their attribute family and most of their words,
so the linker takes the first for a change of the second, and a memory of tastes (an agent's persona notes: "Movies I
dislike: ...", "Beverages I like: ...") loses one taste to another. What tells them apart is the kind of thing each
taste is of. A closed class written from general English, not from any data set.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import Prefiltered

TOPICS: dict[str, str] = {
    "film": r"movies?|films?|cinema",
    "music": r"music|songs?|albums?|bands?|concerts?",
    "food": r"foods?|dish(?:es)?|cuisines?|meals?|snacks?|desserts?",
    "drink": r"drinks?|beverages?|cocktails?",
    "sport": r"sports?",
    "pet": r"pets?",
    "game": r"games?|gaming",
    "travel": r"travel|trips?|holidays?|vacations?|destinations?",
    "clothes": r"cloth(?:es|ing)|outfits?|fashion|wear",
    "reading": r"books?|novels?|reading",
    "tv": r"tv|shows?|series",
}
_TOPIC = Prefiltered(re.compile(r"\b(?:" + "|".join(f"(?P<{k}>{rx})" for k, rx in TOPICS.items()) + r")\b", re.I))


@lru_cache(maxsize=65536)
def topics(text: str) -> frozenset[str]:
    return frozenset(m.lastgroup for m in _TOPIC.finditer(text) if m.lastgroup)


def apart(claim: str, entry: str) -> bool:
    """Each text names the kind its taste is of, and the kinds differ ("beverage preference" and "Movies I dislike"):
    two tastes, whatever words they share. A text naming no kind ("smoothies are my favourite") is not told apart."""
    a, b = topics(claim), topics(entry)
    return bool(a) and bool(b) and a.isdisjoint(b)
