"""A switch turned the other way ("the hall heater is off", then "hall heater switched on by the schedule") is a change,
never a repeat of the entry it names again; a bare capitalised ON / OFF on both sides may label two switches, and "on
holiday", "off sick" or "on tuesdays" are no switch. Through the engine's default policy on a real SQLite store, in
wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core import Claim, MemoryEngine, states
from shared_core.schema import Action

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("first", "then", "source"), [
    ("the hall heater is off", "hall heater switched on by the schedule at 6", "tool"),
    ("Maintenance mode is OFF on the shop site.", "shop site: maintenance mode flipped ON by deploy bot", "tool"),
])
def test_a_switch_turned_the_other_way_is_a_change(first, then, source, tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text=first, namespace="home", source="user", observed_at=T0)).entry_id
    d = engine.write(Claim(text=then, namespace="home", source=source, observed_at=T0 + timedelta(days=1)))
    assert d.action is not Action.NOOP
    assert d.action is Action.REVISE and d.target_id == first_id


@pytest.mark.parametrize(("claim", "entry", "switched"), [
    ("garage light turned on again", "the garage light is off", True),
    ("garage light is still off", "the garage light is off", False),
    ("garage: ON", "garage light: OFF", False),               # two bare labels: maybe two switches
    ("priya is on holiday this week", "priya is off sick", False),
    ("bins go out on tuesdays", "bins are off the schedule now", False),
])
def test_where_a_switch_stands(claim, entry, switched) -> None:
    assert states.switched(claim, entry) is switched
