"""A claim that says its value stays ("staying put", "won't change anytime soon", "not going anywhere") repeats what memory
holds: it replaces nothing, whatever it adds in passing. A change said in the same words is still news."""

from __future__ import annotations

from shared_core import change
from shared_core.schema import Action, Ledger


def test_a_value_said_to_stay_is_a_repeat(decides) -> None:
    decides("I rent a flat in Hackney", "not going anywhere, the hackney flat is fine for now", Action.NOOP, Ledger.ACCEPTED)
    decides("my car is a 2015 Golf", "the golf's staying put, won't change anytime soon", Action.NOOP, Ledger.ACCEPTED)


def test_words_of_staying_are_read_only_where_they_say_it() -> None:
    assert change.unchanged("season ticket at anfield, that never changes")
    assert change.unchanged("same bank, no plans to switch")
    assert not change.unchanged("not changing my mind, but I'm moving to Leeds in May")
    assert not change.unchanged("we're changing energy supplier next week")
