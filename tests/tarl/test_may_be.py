""""may be" is a guess as "may change" is ("Your train ... may be cancelled due to strike action"): a change only said
to be possible waits."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_may_be_waits(decides) -> None:
    decides("Train 1P22 to Leeds on 4 Jul departs 07:15", 'sms.inbox[0]: "LNER: Your train 1P22 on 4JUL may be cancelled '
            "due to strike action. We'll update you.\"", Action.DEFER_VERIFY, Ledger.ACCEPTED, source="tool",
            first_source="user")


def test_may_be_is_a_guess() -> None:
    from shared_core.cues import CUES

    assert CUES["cue_may"].search("your flight may be delayed")
    assert not CUES["cue_may"].search("May be the month we move")
