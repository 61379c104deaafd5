"""A change the speaker says they still have to check ("need to dig it out", "have to double-check") or could not
make out ("couldn't quite hear it") is unconfirmed: it waits, whatever "I think" says of it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_change_still_to_check_waits(decides) -> None:
    decides("Driving licence expires in 2029", "hang on, i think my licence actually runs out in 2026?? have to "
            "double-check the card", Action.DEFER_VERIFY, Ledger.ACCEPTED)


def test_a_change_not_made_out_waits(decides) -> None:
    decides("Piano lesson Thursday 5pm", "i think the piano teacher moved the lesson to friday? left a voicemail, couldnt "
            "quite hear it", Action.DEFER_VERIFY, Ledger.ACCEPTED)
