"""A record dated before the fact memory holds is older validity, and loses: "settings_export_2024-06-15.json:
retention_days=14" does not replace "Backup retention is 30 days (effective 2024-09-01)", and another value it holds is
rejected. The date counts where a word
says the record was read, written or took effect ("export (2023-06-14)", "mtime 2024-02-10", "since 2024-05-06"), not
where a date is only what a text is about. Through the engine's default policy on a real SQLite store, in wordings the
corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import stamps
from shared_core.schema import Action, Ledger

def test_an_older_export_does_not_replace_the_fact(two_writes) -> None:
    engine, first, d = two_writes("Backup retention is 30 days (effective 2024-09-01)",
                                  "settings_export_2024-06-15.json: retention_days=14", "tool")
    assert d.action is not Action.REVISE
    assert engine.get(first).ledger is Ledger.ACCEPTED


@pytest.mark.parametrize(("claim", "entry", "order"), [
    ("crm export (2023-06-14): city=Leeds", "address updated 2024-02-01: York", -1),
    ("backup.conf (mtime 2024-02-10): workers = 4", "workers = 8 (valid_from 2024-05-01)", -1),
    ("on call since 2024-07-01: Ravi", "rota_export_2024-05-01.csv: oncall=Dev", 1),
    ("flight on 2024-05-10 to Oslo", "trip booked 2024-04-01", 0),      # what the text is about, no reading
])
def test_when_a_record_was_read(claim, entry, order) -> None:
    assert stamps.newer(claim, entry) == order


@pytest.mark.parametrize(("first", "then"), [
    ("Ticket OPS-77 status Resolved (updated 2025-02-14T10:00Z)",
     "ops-tracker cache: OPS-77 status=Open updated=2025-02-01T08:00Z"),
    ("Build agent runs Java 21 (read 2025-04-02)", "inventory export dated 2024-11-30: java=17"),
    ("Booking REF-9 check-in 3 June (updated 2025-05-20)", "booking letter 2025-05-02: REF-9 check-in 1 June"),
    ("Council tax band D (updated 2025-04-01)", "council tax statement 2024-11-03: band E"),
])
def test_another_value_read_before_the_fact_is_rejected(first, then, decides) -> None:
    decides(first, then, Action.REJECT_CONFLICT, Ledger.ACCEPTED, "tool")
