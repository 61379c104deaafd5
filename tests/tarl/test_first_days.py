"""A first day or week somewhere the entry does not say the user was starting is news: "first day at deliveroo today,
weird not being at ocado" after "User works at Ocado" changes the employer, though it names the old one too; after "I
start at Fennick Bio on the 3rd" the first week there repeats what was said. Through the engine's default policy on a
real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_first_day_somewhere_new_is_no_repeat(decides) -> None:
    decides("User works at Ocado", "first day at deliveroo today, weird not being at ocado", Action.REVISE, Ledger.HISTORY)


def test_a_first_week_where_a_start_was_said_is_a_repeat(decides) -> None:
    decides("I start at Fennick Bio on the 3rd", "first week at fennick done, lovely people", Action.NOOP, Ledger.ACCEPTED)
