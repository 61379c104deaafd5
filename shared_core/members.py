"""Closed classes of values (``families.VALUES``: a theme, a seat, a shift, a commute, a colour): two texts about one
of these attributes that each name a member the other lacks say different things, however the rest is worded.

Why its own test: a change said with nothing but the new member ("actually it's green these days", "aisle from now
on", "omar's back on days") shares no word with the entry it changes, so neither the linker nor the change model
sees it; the class does. Like ``moments`` for a moved date and ``quantities`` for a moved number.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import slots
from .families import FAMILIES, VALUES, member

_MEMBERS = {name: re.compile(rf"(?<![\w-])(?:{rx})s?(?![\w-])", re.I) for name, rx in VALUES.items()}
_ANY_MEMBER = re.compile("|".join(rx.pattern for rx in _MEMBERS.values()), re.I)


@lru_cache(maxsize=65536)
def only_member(claim: str) -> bool:
    """The claim names some closed-class value (``families.VALUES``) and nothing else ("actually it's green
    these days", "aisle from now on"): asked once per claim, before any candidate."""
    values = slots.of(claim).values      # (each a word of the claim: a member among them is one in the claim)
    return bool(values) and all(_ANY_MEMBER.fullmatch(w) for w in values)


def other(claim: str, entry: str) -> bool:
    """The entry is about a closed-class attribute and each text names a member the other lacks ("been using
    neovim full time" about "my editor is VS Code"): like ``moments.other_day``, for ``families.VALUES``. The
    entry's attribute decides: the claim may name the member alone ("actually it's green these days" about "my
    favourite colour is blue"), or its first cue may be that member read as another attribute's ("green" is
    also a build's status), but then the member is all it says: "light rain today" and "CI is green again"
    name other things."""
    fe = slots.family(entry)
    if fe is None or fe[0] not in _MEMBERS:
        return False
    rx, fc = _MEMBERS[fe[0]], slots.family(claim)
    if (fc is None or fc[0] != fe[0]) and not ((fc is None or rx.fullmatch(fc[2].group(0))) and only_member(claim)
                                               and slots.same_subject(slots.of(claim), slots.of(entry))):
        return False
    return _apart(rx, claim, entry)


def _apart(rx: re.Pattern[str], claim: str, entry: str) -> bool:
    """Each text names a member of the class ``rx`` the other lacks, one spelling per member (``families.member``);
    or the claim names first a member the entry lacks and then the entry's own, the old value given as the reason
    ("light mode, dark was hurting my eyes" after "my laptop is set to dark mode")."""
    said = [member(m) for m in rx.findall(claim)]
    a, b = set(said), {member(m) for m in rx.findall(entry)}
    return bool(a - b) and (bool(b - a) or bool(b) and said[0] not in b)


_STATE_CLASSES = {name: re.compile(rf"(?<![\w-])(?:{cue})(?![\w-])", re.I) for name, cue, _ in FAMILIES
                  if name in VALUES and name not in ("device", "bank", "editor")}
"""The cue of each closed class whose members are a state someone is in (a shift, a seat, a diet, a theme), not
a thing named in passing ("revoked the thinkpad key" names a laptop, it does not swap one)."""


def sets_state(claim: str) -> bool:
    """The claim's own attribute is such a state and it names a member: asked once per claim."""
    fc = slots.family(claim)
    return fc is not None and fc[0] in _STATE_CLASSES and bool(_MEMBERS[fc[0]].search(claim))


def swapped(claim: str, entry: str) -> bool:
    """The claim sets a state ("omar's back on days") that an entry about more than it holds another member of
    ("he's on nights this month so i'm doing all the school runs"): the entry's first attribute is another, but it
    names this one with its cue, and each names a member the other lacks."""
    if not sets_state(claim):
        return False
    name = slots.family(claim)[0]
    return bool(_STATE_CLASSES[name].search(entry)) and _apart(_MEMBERS[name], claim, entry)
