"""Relatives under the names people call them: "my sis" is "my sister" and "mum" is "mother" (one subject), and a
relative said to be somewhere is who the text is about ("grandad's still at home": not the user)."""

from __future__ import annotations

import re

NICKNAMES = frozenset(("sis", "bro", "hubby", "mam", "gran", "nan", "grandad", "stepdaughter", "stepson"))
"""Relations said the everyday way, beside ``slots.RELATIONS``' own words."""
KIN = {"sis": "sister", "bro": "brother", "hubby": "husband", "mom": "mum", "mother": "mum", "mam": "mum", "father": "dad",
       "gran": "grandma", "nan": "grandma", "grandad": "grandpa"}
"""One relative under each of the names people call them: one subject (``slots.same_subject``), each subject still
named as its text says (other tests read that word in the text)."""
_WHERE = re.compile(r"\s*(?:my\s+)?(\w+)(?:['’]s|\s+is)\s+(?:still\s+|now\s+)?(?=(?:in|at|on|with|away|back|off|home)\b)",
                    re.I)


def one(a: str, b: str) -> bool:
    """Two subjects that name one relative by two names ("sis" and "sister", "user.mum" and "user.mother")."""
    return _named(a) == _named(b)


def _named(subject: str) -> str:
    owner, _, word = subject.rpartition(".")
    return f"{owner}.{KIN.get(word, word)}" if owner else KIN.get(word, word)


def whereabouts(text: str) -> re.Match[str] | None:
    """A word the text opens with, said to be somewhere ("grandad's still at home", "my grandma is in a care home"):
    the caller decides whether the word names a relative."""
    return _WHERE.match(text)
