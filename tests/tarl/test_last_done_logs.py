"""A log's line on when a thing was last seen to ("Garage smoke alarm last tested on 5 May") opens with the thing: the
words before "last" name it, so two of a kind named apart are two things, and the same one's later date moves it."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then", [
    ("Garage smoke alarm last tested on 5 May", "Loft smoke alarm last tested on 5 May"),
    ("Downstairs boiler last serviced in March 2025", "Annexe boiler last serviced in October 2024"),
])
def test_two_things_last_seen_to_are_two(kept_beside, first, then) -> None:
    kept_beside(first, then, "user")


def test_the_same_thing_seen_to_again_moves(decides) -> None:
    decides("Garage smoke alarm last tested on 5 May", "Garage smoke alarm last tested on 2 June", Action.REVISE,
            Ledger.HISTORY)
