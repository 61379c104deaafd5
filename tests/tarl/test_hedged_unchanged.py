"""A value said unchanged with a hedge ("I think that hasn't changed") hedges no change: from its owner, a repeat,
neither a replacement nor a claim to wait on, even where the date is written another way ("9th of june")."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_hedged_unchanged_date_is_a_repeat(decides) -> None:
    decides("Our anniversary is 9 June.", "9th of june, I think that hasn't changed haha", Action.NOOP, Ledger.ACCEPTED)


def test_a_hedged_unchanged_value_is_a_repeat(decides) -> None:
    decides("My locker is number 212.", "locker 212, I'm fairly sure nothing's changed there", Action.NOOP, Ledger.ACCEPTED)
