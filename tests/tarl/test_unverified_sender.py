"""A message whose sender is unverified or unknown ("WhatsApp (unknown number): ...", "sender not verified") speaks for
no one yet, even when a tool relays it: the change it reports waits for the owner's word instead of revising."""

from __future__ import annotations

from shared_core.cues import CUES
from shared_core.schema import Action, Ledger


def test_an_unverified_sender_s_change_waits(decides) -> None:
    decides("boiler service booked for 9 May", "WhatsApp (unknown number): 'GasSafe here, your boiler visit moved to 12 May'",
            Action.DEFER_VERIFY, Ledger.ACCEPTED, "tool", "user")


def test_the_cue_reads_the_sender_not_any_unknown() -> None:
    cue = CUES["cue_sender"]
    assert cue.search("email, sender not verified: new bank details for your landlord")
    assert not cue.search("the cause is still unknown, engineer coming back Tuesday")
