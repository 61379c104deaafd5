"""Stamps: when a record says it was read, written or took effect, and which of two records is the newer.

Why apart from ``change``: a stamp says nothing of what changed, only when; "older validity loses" (a stale cache, an
old document) is decided on it wherever the two texts' values are worded.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache

from .written import _MONTHS

_STAMP = re.compile(
    r"[\"']?(\w*?(?:as_of|updated|modified|synced|fetched|cached|retrieved|timestamp|_at|last_\w+|rotated|"
    r"snapshot|valid_from|mtime|export(?:ed)?|backup|artifact|dump|since|effective|read|received|dispensed|dated|"
    r"archived|edited|imported|e-?mail|letter|notice|statement|receipt|invoice|payslip|executed|written|generated|"
    r"created|sent|submitted|issued|reassigned|printed|published|posted|logged|after)\w*?|ts|from)[\"']?"
    r"(?:\s*[:=]\s*|\s+\(?|_)[\"']?(\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?)", re.I)
"""When a record was read, written or took effect: a key, or a word ("export (2023-06-14)", "mtime 2024-02-10",
"oncall_export_2024-05-01.csv", "since 2024-05-06", "via override from 2024-06-05", "executed 2023-07-20", "digest
(generated 2024-06-03 18:00)", "DNS after 2024-06-05", a document's own: "confirmation email 2024-05-14"), before a date."""


_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
"""What every stamp holds: a text without it has none, found faster than by ``_STAMP``'s own search."""


@lru_cache(maxsize=65536)
def stamp(text: str) -> str | None:
    """The latest time a record says it was read or written (``"as_of": "2026-03-01"``), ISO, or None."""
    text = _WRITTEN.sub(_iso, text)     # "from 1 Aug 2024" is "from 2024-08-01"
    if not _DAY.search(text):
        return None
    return max((m.group(2).replace(" ", "T") for m in _STAMP.finditer(text)), default=None)


_WRITTEN = re.compile(r"\b(\d{1,2}) (jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* (\d{4})\b", re.I)
"""A day written out with its year ("1 Aug 2024"): the date a stamp's ISO form gives."""


def _iso(m: re.Match[str]) -> str:
    return f"{m.group(3)}-{_MONTHS.index(m.group(2).lower()) + 1:02d}-{int(m.group(1)):02d}"


def newer(claim: str, entry: str) -> int:
    """+1 when the claim's record was read after the entry's, -1 before, 0 when either says no time: a
    snapshot is stale only against a newer one, however its fields are named ("as_of" on both sides)."""
    a, b = stamp(claim), stamp(entry)
    if a is None or b is None or a[:10] == b[:10]:
        return 0
    return 1 if a > b else -1


_YEAR = re.compile(
    r"\b(?:last updated|updated|as of|season|q[1-4]|published|printed|posted|archived|snapshot|export(?:ed)?|edition|"
    r"scanned|copyright|dated|generated)\W{1,3}(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* )?((?:19|20)\d\d)\b|"
    r"\b((?:19|20)\d\d) (?:guide(?:book)?|edition|brochure|report|export|snapshot|listing|post|(?:proposal )?record|"
    r"spreadsheet|inventory|archive|survey|census|directory|catalog(?:ue)?|timetable|prospectus|handbook|leaflet)\b|"
    r"\b(?:post|page|listing|review|article|thread|record|export|report|snapshot|spreadsheet|inventory|guide) "
    r"\(((?:19|20)\d\d)\)|"
    r"\b(?:backup|export|snapshot|dump|archive|copy|screenshot|printout|scan) (?:from|of|dated|taken|made) "
    r"(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* )?((?:19|20)\d\d)\b|"
    r"\b(?:my|an?|the|old) ((?:19|20)\d\d) (?:cv|resume|résumé)\b", re.I)
"""A document's own year ("Yelp (last updated 2022)", "Scanned 2016 guidebook", "Facebook post (2019)", "inventory
spreadsheet (Q3 2022)", "data as of December 2023", "Contacts backup from 2021", "my 2021 CV"): when it was true, not
a year it speaks of ("since 2019")."""


@lru_cache(maxsize=65536)
def year(text: str) -> int | None:
    """The year a record says it was read or written, from a full stamp or a document's own year; None when it says none."""
    if (day := stamp(text)) is not None:
        return int(day[:4])
    return max((int(next(g for g in m.groups() if g)) for m in _YEAR.finditer(text)), default=None)


def older(claim: str, entry: str, observed: datetime) -> int:
    """-1 when the claim's record is of a year before the entry's own, or, where the entry says none, over a year before
    the entry was observed: an old document against what memory holds now ("older validity loses"); else 0."""
    said = year(claim)
    if said is None:
        return 0
    held = year(entry)
    return -1 if said < (held if held is not None else observed.year - 1) else 0
