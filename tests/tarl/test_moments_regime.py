"""A moment said to hold "this term", "this season" or "from now on" is a new arrangement: "Zoe's piano lesson is
Thursdays this term" moves the weekday of "Zoe has piano on Mondays" (one value of her many activities), it is no
second lesson beside it; a day only added ("and fridays too") still moves nothing. Through the engine's default policy
on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import moments
from shared_core.schema import Action

def test_a_new_term_moves_the_day(two_writes) -> None:
    _, first, d = two_writes("User's son Ravi does judo on Mondays.", "Ravi's judo is Thursdays this term")
    assert d.action is Action.REVISE and d.target_id == first


@pytest.mark.parametrize(("claim", "moving"), [
    ("choir is on wednesdays this season", True),
    ("standup's at 9:45 from now on", True),
    ("choir was great on wednesday", False),
])
def test_what_sets_a_new_arrangement(claim, moving) -> None:
    assert bool(moments.moving(claim)) is moving
