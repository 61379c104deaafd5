"""A sender "claiming to be" the keeper of a fact (the labels' example: "an unknown email claiming to be the landlord")
speaks for no one yet: its other value waits to be verified rather than being rejected as hearsay or taken."""

from __future__ import annotations

from shared_core.cues import CUES

_sender = CUES["cue_sender"].search


def test_claiming_to_be_is_a_sender() -> None:
    assert _sender("A caller claiming to be the school office said pickup is now 3:15")
    assert _sender("Message purporting to be from the council: bins now go out on Fridays")
    assert not _sender("The school office said pickup is now 3:15")


def test_its_other_value_waits(decides) -> None:
    from shared_core.schema import Action, Ledger

    decides("Kids' school pickup is at 3pm", "A caller claiming to be the school office said pickup is now 3:15",
            Action.DEFER_VERIFY, Ledger.ACCEPTED, source="third_party", first_source="user")
