"""Dependencies: cascades are transitive, atomic, replayable; restoration; configurable target; cycles."""

from __future__ import annotations

from datetime import datetime, timezone
from itertools import count

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.beliefs import cascade
from shared_core.errors import InvalidStep, TarlError
from shared_core.executor import MemoryState, Step, execute
from shared_core.schema import Action, Claim, Ledger, Reason

AT = datetime(2026, 1, 1, tzinfo=timezone.utc)


def claim(text: str, *deps: str, **kw) -> Claim:
    return Claim(text=text, namespace="u", depends_on=deps, **kw)


def chain(engine, n: int = 4) -> list[str]:
    """e0 <- e1 <- ... <- e(n-1): each rests on the previous one."""
    ids: list[str] = []
    for i in range(n):
        t = engine.apply("u", [Step(Action.APPEND, claim(f"fact {i}", *ids[-1:]))])[0]
        ids.append(t.created[0].id)
    return ids


def test_cascade_is_transitive_and_in_one_transaction(engine):
    ids = chain(engine)
    before = engine.store.head()
    t = engine.retract(ids[0], note="wrong")
    assert engine.store.head() == before + 1                    # one transaction carries the whole cascade
    assert [m.entry_id for m in t.moves] == ids
    assert all(m.reason is Reason.PREMISE_RETRACTED for m in t.moves[1:])
    assert {e.id for e in engine.pending("u")} == set(ids[1:])
    assert engine.search("fact", "u") == []


def test_cascade_replays_with_as_of(engine):
    ids = chain(engine, 3)
    head_before = engine.store.head()
    engine.retract(ids[0])
    past, now = engine.state("u", as_of=head_before), engine.state("u")
    assert {e.id for e in past.accepted} == set(ids)
    assert {e.id for e in now.pending} == set(ids[1:]) and [e.id for e in now.history] == [ids[0]]
    replay = MemoryState("u")
    for t in engine.log("u"):
        replay.apply(t)
    assert replay == now


def test_batch_with_a_bad_step_writes_nothing(engine):
    ids = chain(engine, 3)
    head = engine.store.head()
    with pytest.raises(InvalidStep, match="already in History"):
        engine.apply("u", [Step(Action.CLOSE, target_id=ids[0], reason=Reason.RETRACTED),
                           Step(Action.CLOSE, target_id=ids[0], reason=Reason.RETRACTED)])
    assert engine.store.head() == head                          # cascade and all were rolled back
    assert {e.id for e in engine.accepted("u")} == set(ids)


def test_a_retraction_is_final_nothing_comes_back_by_itself(engine):
    ids = chain(engine, 3)
    engine.retract(ids[0])
    engine.apply("u", [Step(Action.APPEND, claim("unrelated"))])
    assert {e.id for e in engine.pending("u")} == set(ids[1:])
    assert [e.text for e in engine.accepted("u")] == ["unrelated"]


def test_pending_premise_verified_restores_whole_chain():
    s = MemoryState("u")
    run = _runner(s, count(1))
    run(Step(Action.APPEND, claim("base")))                  # e1
    run(Step(Action.APPEND, claim("premise", "e1")))         # e2
    run(Step(Action.APPEND, claim("derived", "e2")))         # e3
    run(Step(Action.APPEND, claim("derived twice", "e3")))   # e4
    run(Step(Action.APPEND, claim("other base")))            # e5
    run(Step(Action.APPEND, claim("needs both", "e3", "e5")))  # e6
    run(Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))
    assert {e.id for e in s.pending} == {"e2", "e3", "e4", "e6"}
    t = run(Step(Action.PROMOTE, target_id="e2", note="checked by hand"))
    assert {m.entry_id for m in t.moves} == {"e2", "e3", "e4", "e6"}     # restored in the same transaction
    assert {e.id for e in s.accepted} == {"e2", "e3", "e4", "e5", "e6"}
    assert all(s.entries[i].reason is None for i in ("e3", "e4", "e6"))


def test_restoration_waits_for_every_premise():
    s = MemoryState("u")
    run = _runner(s, count(1))
    run(Step(Action.APPEND, claim("a")))
    run(Step(Action.APPEND, claim("b")))
    run(Step(Action.APPEND, claim("a and b", "e1", "e2")))
    run(Step(Action.APPEND, claim("a'", "e1")))                 # e4, a premise of e5 that we demote
    run(Step(Action.APPEND, claim("needs a' and b", "e4", "e2")))
    run(Step(Action.CLOSE, target_id="e2", reason=Reason.RETRACTED))
    assert s.entries["e3"].ledger is Ledger.PENDING and s.entries["e5"].ledger is Ledger.PENDING


