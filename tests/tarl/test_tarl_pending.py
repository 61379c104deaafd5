"""Pending resolution: corroboration promotes, verify resolves, expiry closes — each through the
executor and the transaction log, and replayable with ``state(ns, as_of)``."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.grounding import Grounding
from shared_core.reliability import Comparison
from shared_core.schema import Action, Claim, Decision, Ledger, Reason

T0 = datetime(2026, 5, 1, tzinfo=timezone.utc)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


class DeferUnlessUser:
    """A real policy: trusts only the user; everything else waits for verification."""

    name = "defer_unless_user"

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        if claim.source == "user":
            return Decision(action=Action.APPEND)
        return Decision(action=Action.DEFER_VERIFY, target_id=grounding.target.id if grounding.target else None)


@pytest.fixture
def eng():
    clock = Clock()
    e = MemoryEngine.open(policy=DeferUnlessUser(), clock=clock)
    e.clock_ref = clock  # type: ignore[attr-defined]
    yield e
    e.close()


def rumour(text: str = "Ben adopted a greyhound called Comet", source: str = "third_party") -> Claim:
    return Claim(text=text, namespace="ben", source=source, confidence=0.6, observed_at=T0)


def test_corroboration_from_another_source_promotes_through_the_log(eng) -> None:
    d1 = eng.write(rumour())
    assert [e.id for e in eng.pending("ben")] == [d1.entry_id]
    d2 = eng.write(rumour(source="tool"))           # same meaning, independent source
    assert d2.action is Action.NOOP and d2.target_id == d1.entry_id and "corroborates" in d2.rationale
    assert [e.id for e in eng.accepted("ben")] == [d1.entry_id] and eng.pending("ben") == []
    log = eng.log("ben")
    assert [t.action for t in log] == [Action.DEFER_VERIFY, Action.NOOP, Action.PROMOTE]
    assert eng.state("ben", as_of=log[1].tx).ledger(Ledger.PENDING)[0].id == d1.entry_id
    assert eng.state("ben", as_of=d2.tx).ledger(Ledger.ACCEPTED)[0].id == d1.entry_id


def test_same_source_repeat_or_different_content_does_not_corroborate(eng) -> None:
    d1 = eng.write(rumour())
    eng.write(rumour())                                                   # same source again
    eng.write(rumour("Ben adopted a greyhound called Blaze", source="tool"))  # differs in a name
    assert d1.entry_id in {e.id for e in eng.pending("ben")} and eng.accepted("ben") == []


def test_verify_accept_and_reject_are_logged_and_replayable(eng) -> None:
    a = eng.write(rumour()).entry_id
    b = eng.write(rumour("Ben is moving to Quito next spring")).entry_id
    ta = eng.verify(a, accept=True)
    tb = eng.verify(b, accept=False)
    assert {e.id for e in eng.accepted("ben")} == {a}
    (closed,) = eng.history("ben")
    assert closed.id == b and closed.reason is Reason.REJECTED
    assert {e.id for e in eng.state("ben", as_of=ta.tx).pending} == {b}
    assert [t.action for t in eng.log("ben")][-2:] == [Action.PROMOTE, Action.CLOSE] and tb.tx > ta.tx


def test_expiry_closes_only_stale_pending_entries(eng) -> None:
    old = eng.write(rumour()).entry_id
    eng.clock_ref.now = T0 + timedelta(days=20)
    young = eng.write(rumour("Ben might run the Lisbon marathon").model_copy(update={"observed_at": T0 + timedelta(days=20)})).entry_id
    done = eng.sweep_pending("ben", now=T0 + timedelta(days=31), max_age=timedelta(days=30))
    assert [t.action for t in done] == [Action.CLOSE]
    (expired,) = eng.history("ben")
    assert expired.id == old and expired.reason is Reason.EXPIRED
    assert {e.id for e in eng.pending("ben")} == {young}
    assert {e.id for e in eng.state("ben", as_of=done[0].tx - 1).pending} == {old, young}
    assert eng.sweep_pending("ben", now=T0 + timedelta(days=31), max_age=timedelta(days=30)) == []


def test_bad_max_age_is_refused_and_writes_nothing(eng) -> None:
    eng.write(rumour())
    head = eng.store.head()
    with pytest.raises(TarlError, match="max_age"):
        eng.sweep_pending("ben", max_age=timedelta(days=-1))
    assert eng.store.head() == head
