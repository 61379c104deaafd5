"""A value left for a reason ("brightsmile got way too expensive") or said cancelled at a clause's end ("puregym's
cancelled") is over: a change of what the entry holds, not a further value beside it. Through the engine's default
policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from shared_core import Claim, MemoryEngine, endings
from shared_core.schema import Action

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def test_a_provider_left_because_it_got_too_dear_is_replaced(tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text="our dentist is Brightsmile Dental", namespace="me", source="user",
                                  observed_at=T0)).entry_id
    d = engine.write(Claim(text="signed up with the nhs one on king st, brightsmile got way too expensive", namespace="me",
                           source="user", observed_at=T0 + timedelta(days=1)))
    assert d.action is Action.REVISE and d.target_id == first_id


def test_what_an_ending_names() -> None:
    assert endings.ends("joined the leisure centre, puregym's cancelled") == ("puregym",)
    assert endings.ends("brightsmile got way too expensive") == ("brightsmile",)
    assert endings.ends("the order got too big for one van") == ()         # too big: no reason to leave
