"""Initials: a name said by its initials in one text and in full in the other ("NYC" and "New York City", "UCL" and
"University College London", "RBS" and "Royal Bank of Scotland").

Why its own test: the comparisons downstream read words as written, so "I'm in NYC" after "User lives in New York
City" swaps three words for one, a new value, where it is the same city again. The claim is rewritten in the entry's
words before the two are compared, as ``units`` does for an amount in another unit.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(r"(?<![\w.'’-])([A-Z]{2,6}|[a-z]{3,6})(?![\w'’-])")
"""A token that may be initials: capitals ("NYC", "UCL") or three letters or more typed in lower case ("nyc")."""
_CAPS = re.compile(r"(?<![\w.'’-])[A-Z]{2,6}(?![\w'’-])")
"""Initials in capitals: the form an entry that gives a name by its initials writes them in."""
_COMMON = frozenset("the and for but not you are was can its our out all any who how why now new old yes one two six "
                    "ten get got has had her him his see saw say use way day man men did off per via too own yet".split())
"""Lower-case words of three letters that read as initials of nothing."""
_WORD = re.compile(r"[A-Za-z][\w'’-]*")
_SKIP = frozenset("of and the for & de du la le van von".split())
"""Small words a name's initials pass over ("Royal Bank of Scotland" is "RBS")."""
_RUN = re.compile(rf"[A-Z][\w'’-]*\s+(?:(?:{'|'.join(_SKIP)})\s+)*[A-Z]")
"""Two capitalised words in a row: where a name may be."""


@lru_cache(maxsize=65536)
def _names(text: str) -> dict[str, str]:
    """Initials -> the words they stand for, for each run of two or more capitalised words in ``text`` (small words
    inside it passed over): "User lives in New York City" gives {"nyc": "New York City"}."""
    if not _RUN.search(text):
        return {}
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    out: dict[str, str] = {}
    for i, (w, start, _) in enumerate(words):
        if not w[0].isupper() or i == 0 and w in ("User", "The", "My", "Our", "I"):
            continue
        letters = ""
        for j in range(i, len(words)):
            word, _, end = words[j]
            if word.lower() in _SKIP and letters:
                continue
            if not word[0].isupper():
                break
            letters += word[0].lower()
            if len(letters) >= 2:
                out.setdefault(letters, text[start:end])
    return out


def restated(claim: str, entry: str) -> str:
    """``claim`` with initials the entry spells out written as the entry writes them ("I'm in NYC" for "User lives
    in New York City" reads "I'm in New York City"), and a name the entry gives by its initials written so."""
    if full := _names(entry):
        claim = _TOKEN.sub(lambda m: m.group() if m.group().lower() in _COMMON else full.get(m.group().lower(), m.group()),
                           claim)
    if caps := {t.lower(): t for t in _CAPS.findall(entry)}:
        for letters, said in sorted(_names(claim).items(), key=lambda kv: -len(kv[1])):
            if letters in caps and said in claim:
                claim = claim.replace(said, caps[letters])
    return claim


def named(claim: str, entries: list[str]) -> list[bool]:
    """Per entry: the claim gives a name of the entry's by its initials, or spells out initials the entry gives ("still
    in SF" for "User lives in San Francisco"): the name is the link, as an amount in another unit is (``units``). Asked
    of every candidate of every claim: the claim's sets are read once."""
    tokens, names = _tokens(claim), _names(claim)
    return [not tokens.isdisjoint(_names(e)) or bool(names) and not _caps(e).isdisjoint(names) for e in entries]


@lru_cache(maxsize=65536)
def _tokens(text: str) -> frozenset[str]:
    """The text's tokens that may be initials, lower-cased: asked of a claim once, then of each candidate's names."""
    return frozenset(t.lower() for t in _TOKEN.findall(text)) - _COMMON


@lru_cache(maxsize=65536)
def _caps(text: str) -> frozenset[str]:
    """The text's initials in capitals, lower-cased: asked of each candidate of a claim that names a name in full."""
    return frozenset(t.lower() for t in _CAPS.findall(text))


def prepare(text: str) -> None:
    """Fill the per-text caches a pair reads here (see ``decision.prepare``)."""
    _names(text), _tokens(text), _caps(text)

