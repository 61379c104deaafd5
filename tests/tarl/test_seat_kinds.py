"""A bulkhead seat and an exit-row seat are seats as window and aisle are, one value each: "bulkhead every time now"
after "Prefers aisle seats" is the seat changed (it was kept beside it). Through the engine's default policy on a real
SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_bulkhead_now_revises_the_seat(decides) -> None:
    decides("Prefers aisle seats", "bulkhead every time now, the legroom", Action.REVISE, Ledger.HISTORY)
