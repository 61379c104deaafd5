"""The very values an entry holds said again with "now" ("Theo is 9 now" after "Son Theo is 9") are no change: "now"
is no sign of change when nothing moved, so the entry is not replaced by its own copy. Through the engine's default
policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_the_same_age_now_is_a_repeat(decides) -> None:
    decides("Son Theo is 9", "Theo is 9 now", Action.NOOP, Ledger.ACCEPTED)


def test_another_age_now_still_revises(decides) -> None:
    decides("Son Theo is 9", "Theo is 10 now", Action.REVISE, Ledger.HISTORY)
