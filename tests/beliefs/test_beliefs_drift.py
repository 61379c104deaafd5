"""Drift: sweep(now) expires what ran out (validity, TTL), idempotently; reads valid at time t."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core.errors import TarlError
from shared_core.executor import Step
from shared_core.schema import Action, Claim, Ledger, Reason

NS = "ops"
T0 = datetime(2026, 3, 1, tzinfo=timezone.utc)


def add(engine, text, **kw):
    return engine.apply(NS, [Step(Action.APPEND, Claim(text=text, namespace=NS, observed_at=T0, **kw))])[0].created[0]


def test_sweep_expires_by_validity_and_ttl_and_is_idempotent(engine):
    badge = add(engine, "badge code is 4411", valid_to=T0 + timedelta(days=10))
    token = add(engine, "session token is abc", metadata={"ttl_seconds": 3600})
    keep = add(engine, "the office is in Lisbon")
    assert engine.sweep(T0 + timedelta(minutes=30)) == []
    done = engine.sweep(T0 + timedelta(days=11))
    assert {t.target_id for t in done} == {badge.id, token.id}
    assert all(t.moves[0].reason is Reason.EXPIRED for t in done)
    head = engine.store.head()
    assert engine.sweep(T0 + timedelta(days=11)) == [] and engine.sweep(T0 + timedelta(days=12)) == []
    assert engine.store.head() == head                          # the second sweep wrote nothing
    assert [e.id for e in engine.accepted(NS)] == [keep.id]


def test_expiry_cascades_to_dependents_in_the_same_transaction(engine):
    lease = add(engine, "the lease runs to June", valid_to=T0 + timedelta(days=90))
    plan = add(engine, "we stay in the building", depends_on=(lease.id,))
    (t,) = engine.sweep(T0 + timedelta(days=91))
    assert [(m.entry_id, m.to_ledger) for m in t.moves] == [(lease.id, Ledger.HISTORY), (plan.id, Ledger.PENDING)]


def test_sweep_handles_entries_already_moved_by_an_earlier_expiry(engine):
    a = add(engine, "a", valid_to=T0 + timedelta(days=1))
    b = add(engine, "b", valid_to=T0 + timedelta(days=1), depends_on=(a.id,),
            metadata={"cascade_to": "history"})
    done = engine.sweep(T0 + timedelta(days=2))
    assert [t.target_id for t in done] == [a.id]                # b went with a, not closed twice
    assert engine.get(b.id).ledger is Ledger.HISTORY


def test_valid_at_reads_validity_and_ttl_and_combines_with_as_of(engine):
    old = add(engine, "price is 10", valid_to=T0 + timedelta(days=5))
    short = add(engine, "door code 12", metadata={"ttl_seconds": 60})
    assert {e.id for e in engine.valid_at(NS, T0 + timedelta(seconds=30))} == {old.id, short.id}
    assert {e.id for e in engine.valid_at(NS, T0 + timedelta(days=1))} == {old.id}
    assert engine.valid_at(NS, T0 + timedelta(days=6)) == []
    head = engine.store.head()
    engine.sweep(T0 + timedelta(days=6))
    assert {e.id for e in engine.valid_at(NS, T0, as_of=head)} == {old.id, short.id}
    assert engine.valid_at(NS, T0) == []                        # swept: no longer in Accepted at all


def test_bad_ttl_is_refused(engine):
    with pytest.raises(TarlError, match="ttl_seconds"):
        add(engine, "x", metadata={"ttl_seconds": -1})


def test_sweep_pending_expires_plain_claims_but_not_hypotheses(engine):
    p = engine.hypothesis("the supplier data is correct", NS)
    q = engine.hypothesis("the Q3 dip comes from the supplier data", NS, depends_on=[p.id])
    d = engine.write(Claim(text="maybe the CFO prefers weekly reports", namespace=NS, source="assistant"))
    assert engine.get(d.entry_id).ledger is Ledger.PENDING
    engine.sweep_pending(NS, now=engine.clock() + timedelta(days=365))
    assert engine.get(d.entry_id).reason is Reason.EXPIRED              # unverified chat claims drift out
    assert engine.status(p.id).value == engine.status(q.id).value == "untested"   # hypotheses wait for experiments
