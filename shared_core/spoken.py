"""A record's fields as a sentence names them: "GitHub repo acme/api ..., default branch main" holds ``repo`` and
``default_branch`` as a tool's JSON writes them.

Why: a tool's record and the user's or an agent's sentence about the same thing share no field to compare, so a
record naming another repo, or the same repo with another default branch, reads as a repeat of the sentence (its
values are lower-case words no name detector sees) and is dropped. A field is said where the sentence gives its key's
words in order, then the value.
"""

from __future__ import annotations

import re
from functools import lru_cache

_KEY_WORDS = re.compile(r"[a-z]+")
_SAID = r"(?:\s+(?:is|are|was|=|:)|\s*[:=])?\s+[\"']?(?P<value>[\w][\w./@:+-]*)"


@lru_cache(maxsize=16384)
def _pattern(key: str) -> re.Pattern[str] | None:
    words = _KEY_WORDS.findall(key)
    if not words or len("".join(words)) < 4 or len(words) != len(re.findall(r"[^_.\s]+", key)):
        return None             # a key too short to be named ("id"), or with digits ("line2")
    return re.compile(r"(?<![\w/.-])" + r"[\s_-]+".join(map(re.escape, words)) + _SAID)


def fields_said(sentence: str, record: dict[str, str]) -> dict[str, str]:
    """The record's fields the sentence names, with the value it gives: the record's own where they agree (``"St
    James"`` for "clinic st james"), else the sentence's word."""
    text, out = sentence.lower(), {}
    for key, value in record.items():
        if (rx := _pattern(key)) and (m := rx.search(text)):
            word = m.group("value").rstrip(".,;:")
            out[key] = value if value == word or value.startswith(word + " ") else word
    return out


def apart(claim: str, entry: str, a: dict[str, str], b: dict[str, str], identity: re.Pattern[str]) -> bool:
    """A record (fields ``a`` of the claim or ``b`` of the entry) and a sentence naming another thing in a field
    ``identity`` names ("repo acme/api" and ``"repo": "acme/web"``): two things."""
    if bool(a) == bool(b):
        return False
    record = {k: v for k, v in (a or b).items() if identity.search(k)}
    said = fields_said(entry if a else claim, record)
    return any(said[k] != record[k] and _ID_SHAPED.search(said[k]) for k in said)


_ID_SHAPED = re.compile(r"\d|\w[/._#@-]\w")
"""A word that names a thing ("acme/api", "pg-main", "A-4471"), not the next word of the sentence ("reservation on")."""
