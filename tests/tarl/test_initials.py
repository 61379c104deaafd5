"""A name by its initials (``shared_core.initials``): "NYC" is "New York City" said again; through a real engine, a
restatement by initials changes nothing."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core import Claim, MemoryEngine
from shared_core.initials import named, restated
from shared_core.schema import Action

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize(("claim", "entry", "said"), [
    ("I'm in NYC", "User lives in New York City.", "I'm in New York City"),
    ("im at ucl now", "User studies at University College London", "im at University College London now"),
    ("banking with Royal Bank of Scotland", "User banks with RBS", "banking with RBS"),     # small words passed over
    ("moved to LA", "User lives in San Francisco", "moved to LA"),                          # other initials: as said
    ("the new CEO is Sam", "Sam Evans is CEO", "the new CEO is Sam"),
    ("the kids are out", "User works at The Kids Organisation", "the kids are out"),       # a word, not initials
])
def test_initials_are_written_as_the_entry_writes_the_name(claim, entry, said) -> None:
    assert restated(claim, entry) == said
    assert named(claim, [entry]) == [said != claim]


def test_a_name_said_by_its_initials_again_changes_nothing(tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    try:
        first = engine.write(Claim(text="User lives in San Francisco", namespace="u", source="user", observed_at=T0))
        d = engine.write(Claim(text="still in SF, rent is insane", namespace="u", source="user",
                               observed_at=T0 + timedelta(days=1)))
        assert d.action is Action.NOOP and d.target_id == first.entry_id
        assert [e.text for e in engine.state("u").accepted] == ["User lives in San Francisco"]
    finally:
        engine.close()
