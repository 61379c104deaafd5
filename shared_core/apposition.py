"""Apposition: a name set beside the words for what it names ("Sam, the middle one, is in Year 6", "Our eldest, Maya, is
...", "Rufus the dog gets ...", "Grandads collie Meg, microchip ..."). The text is about the one so named, so two
texts naming two by apposition are two things (two children, two pets), however alike the rest. Not a role one holds
at a time ("our landlord, Mr Hughes, ..."): another name there is the role's new holder."""

from __future__ import annotations

import re
from functools import lru_cache

from . import change
from .families import family
from .grounding import STOP

_NAME = r"[A-Z][a-z][\w'-]*"
_NAMED = re.compile(rf"^\W*(?:(?:our|my|the|his|her|their)\s+((?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*),\s+({_NAME}),"
                    rf"|({_NAME}),\s+((?:the|our|my)\s+[^,]{{1,30}}),"
                    rf"|({_NAME})\s+(the\s+(?:[a-z]+\s+)?[a-z]+)\s+(?:is|was|has|gets|goes|takes|needs|eats|sleeps|wears|does|"
                    rf"weighs|sees|likes|hates|loves)\b"
                    rf"|(?:[\w'’]+\s+){{0,2}}?((?-i:[a-z]+))\s+({_NAME}),)", re.I)
_HOLDERS = frozenset("landlord landlady teacher coach tutor assistant wife husband partner spouse girlfriend boyfriend fiance "
                     "fiancee cleaner nanny childminder accountant solicitor lawyer gp manager boss".split())
"""Roles one person holds at a time: the name beside them is a value that may move."""


@lru_cache(maxsize=65536)
def named(text: str) -> str | None:
    """The name a text opens with in apposition, lower-cased; cached (asked of both texts of every candidate pair)."""
    m = _NAMED.match(text)
    if m is None:
        return None
    words, name = next((m.group(i), m.group(j)) for i, j in ((1, 2), (4, 3), (6, 5), (7, 8)) if m.group(j) is not None)
    low = words.lower()     # (a preposition before a name, "at Google,", names a place, no kind)
    if not name[0].isupper() or low in STOP or _HOLDERS & set(low.split()):
        return None
    fam = family(words)     # (read last: a family scan costs more than the words' own checks)
    return None if fam and fam[0] in change.PERSON_VALUED else name.lower()


def apart(claim: str, entry: str) -> bool:
    """Each text names its own one in apposition, a name the other text never says."""
    a, b = named(claim), named(entry)
    said = lambda name, text: re.search(rf"\b{re.escape(name)}\b", text, re.I) is not None
    return bool(a and b) and a != b and not said(a, entry) and not said(b, claim)
