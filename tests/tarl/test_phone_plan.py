"""Who carries a phone line is its own attribute, not the number: "moved my number across to lebara" changes the
provider the user named ("my mobile is with O2 on a 24 month contract"), and leaves the number itself alone ("ported
to lebara, kept the same number" is no new number). Through the engine's default policy on a real SQLite store, in
wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import slots
from shared_core.schema import Action, Ledger

@pytest.mark.parametrize(("first", "then"), [
    ("my mobile is with O2 on a 24 month contract", "porting my number to lebara this week, way cheaper"),
    ("User's cell carrier is T-Mobile.", "ported my number to mint mobile, activation went fine"),
    ("My mobile is with EE", "transferred my number over to voxi, the PAC came through"),
])
def test_a_port_changes_the_provider(first, then, two_writes) -> None:
    engine, first_id, d = two_writes(first, then)
    assert d.action is Action.REVISE and d.target_id == first_id
    assert engine.get(first_id).ledger is Ledger.HISTORY


def test_a_port_keeps_the_number(two_writes) -> None:
    engine, first_id, d = two_writes("my mobile number is 07700 900321", "ported my number to lebara, same digits")
    assert d.action is Action.APPEND
    assert engine.get(first_id).ledger is Ledger.ACCEPTED


@pytest.mark.parametrize(("text", "attribute"), [
    ("on a sim only deal with smarty", "phone_plan"),
    ("my mobile carrier is EE", "phone_plan"),
    ("call me on my mobile, 07700 900321", "phone"),
])
def test_plan_and_number_are_two_attributes(text, attribute) -> None:
    assert slots.infer(text).attribute == attribute
