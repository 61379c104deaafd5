"""A relative's thing written without the apostrophe ("Mums locker", "nans flight") is theirs, as "Mum's locker"
is: two relatives' things are two things, and the same relative's moves."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then", [
    ("Mums locker at the gym is number 31.", "Dads locker at the gym is number 36."),
    ("Grandads flight to Malaga lands at 14:05.", "nans flight to Malaga lands at 16:40."),
])
def test_two_relatives_things_written_unmarked_are_two(kept_beside, first, then) -> None:
    kept_beside(first, then, "user")


def test_the_same_relatives_thing_moves(decides) -> None:
    decides("Mum's locker at the gym is number 31.", "Mums locker at the gym is number 44 now.", Action.REVISE, Ledger.HISTORY)
