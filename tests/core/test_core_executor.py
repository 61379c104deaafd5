"""Each action does exactly what TARL specifies, on the in-memory state used for simulation."""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import count

import pytest

from shared_core.errors import InvalidStep
from shared_core.executor import MemoryState, Step, execute
from shared_core.schema import Action, Claim, Ledger, Reason

AT = datetime(2026, 1, 1, tzinfo=timezone.utc)


def run(state: MemoryState, step: Step):
    ids = count(len(state.entries) + 1)
    t = execute(state, step, namespace="u", tx=state.tx + 1, at=AT, make_id=lambda: f"e{next(ids)}")
    state.apply(t)
    return t


@pytest.fixture
def state():
    s = MemoryState("u")
    run(s, Step(Action.APPEND, Claim(text="Ana lives in Rome", namespace="u", slot="home")))
    return s


def test_append(state):
    assert [e.text for e in state.accepted] == ["Ana lives in Rome"]


def test_noop_changes_nothing_but_is_logged(state):
    before = state.copy()
    t = run(state, Step(Action.NOOP, Claim(text="Ana lives in Rome", namespace="u"), target_id="e1"))
    assert t.created == () and t.moves == () and state.entries == before.entries


def test_revise(state):
    run(state, Step(Action.REVISE, Claim(text="Ana lives in Oslo", namespace="u"), target_id="e1"))
    assert [e.text for e in state.accepted] == ["Ana lives in Oslo"]
    (old,) = state.history
    assert old.id == "e1" and old.reason is Reason.SUPERSEDED and old.closed_tx == 2
    assert state.accepted[0].target_id == "e1"


def test_reject_conflict(state):
    run(state, Step(Action.REJECT_CONFLICT, Claim(text="Ana lives in Paris", namespace="u"), target_id="e1"))
    assert [e.text for e in state.accepted] == ["Ana lives in Rome"]
    (rejected,) = state.history
    assert rejected.text == "Ana lives in Paris" and rejected.reason is Reason.REJECTED


def test_defer_then_promote_supersedes_the_contested_entry(state):
    run(state, Step(Action.DEFER_VERIFY, Claim(text="Ana lives in Oslo", namespace="u"), target_id="e1"))
    (pending,) = state.pending
    run(state, Step(Action.PROMOTE, target_id=pending.id))
    assert [e.text for e in state.accepted] == ["Ana lives in Oslo"]
    assert state.history[0].id == "e1"


def test_close_needs_reason(state):
    with pytest.raises(InvalidStep, match="reason"):
        run(state, Step(Action.CLOSE, target_id="e1"))
    run(state, Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))
    assert state.history[0].reason is Reason.RETRACTED
    with pytest.raises(InvalidStep, match="already in History"):
        run(state, Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))


def test_cascade_moves_dependents_back_to_pending(state):
    run(state, Step(Action.APPEND, Claim(text="Ana can walk to the Colosseum", namespace="u", depends_on=("e1",))))
    run(state, Step(Action.APPEND, Claim(text="Ana walks to work", namespace="u", depends_on=("e2",))))
    t = run(state, Step(Action.REVISE, Claim(text="Ana lives in Oslo", namespace="u"), target_id="e1"))
    assert {m.entry_id for m in t.moves if m.reason is Reason.PREMISE_RETRACTED} == {"e2", "e3"}
    assert {e.id for e in state.pending} == {"e2", "e3"}


def test_simulation_does_not_touch_the_original(state):
    branch = state.copy()
    run(branch, Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))
    assert state.entry("e1").ledger is Ledger.ACCEPTED
    assert branch.entry("e1").ledger is Ledger.HISTORY
