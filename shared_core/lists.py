"""Lists a tool or a note holds ("Team Atlas members: Ana, Ben, Chloe", a JSON list of containers): read as sets of
values, so a list read again is a repeat and a list with one more value holds a further value.

Why: word overlap reads a list read again in another order as news, and a list with one more member as the same list.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from . import calls

_WORDS = re.compile(r"[a-z0-9]+")

_LIST_TAIL = re.compile(r"(?:->|→|:\s|=)\s*([^:=>→\n]*)$")
"""What a text ends with after its last label, field or arrow: where a tool or a note lists the values it holds."""


@lru_cache(maxsize=65536)
def items(text: str) -> frozenset[str]:
    """The values of the list a text ends with ("Team Atlas members: Ana, Ben, Chloe", '-> ["Netflix", "Spotify"]'),
    two or more, lower-cased; else none."""
    m = _LIST_TAIL.search(text.strip().rstrip("."))
    if m is None:
        return frozenset()
    parts = [p.strip(" '\"[](){}").lower() for p in re.split(r",|\band\b", m.group(1))]
    return frozenset(p for p in parts if p) if sum(bool(p) for p in parts) >= 2 else frozenset()


def relisted(claim: str, entry: str) -> bool:
    """The claim lists the values the entry lists, no more and no fewer, in whatever order or case, under a label that
    shares a word with the entry's (or under none): a repeat. "Dislikes: peanuts, shellfish" is no repeat of
    "Allergies: peanuts, shellfish"."""
    b = items(entry)
    if not b or b != items(claim):
        return False
    a, e = _listed_under(claim), _listed_under(entry)
    return not a or not e or bool(a & e)


def _listed_under(text: str) -> set[str]:
    """The words before the list a text ends with: its label ("Team Atlas members"), a call ("team.members('atlas')")."""
    said = text.strip().rstrip(".")
    m = _LIST_TAIL.search(said)
    return set(_WORDS.findall(said[:m.start()].lower())) if m else set()


def grown(claim: str, entry: str) -> bool:
    """The claim lists every value the entry lists, and more (a team's members read again with one more, a tool's JSON
    list with one more container): a further value, no repeat (the labelling notes: a further value of a multi-valued
    attribute is ``append``)."""
    b = items(entry)
    if b:
        return b < items(claim)
    if (lines := calls.listed(claim)) and (tail := _LIST_TAIL.search(entry.strip())):
        return tail.group(1).strip().rstrip(".").lower() in lines     # a command's output lines, the one held among them
    b = _json_items(entry)
    return bool(b) and b < _json_items(claim)


@lru_cache(maxsize=16384)
def _json_items(text: str) -> frozenset[str]:
    """The items of the one list a tool's JSON output holds (``{"containers": [{...}, {...}]}``), each written alike;
    none where it holds no list, or several."""
    body = text.rsplit("->", 1)[-1].strip()
    if not body.startswith(("{", "[")):
        return frozenset()
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):       # (a tool's text that only looks like JSON; one nested past the parser)
        return frozenset()
    lists = [data] if isinstance(data, list) else [v for v in data.values() if isinstance(v, list)] \
        if isinstance(data, dict) else []
    return frozenset(json.dumps(i, sort_keys=True).lower() for i in lists[0]) if len(lists) == 1 else frozenset()
