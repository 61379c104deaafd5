"""A new value said to hold now or these days, on the one-valued attribute an entry holds, replaces it even where the
inferred link is middling: "soy cortado these days" after "usual coffee: flat white" is the order moved, not a second one;
a time word alone ("recently had a mocha") dates an event and replaces nothing. Through the engine's default policy on a
real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize(("first", "then"), [
    ("User's usual coffee: flat white", "soy cortado these days"),
    ("User lives in Norwich", "picked up the keys for the leeds flat, all moved in now"),
    ("User lives in Exeter", "the move's done, we're in the plymouth flat now"),
])
def test_a_value_said_to_hold_now_replaces_the_one_held(first, then, decides) -> None:
    decides(first, then, Action.REVISE, Ledger.HISTORY)


def test_a_time_word_alone_dates_and_replaces_nothing(decides) -> None:
    decides("User's usual coffee is a cappuccino", "recently had a mocha at the station", Action.APPEND, Ledger.ACCEPTED)
