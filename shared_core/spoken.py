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

from .index.embedders import _stem
from .written import plain_number

_KEY_WORDS = re.compile(r"[a-z]+")
_SAID = (r"(?:\s+(?:of|for)\s+(?:the\s+)?(?:[a-z]+\s+)?(?P<of>\w[\w./@#+-]*)\s+(?:is|are|was|=)|"
         r"(?:\s+(?:is|are|was|=|:)|\s*[:=])?)\s+(?:(?:now|still|currently|set\s+to)\s+)?[\"']?"
         r"(?P<value>[\w][\w./@:+-]*)(?:(?<=\d)\s+(?P<unit>[a-z]+))?")
"""The key's words, then the value (a number with its unit: "30 days"); "of" a thing between ("default branch of acme/web
is develop", "... of bucket logs-eu is ...") names whose field it is; "now" or "still" before the value is no value."""


@lru_cache(maxsize=16384)
def _pattern(key: str) -> re.Pattern[str] | None:
    words = _KEY_WORDS.findall(key)
    if not words or len("".join(words)) < 4 or len(words) != len(re.findall(r"[^_.\s]+", key)):
        return None             # a key too short to be named ("id"), or with digits ("line2")
    return re.compile(r"(?<![\w/.-])" + r"[\s_-]+".join(map(re.escape, words)) + _SAID)


_ENDS = re.compile(r"\s*(?:[.!;,()]|$)")
"""What ends a value said whole: a stop, a comma, a note in brackets ("is master (since 2021)"), the text's end."""


def _said(sentence: str, record: dict[str, str]) -> dict[str, tuple[str, str | None, str | None]]:
    """The record's fields the sentence names: the value it gives (the record's own where they agree, ``"St James"``
    for "clinic st james", else the sentence's word), the thing it says the field is of, if any, and the value with its
    unit where it ends the clause (said whole, "is master.", "is 30 days.", not its first word, "is the 3rd")."""
    text, out = sentence.lower(), {}
    own = lambda value, word: value if value == word or value.startswith(word + " ") else word
    for key, value in record.items():
        if (rx := _pattern(key)) and (m := rx.search(text)):
            word = m.group("value").rstrip(".,;:")
            whole = " ".join(filter(None, (word, m.group("unit")))) if _ENDS.match(text, m.end()) else None
            out[key] = own(value, word), m.group("of"), whole and own(value, whole)
    return out


def fields_said(sentence: str, record: dict[str, str]) -> dict[str, str]:
    """The record's fields the sentence names, with the value it gives (``_said``)."""
    return {k: v for k, (v, *_) in _said(sentence, record).items()}


def read(sentence: str, record: str, fields: dict[str, str], identity: re.Pattern[str]) -> dict[str, str]:
    """The record's ``fields`` the sentence states, as values to compare (what names the thing, ``identity``, aside):
    its one number, where a key's words are named ("3 story points" is ``story_points``); else ``stated``."""
    state = {k: v for k, v in fields.items() if not identity.search(k)}
    return _counted(sentence, state) or stated(sentence, record, state)


def stated(sentence: str, record: str, fields: dict[str, str]) -> dict[str, str]:
    """The fields whose key, of two words or more, the sentence says with a whole value ("default branch is master";
    "the station is grim" reads no ``station``), unless it says them of a thing the ``record`` text never names."""
    said = _said(sentence, {k: v for k, v in fields.items() if len(_KEY_WORDS.findall(k)) > 1})
    return {} if _of_other(said, record) else {k: whole for k, (_, _, whole) in said.items() if whole}


_COUNT = re.compile(r"(?<![\w.,-])(\d+(?:\.\d+)?)(?![\w,-]|\.\d)")
"""A number standing alone: not part of an id ("AUTH-42"), a date or a time."""
_WORDS = re.compile(r"[a-z0-9]+")


def _counted(text: str, record: dict[str, str]) -> dict[str, str]:
    """A sentence's number read as the record's numeric field whose key's words it names ("16 GB of RAM" is
    ``ram_gb``): where the sentence states one number and the key is named."""
    counts = _COUNT.findall(text)
    if len(counts) != 1:
        return {}
    words = {_stem(w) for w in _WORDS.findall(text.lower())}
    return {k: plain_number(counts[0]) for k, v in record.items() if _COUNT.match(v)
            and (keyed := {_stem(w) for w in re.split(r"[_.\s]+", k.lower()) if w}) and keyed <= words}


def leading(record: dict[str, str], read: dict[str, str]) -> dict[str, str]:
    """A record's fields that a sentence was read at, their values cut to their leading number ("5 (edited by ...")."""
    return {k: plain_number(m.group(1)) if k in read and (m := _COUNT.match(v)) else v for k, v in record.items()}


def _of_other(said: dict[str, tuple[str, str | None, str | None]], record: str) -> bool:
    return any(of and _ID_SHAPED.search(of) and of.rstrip(".,;:") not in record.lower() for _, of, _ in said.values())


def apart(claim: str, entry: str, a: dict[str, str], b: dict[str, str], identity: re.Pattern[str]) -> bool:
    """A record (fields ``a`` of the claim or ``b`` of the entry) and a sentence naming another thing in a field
    ``identity`` names ("repo acme/api" and ``"repo": "acme/web"``): two things."""
    if bool(a) == bool(b):
        return False
    sentence, text, fields = (entry, claim, a) if a else (claim, entry, b)
    said = _said(sentence, fields)      # every field the sentence names, read once
    if _of_other(said, text):
        return True             # "default branch of acme/web is develop" and a record that never names acme/web
    return any(identity.search(k) and v != fields[k] and _ID_SHAPED.search(v) for k, (v, *_) in said.items())


_ID_SHAPED = re.compile(r"\d|\w[/._#@-]\w")
"""A word that names a thing ("acme/api", "pg-main", "A-4471"), not the next word of the sentence ("reservation on")."""
