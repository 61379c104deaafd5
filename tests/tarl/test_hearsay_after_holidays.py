"""Someone else's view ("my supervisor thinks ...", "the landlord hinted ...") is their word as what they "said" is, and
a change "after Christmas" or "after Easter" is to come as one "by Christmas" is: heard of, it waits to be confirmed (a
mum at the gate saying school starts at 8:30 after Easter was rejected as a contradiction of what holds now). Through the
engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_change_heard_of_for_after_christmas_waits(decides) -> None:
    decides("Our bin day is Thursday", "neighbour said bin day moves to monday after christmas, nothing from the council yet",
            Action.DEFER_VERIFY, Ledger.ACCEPTED)


def test_views_and_hints_are_hearsay_and_holidays_ahead_are_later() -> None:
    from shared_core.cues import CUES

    assert CUES["cue_hearsay"].search("my accountant thinks the filing deadline slips to march")
    assert CUES["cue_hearsay"].search("the landlord hinted at a rise")
    assert CUES["cue_later"].search("swimming moves to tuesdays after easter")
