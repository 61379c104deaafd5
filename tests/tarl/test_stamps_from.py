"""An entry that says from when it holds ("Imani covers weekends via swap from 2024-11-02", "from 1 Aug 2024") dates
itself: a record exported before that day is the stale one and is rejected; one exported after it is the rota's new
state. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_record_exported_before_the_entry_holds_is_rejected(decides) -> None:
    decides("Support rota: Imani covers weekends via swap from 2024-11-02",
            "rota.csv (exported 2024-10-28): weekend cover = Theo",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, source="tool", first_source="user")


def test_a_record_exported_after_it_revises(decides) -> None:
    decides("Support rota: Imani covers weekends via swap from 2024-11-02",
            "rota.csv (exported 2024-11-09): weekend cover = Theo",
            Action.REVISE, Ledger.HISTORY, source="tool", first_source="user")


def test_a_day_written_out_is_read_as_a_stamp() -> None:
    from shared_core.stamps import newer

    assert newer("Lease (executed 2023-07-20): rent $1,850", "rent is $1,975 a month from 1 Aug 2024") == -1
    assert newer("Lease (executed 2024-09-02): rent $1,975", "rent is $1,975 a month from 1 Aug 2024") == 1
