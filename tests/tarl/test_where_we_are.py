""""we're in Cardiff now" says where the speaker lives as "i'm in Cardiff now" does, so it revises "lives in Bristol"
(it was kept beside it: no word shared, no family named); a stay bounded in time ("in Paris for the weekend", "till
friday") is a visit, one more place been to, never where one lives. Through the engine's default policy on a real SQLite
store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_where_we_are_now_revises_the_home(decides) -> None:
    decides("I live in Exeter", "finally all unpacked, we're now in Truro", Action.REVISE, Ledger.HISTORY)


def test_a_stay_is_kept_beside_the_home(decides) -> None:
    decides("I live in Exeter", "we're in Lisbon for the week, back sunday", Action.APPEND, Ledger.ACCEPTED)
    decides("I live in Exeter", "i'm in Glasgow until thursday for a conference", Action.APPEND, Ledger.ACCEPTED)


def test_an_assistant_placing_the_user_elsewhere_is_rejected(decides) -> None:
    decides("I live in Exeter", "Since you're in Plymouth, the nearest IKEA is the one in Bristol.",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, source="assistant", first_source="user")
    decides("I live in Exeter", "you're in Madrid until friday, so I'll set reminders in CET",
            Action.APPEND, Ledger.ACCEPTED, source="assistant", first_source="user")
