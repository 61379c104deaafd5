"""A change said to come in a season ("changing bin days in spring", "moving to sundays in the autumn") is a future
change, like one in a named month: a rumour of it waits in Pending, where it was taken for hearsay about the current
value and rejected. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe
sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_hearsay_of_a_change_in_a_season_waits(decides) -> None:
    decides("Recycling: glass collected every other Thursday",
            "the lady at no. 12 said glass collection changes to mondays in spring",
            Action.DEFER_VERIFY, Ledger.ACCEPTED, source="third_party", first_source="user")


def test_a_season_ahead_is_a_future_cue() -> None:
    from shared_core.cues import CUES

    assert CUES["cue_future"].search("the pool is closing for repairs in the summer")
    assert CUES["cue_future"].search("they're changing bin days in spring")
    assert not CUES["cue_future"].search("we met in the spring of 2019")
