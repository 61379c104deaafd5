"""A person held as an attribute's value (an emergency contact, an on-call engineer) replaced by naming someone else,
in chat's lower case too ("put dana down as my emergency contact"): a change, never a repeat dropped as ``noop``; naming
the same person again is the repeat. Through the engine's default policy on a real SQLite store, in wordings the corpus
and the probe sets do not use."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core import Claim, MemoryEngine, slots
from shared_core.schema import Action

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def two(first: str, then: str, tmp_path):
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text=first, namespace="me", source="user", observed_at=T0)).entry_id
    return engine.write(Claim(text=then, namespace="me", source="user", observed_at=T0 + timedelta(days=1))), first_id


@pytest.mark.parametrize("then", ["put dana down as my emergency contact please",
                                  "can you list dana as emergency contact, ray's away a lot"])
def test_someone_else_named_as_the_contact_is_a_change(then, tmp_path) -> None:
    d, first_id = two("my emergency contact is my dad ray, 07700 900555", then, tmp_path)
    assert d.action is Action.REVISE and d.target_id == first_id


def test_the_same_person_named_again_is_a_repeat(tmp_path) -> None:
    d, first_id = two("my emergency contact is my dad ray, 07700 900555", "put ray down as my emergency contact", tmp_path)
    assert d.action is Action.NOOP and d.target_id == first_id


def test_an_emergency_contact_is_its_own_attribute() -> None:
    assert slots.family("next of kin: my sister")[0] == "emergency_contact"
    assert slots.family("ICE contact is my partner")[0] == "emergency_contact"


@pytest.mark.parametrize("then", ['opsgenie.whoisoncall(schedule="infra") -> {"oncall": "nadia", "ends": "Thu 08:00"}',
                                  "rota-bot: infra on-call is @nadia till thursday"])
def test_a_tool_naming_another_on_call_by_handle_is_a_change(then, tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text="kofi is on call for infra this week", namespace="ops", source="user",
                                  observed_at=T0)).entry_id
    d = engine.write(Claim(text=then, namespace="ops", source="tool", observed_at=T0 + timedelta(days=1)))
    assert d.action is not Action.NOOP
    assert d.action is Action.REVISE and d.target_id == first_id
