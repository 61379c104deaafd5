"""A reading its own source calls "unverified" ("reading unverified", "not yet verified") or a record marked as inferred
("source": "inferred_from_email_domain") is hedged: another value from it waits to be checked rather than revising what
memory holds. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_an_unverified_reading_waits(decides) -> None:
    decides("Boiler pressure is 1.5 bar", "boiler app: pressure 0.6 bar (reading unverified, sensor offline)",
            Action.DEFER_VERIFY, Ledger.ACCEPTED, source="tool")


def test_an_inferred_field_is_a_hedge() -> None:
    from shared_core.reliability import hedged

    assert hedged('{"city": "Leeds", "basis": "inferred_from_ip"}')
    assert hedged("new address not yet verified by the bank")
    assert not hedged("address verified by the bank")
