"""A sender's sentence that says it confirms ("... confirming your appointment on Monday June 2nd at 4:00pm") and names
every value held is a repeat, whatever else it says (the sender's name, how to reply); another time is not."""

from __future__ import annotations

from shared_core.schema import Action, Ledger

HELD = "Dentist appointment Monday 2 June at 4pm"


def test_a_confirmation_naming_every_value_is_a_repeat(decides) -> None:
    decides(HELD, "Hi, this is Parkside Dental confirming your appointment on Monday June 2nd at 4:00pm. Reply C to "
            "confirm.", Action.NOOP, Ledger.ACCEPTED, source="third_party", first_source="user")


def test_a_confirmation_of_another_time_is_no_repeat(two_writes) -> None:
    _, _, d = two_writes(HELD, "Hi, this is Parkside Dental confirming your appointment on Monday June 2nd at 5:00pm. "
                         "Reply C to confirm.", "third_party", "user")
    assert d.action is not Action.NOOP
