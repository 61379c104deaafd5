"""Tokens: the words, numbers, ids and names a text holds, as every comparison of two texts reads them.

Why its own module: grounding, slot inference, the linker, the change model and the cues all compare texts by these
same pieces, so they are read once per text (cached) and in one way; each is lexical, so nothing here depends on the
embedder.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import has_digit
from .written import plain_number

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@/:#-]*")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_INITIAL = re.compile(r"[A-Z]\.")
_IDENT = re.compile(r"\b(?=[A-Za-z0-9_#-]*\d)(?=[A-Za-z0-9_#-]*[A-Za-z])[A-Za-z0-9_#-]{3,}\b")
STOP = frozenset(
    "a an the and or but of to in on at for with by from is are was were be been being am i my me we our you "
    "your he she his her they their it its this that these those as has have had do does did will would can "
    "could should may might must shall so than then there here what which who whom whose when where how also "
    "just very really user user's".split()
)


@lru_cache(maxsize=65536)
def content_tokens(text: str) -> frozenset[str]:
    """Lower-cased content words (cached: every candidate's text is tokenised on every write)."""
    return frozenset({t.lower().strip(".:-/#") for t in _TOKEN.findall(text)} - STOP - {""})


@lru_cache(maxsize=65536)
def numbers(text: str) -> frozenset[str]:
    return frozenset(plain_number(n) for n in _NUMBER.findall(text))


@lru_cache(maxsize=65536)
def identifiers(text: str) -> frozenset[str]:
    """Mixed letter-digit tokens (order ids, ticket keys, flight numbers): the keys tool outputs refresh."""
    return frozenset(m.lower() for m in _IDENT.findall(text) if not MEASURE.match(m)) if has_digit(text) else frozenset()


UNITS = "mg|mcg|ug|g|kg|ml|l|km|cm|mm|gb|mb|tb|lbs?|oz"
"""Units of a quantity, written after its number: shared by ``MEASURE`` and ``quantities``."""
MEASURE = re.compile(rf"\d+(?:[.,]\d+)?(?:{UNITS}|m|kb|k|hrs?|h|mins?|ms|s|st|nd|rd|th|am|pm|x|yo|yrs?|mph|kwh|kw|w|v|p)$"
                     r"|\d{4}-\d\d-\d\dt\d\d$|\d\dz$|\d+(?:am|pm)?-\d+(?:am|pm)$|\d+-(?:hour|day|week|month|year)s?(?:-old)?$",
                     re.I)
"""A number with its unit or ordinal ("50mg", "31kg", "3pm", "14th", "12-month"), or a time ("2024-02-02T21:14:00Z" read as
"2024-02-02T21" and "00Z", "12pm-4pm"): a quantity that changes, not an id that names another thing ("gp bumped the
sertraline up to 100mg" is the same prescription; a device's record read an hour later is the same device)."""
NAME = re.compile(r"[A-Z][a-z][\w&-]*")
"""A name as written: a capital, then lower case ("Falcon", "Ravi", "Riverside"; not an acronym, "CI" or "API": a tool's
label)."""
MOVED_TO = re.compile(r"\b(?:swapped|switched|moved|changed|transferred|upgraded|downgraded|relocated|reassigned|bumped)"
                      r"\s+(?:\w+\s+)?(?:to|into)\s+(?:the\s+|a\s+|an\s+|new\s+)*$", re.I)
"""What a numbered place moved to follows ("switched to locker 31", "moved mum to ward 9"): the number is the value the
held place became, not another place."""


@lru_cache(maxsize=65536)
def entities(text: str) -> frozenset[str]:
    """Capitalised words that are not sentence-initial: names, places, products (an initial's stop ends no sentence)."""
    words = text.split()
    ends = [w.endswith((".", ":", "!", "?")) and not _INITIAL.fullmatch(w) for w in words]   # "A. Chen": a name
    names = {w.strip(".,!?;:'\"()[]{}").lower() for i, w in enumerate(words) if i and w[:1].isupper() and not ends[i - 1]}
    return frozenset(names - STOP - {""})


_LOCATOR = re.compile(r"(?:[a-z][a-z0-9+.-]*://|www\.)[^\s\"'<>)\]]+"
                      r"|(?<![\w.+*-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+(?::[\w./-]+)?"     # an address, a git remote (not "j***n@...")
                      r"|(?<![\w@/.-])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|co|uk|app|ai|internal|local)"   # a host name
                      r"(?:/[^\s\"'<>)\]]*)?", re.I)


@lru_cache(maxsize=65536)
def locators(text: str) -> frozenset[str]:
    """Where a thing lives, written in full: a URL, a git remote, an e-mail address, a host name with its path. Two
    readings naming none of each other's places are about two things (a staging webhook beside a production one),
    however alike the rest of their words."""
    found = (m.group(0).lower().rstrip(".,;:/") for m in _LOCATOR.finditer(text)) if "." in text or "://" in text else ()
    return frozenset(re.sub(r"^(?:[a-z][a-z0-9+.-]*://)?(?:www\.)?", "", f) for f in found)


@lru_cache(maxsize=65536)
def code_names(text: str) -> frozenset[str]:
    """The settings and variables a text names as code (``DB_HOST``, ``worker_processes``), not a call's name nor a
    quoted string (a JSON record's keys and values are its fields, compared by ``records``): where a value lives in a
    config, as a locator is where a thing lives."""
    return frozenset(_UNIT_SUFFIX.sub("", m.group(0).lower()) for m in _CODE_NAME.finditer(text)) if "_" in text else frozenset()


KEY_UNITS = "ms|millis|milliseconds|s|secs?|seconds|mins?|minutes|hours|days|bytes|kb|mb|gb|kib|mib|gib"
"""Units a key's name may end in ("timeout_ms", "MAX_UPLOAD_BYTES"): how its value is written, not which setting it is."""
_UNIT_SUFFIX = re.compile(rf"_(?:{KEY_UNITS})$")


_CODE_NAME = re.compile(r"(?<![\w./@\"'-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/@(-])", re.I)
