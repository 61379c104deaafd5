"""Invariants of belief propagation under random hypothesis DAGs and random evidence (hypothesis)."""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.beliefs import claims
from shared_core.errors import InvalidStep
from shared_core.executor import MemoryState, Step, execute
from shared_core.schema import Action, Claim, Ledger, Reason

AT = datetime(2026, 1, 1, tzinfo=timezone.utc)

worlds = st.tuples(
    st.lists(st.booleans(), min_size=1, max_size=3),                       # groups: closed-world?
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.booleans()), min_size=2, max_size=10),
    st.lists(st.tuples(st.sampled_from(["confirm", "refute", "retract", "verify", "close", "add", "experiment"]), st.integers(0, 40)),
             min_size=1, max_size=25),
)


@settings(max_examples=80, deadline=None)
@given(worlds)
def test_propagation_keeps_the_ledgers_consistent(world):
    closed_flags, members, script = world
    s = MemoryState("u")
    ids = count(1)
    log = []

    def run(step):
        t = execute(s, step, namespace="u", tx=s.tx + 1, at=AT, make_id=lambda: f"e{next(ids)}")
        s.apply(t)
        log.append(t)
        return t

    groups = []
    for closed in closed_flags:
        g = run(Step(Action.APPEND, claims.group("q", "u"))).created[0]
        if closed:
            run(Step(Action.APPEND, claims.closed_world(g)))
        groups.append(g.id)
    hyps: list[str] = []
    for gi, parent, has_parent in members:
        deps = [hyps[parent % len(hyps)]] if has_parent and hyps else []
        hyps.append(run(Step(Action.DEFER_VERIFY, claims.hypothesis("h", "u", 0.5, deps, groups[gi % len(groups)]))).created[0].id)
    results: list[str] = []
    history = {e.id: e for e in s.history}
    for op, i in script:
        h = s.entries[hyps[i % len(hyps)]]
        try:
            if op in ("confirm", "refute"):
                results.append(run(Step(Action.APPEND, claims.result(h, op == "confirm", None, None))).created[0].id)
            elif op == "retract" and results:
                r = results[i % len(results)]
                if s.entries[r].ledger is not Ledger.HISTORY:
                    run(Step(Action.CLOSE, target_id=r, reason=Reason.RETRACTED))
            elif op == "verify" and h.ledger is Ledger.PENDING:
                run(Step(Action.PROMOTE, target_id=h.id))
            elif op == "add":
                premise = [h.id] if i % 2 else []
                hyps.append(run(Step(Action.DEFER_VERIFY, claims.hypothesis("late", "u", 0.5, premise,
                                                                            groups[i % len(groups)]))).created[0].id)
            elif op == "experiment":
                run(Step(Action.DEFER_VERIFY, claims.experiment(h, None)))
            elif op == "close" and h.ledger is not Ledger.HISTORY:
                run(Step(Action.CLOSE, target_id=h.id, reason=Reason.RETRACTED))
        except InvalidStep:
            continue
        _check(s, groups)
        for entry_id, closed in history.items():
            assert s.entries[entry_id] == closed                                          # History is final
        history = {e.id: e for e in s.history}
    replay = MemoryState("u")
    for t in log:
        replay.apply(t)
    assert replay == s


def _check(s: MemoryState, groups: list[str]) -> None:
    for e in s.entries.values():
        premises = [s.entries[p] for p in e.depends_on]
        if e.metadata.get("kind") == "hypothesis" and e.ledger is Ledger.ACCEPTED:
            assert e.reason in (None, Reason.DEDUCED)
            assert all(p.ledger is Ledger.ACCEPTED for p in premises), (e, premises)       # justified
        if e.metadata.get("kind") in ("hypothesis", "experiment") and e.ledger is not Ledger.HISTORY:
            assert all(p.ledger is not Ledger.HISTORY for p in premises), (e, premises)   # pruned otherwise
            parked = [p for p in premises if p.reason in (Reason.PRUNED, Reason.EXHAUSTED)]
            if e.reason is None or e.ledger is Ledger.ACCEPTED:
                assert not parked, (e, parked)                                           # in play: premises too
        if e.ledger is Ledger.PENDING and e.reason in (Reason.PREMISE_RETRACTED, Reason.AWAITING_PREMISES):
            assert not all(p.ledger is Ledger.ACCEPTED for p in premises)                 # restored otherwise
    for g in groups:
        deps = s.dependents(g, include_history=True)
        closed = any(d.metadata.get("kind") == "closed_world" and d.ledger is Ledger.ACCEPTED for d in deps)
        members = [d for d in deps if d.metadata.get("kind") == "hypothesis"]
        accepted = [m for m in members if m.ledger is Ledger.ACCEPTED]
        if closed:
            assert len(accepted) <= 1
            if accepted:
                assert not any(m.ledger is Ledger.PENDING and m.reason is None for m in members)  # rest exhausted
        else:
            assert not any(m.reason is Reason.DEDUCED for m in members)
            assert not any(m.reason is Reason.EXHAUSTED for m in members if m.ledger is Ledger.PENDING)


@pytest.mark.parametrize("verdict", [Action.PROMOTE, Action.CLOSE])
def test_a_claim_on_a_pending_premise_waits_in_pending_until_the_premise_is_accepted(verdict):
    s = MemoryState("u")
    ids = count(1)

    def run(step):
        t = execute(s, step, namespace="u", tx=s.tx + 1, at=AT, make_id=lambda: f"e{next(ids)}")
        s.apply(t)
        return t

    run(Step(Action.DEFER_VERIFY, Claim(text="maybe", namespace="u")))
    run(Step(Action.APPEND, Claim(text="built on maybe", namespace="u", depends_on=("e1",))))
    assert s.entries["e2"].ledger is Ledger.PENDING and s.entries["e2"].reason is Reason.AWAITING_PREMISES
    run(Step(verdict, target_id="e1", reason=Reason.REJECTED if verdict is Action.CLOSE else None))
    assert s.entries["e2"].ledger is (Ledger.ACCEPTED if verdict is Action.PROMOTE else Ledger.PENDING)


def test_a_claim_on_a_closed_premise_never_enters_accepted():
    s = MemoryState("u")
    ids = count(1)
    for step in (Step(Action.APPEND, Claim(text="Ana lives in Rome", namespace="u")),
                 Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED),
                 Step(Action.APPEND, Claim(text="Ana bikes around Rome", namespace="u", depends_on=("e1",)))):
        s.apply(execute(s, step, namespace="u", tx=s.tx + 1, at=AT, make_id=lambda: f"e{next(ids)}"))
    assert s.entries["e2"].ledger is Ledger.PENDING
