"""Drift: knowledge whose validity ended, or whose time-to-live passed, leaves memory.

Expiry is a pure function of an entry and a time, so ``sweep(now)`` is idempotent (an expired entry is
already in History the second time) and "valid at t" reads need no stored flag.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta, timezone

from ..schema import Entry, Ledger
from . import kinds as K


def expires_at(entry: Entry) -> datetime | None:
    """When the entry stops holding: the earlier of ``valid_to`` and ``observed_at + ttl_seconds``."""
    ends = [entry.valid_to] if entry.valid_to is not None else []
    ttl = entry.metadata.get(K.TTL)
    if isinstance(ttl, (int, float)) and not isinstance(ttl, bool):
        ends.append(entry.observed_at + timedelta(seconds=float(ttl)))
    return min(ends) if ends else None


def valid_at(entry: Entry, when: datetime) -> bool:
    when = when if when.tzinfo is not None else when.replace(tzinfo=timezone.utc)
    end = expires_at(entry)
    return (entry.valid_from is None or entry.valid_from <= when) and (end is None or when < end)


def expired(entries: Iterable[Entry | None], now: datetime) -> list[Entry]:
    """Open entries whose validity or TTL has run out by ``now``, oldest first (None is skipped)."""
    now = now if now.tzinfo is not None else now.replace(tzinfo=timezone.utc)
    out = []
    for e in entries:
        end = expires_at(e) if e is not None else None
        if e is not None and e.ledger is not Ledger.HISTORY and end is not None and end <= now:
            out.append(e)
    return sorted(out, key=lambda e: (e.created_tx, e.id))
