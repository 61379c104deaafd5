"""Firm future-dated changes (``tarl_labels.md``): a claim that dates its own change after it was observed,
stated firmly by a source that is not relaying others, revises; the same date in hearsay or under a hedge
waits; a further value of a multi-valued attribute is still a further value. Through a real engine."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core import Claim, MemoryEngine
from shared_core.schema import Action, Ledger

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=timezone.utc)
RENT = "rent's £1,100 a month, due on the 1st"
NOTICE = "Notice of rent increase (signed by the landlord): your rent will be £1,180 per month from 1 June."


def write(engine: MemoryEngine, text: str, source: str, day: int, valid_from_day: int | None = None,
          slot: str | None = None, many: bool | None = None):
    return engine.write(Claim(text=text, namespace="n", source=source, observed_at=T0 + timedelta(days=day), slot=slot,
                              many=many, valid_from=None if valid_from_day is None else T0 + timedelta(days=valid_from_day)))


@pytest.mark.parametrize("slot", [None, "home.rent"])
def test_a_signed_notice_of_a_dated_change_revises_and_keeps_the_old_value(tmp_path, slot) -> None:
    engine = MemoryEngine.open(tmp_path)
    old = write(engine, RENT, "user", 0, slot=slot, many=False if slot else None)
    d = write(engine, NOTICE, "document", 10, valid_from_day=61, slot=slot, many=False if slot else None)
    assert d.action is Action.REVISE and d.target_id == old.entry_id
    assert engine.get(old.entry_id).ledger is Ledger.HISTORY      # kept for as-of queries


@pytest.mark.parametrize("text, source", [
    ("[from Gail next door] the landlord's putting everyone's rent up to £1,180 from June", "third_party"),
    ("the landlord might put the rent up to £1,180 from June", "document"),
    ("I think the rent may go up to £1,180 from June if the review goes through", "user"),
])
def test_the_same_date_in_hearsay_or_under_a_hedge_waits(tmp_path, text, source) -> None:
    engine = MemoryEngine.open(tmp_path)
    old = write(engine, RENT, "user", 0, slot="home.rent", many=False)
    d = write(engine, text, source, 10, valid_from_day=61, slot="home.rent", many=False)
    assert d.action in (Action.DEFER_VERIFY, Action.REJECT_CONFLICT)
    assert engine.get(old.entry_id).ledger is Ledger.ACCEPTED


def test_a_dated_further_value_of_a_multi_valued_attribute_is_appended(tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path)
    write(engine, "got a cat, Miso, 2yo tabby", "user", 0, slot="user.pets", many=True)
    d = write(engine, "home check passed, Bolt the greyhound comes home saturday!", "user", 1, valid_from_day=4,
              slot="user.pets", many=True)
    assert d.action is Action.APPEND