def test_cascade_target_history_by_argument_and_per_entry():
    s = MemoryState("u")
    ids = count(1)
    run = _runner(s, ids)
    run(Step(Action.APPEND, claim("premise")))
    run(Step(Action.APPEND, claim("re-verify me", "e1")))
    run(Step(Action.APPEND, claim("drop me", "e1", metadata={"cascade_to": "history"})))
    run(Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))
    assert s.entries["e2"].ledger is Ledger.PENDING
    assert s.entries["e3"].ledger is Ledger.HISTORY and s.entries["e3"].reason is Reason.PREMISE_RETRACTED

    s2 = MemoryState("u")
    run2 = _runner(s2, count(1), cascade_to=Ledger.HISTORY)
    run2(Step(Action.APPEND, claim("premise")))
    run2(Step(Action.APPEND, claim("child", "e1")))
    run2(Step(Action.APPEND, claim("grandchild", "e2")))
    run2(Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED))
    assert [e.id for e in s2.history] == ["e1", "e2", "e3"]
    assert s2.entries["e3"].closed_tx == 4


def test_old_cascade_api_still_works():
    s = MemoryState("u")
    run = _runner(s, count(1))
    run(Step(Action.APPEND, claim("p")))
    run(Step(Action.APPEND, claim("q", "e1")))
    t = execute(s, Step(Action.CLOSE, target_id="e1", reason=Reason.RETRACTED), namespace="u", tx=3, at=AT)
    own = [m for m in t.moves if m.entry_id == "e1"]
    assert [m.entry_id for m in cascade(s, own)] == ["e2"]


def test_cycle_through_a_revision_is_rejected_and_nothing_written(engine):
    ids = chain(engine, 3)                       # e0 <- e1 <- e2
    head = engine.store.head()
    with pytest.raises(TarlError, match="cycle") as err:
        engine.apply("u", [Step(Action.REVISE, claim("fact 0, corrected", ids[2]), target_id=ids[0])])
    assert err.value.field == "depends_on" and err.value.value == ids[2]
    assert ids[0] in str(err.value)
    assert engine.store.head() == head and {e.id for e in engine.accepted("u")} == set(ids)


def test_cycle_through_a_contested_pending_claim_is_rejected(engine):
    ids = chain(engine, 2)
    with pytest.raises(TarlError, match="depends_on"):
        engine.apply("u", [Step(Action.DEFER_VERIFY, claim("fact 0, maybe", ids[1]), target_id=ids[0])])
    assert engine.pending("u") == []


def test_cycle_through_policy_write_is_rejected(engine):
    a = engine.write(Claim(text="Ana lives in Rome", namespace="u", slot="home"))
    b = engine.write(Claim(text="Ana walks to the Colosseum", namespace="u", depends_on=(a.entry_id,)))
    head = engine.store.head()
    with pytest.raises(TarlError, match="depends_on"):
        engine.write(Claim(text="Ana lives in Oslo now", namespace="u", slot="home", depends_on=(b.entry_id,)))
    assert engine.store.head() == head


def test_duplicate_and_unknown_premises_are_refused(engine):
    (a,) = chain(engine, 1)
    with pytest.raises(TarlError, match="depends_on"):
        engine.apply("u", [Step(Action.APPEND, claim("twice", a, a))])
    with pytest.raises(TarlError, match="depends_on"):
        engine.apply("u", [Step(Action.APPEND, claim("ghost", "nope"))])
    assert len(engine.accepted("u")) == 1


# -- invariant: after every transaction no Accepted entry rests on a premise outside Accepted -----------
ops = st.lists(st.tuples(st.sampled_from(["append", "close", "revise", "defer", "promote"]),
                         st.integers(0, 50), st.integers(0, 50), st.booleans()), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(ops)
def test_accepted_entries_always_rest_on_accepted_premises(script):
    s = MemoryState("u")
    run = _runner(s, count(1))
    for op, i, j, flag in script:
        acc, pen = s.accepted, s.pending
        try:
            if op == "append":
                deps = tuple(dict.fromkeys(e.id for e in (acc[i % len(acc)], acc[j % len(acc)])) if acc else ())
                run(Step(Action.APPEND, claim(f"c{i}", *deps[: 1 + flag])))
            elif op == "close" and acc + pen:
                run(Step(Action.CLOSE, target_id=(acc + pen)[i % len(acc + pen)].id, reason=Reason.RETRACTED))
            elif op == "revise" and acc:
                run(Step(Action.REVISE, claim(f"r{i}"), target_id=acc[i % len(acc)].id))
            elif op == "defer" and acc:
                run(Step(Action.DEFER_VERIFY, claim(f"d{i}"), target_id=acc[i % len(acc)].id))
            elif op == "promote" and pen:
                p = pen[i % len(pen)]
                if all(s.entries[d].ledger is Ledger.ACCEPTED for d in p.depends_on):
                    run(Step(Action.PROMOTE, target_id=p.id))
        except InvalidStep:
            continue
        for e in s.accepted:
            assert all(s.entries[p].ledger is Ledger.ACCEPTED for p in e.depends_on), e
        for e in s.pending:
            if e.reason is Reason.PREMISE_RETRACTED:
                assert not all(s.entries[p].ledger is Ledger.ACCEPTED for p in e.depends_on), e


def _runner(state: MemoryState, ids, cascade_to: Ledger = Ledger.PENDING):
    def run(step: Step):
        t = execute(state, step, namespace="u", tx=state.tx + 1, at=AT, make_id=lambda: f"e{next(ids)}",
                    cascade_to=cascade_to)
        state.apply(t)
        return t

    return run
