"""Exclusion groups: closed vs open, deduction, and withdrawn deductions reopening the group."""

from __future__ import annotations

import pytest

from shared_core.beliefs import Status
from shared_core.schema import Ledger, Reason

NS = "lab"


def group_of_three(engine, closed: bool):
    g = engine.exclusion_group("Which catalyst works?", NS, closed_world=closed)
    members = [engine.hypothesis(f"catalyst {x} works", NS, prior=p, group=g.id)
               for x, p in (("A", 0.5), ("B", 0.3), ("C", 0.2))]
    return g, [m.id for m in members]


def statuses(engine, ids):
    return [engine.status(i).value for i in ids]


def closed_world_entry(engine, g):
    (cw,) = [e for e in engine.state(NS).entries.values() if e.metadata.get("kind") == "closed_world"]
    return cw


def test_closed_group_confirming_one_exhausts_the_others_in_the_same_transaction(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    t = engine.record_result(a, True)
    assert statuses(engine, [a, b, c]) == ["confirmed", "exhausted", "exhausted"]
    exhausted = [m for m in t.moves if m.reason is Reason.EXHAUSTED]
    assert {m.entry_id for m in exhausted} == {b, c} and all(a in m.note for m in exhausted)
    assert engine.frontier(NS) == []


def test_open_group_confirming_one_leaves_the_others(engine):
    g, (a, b, c) = group_of_three(engine, closed=False)
    engine.record_result(a, True)
    assert statuses(engine, [a, b, c]) == ["confirmed", "untested", "untested"]
    assert {e.id for e in engine.frontier(NS)} == {b, c}
    engine.record_result(b, False)
    assert statuses(engine, [a, b, c]) == ["confirmed", "refuted", "untested"]   # no deduction either


def test_closed_group_deduces_the_last_member_standing(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    engine.record_result(a, False)
    assert engine.status(c) is Status.UNTESTED
    t = engine.record_result(b, False)
    assert engine.status(c) is Status.DEDUCED
    assert any(m.entry_id == c and m.reason is Reason.DEDUCED for m in t.moves)


def test_open_group_never_deduces(engine):
    g, (a, b, c) = group_of_three(engine, closed=False)
    engine.record_result(a, False)
    engine.record_result(b, False)
    assert engine.status(c) is Status.UNTESTED


def test_evidence_against_an_exhaustion_withdraws_the_deduction_and_reopens_the_group(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    engine.record_result(a, True)                          # deduction: b and c are not the answer
    t = engine.record_result(b, True)                      # ... but an experiment confirms b
    cw = closed_world_entry(engine, g)
    assert cw.ledger is Ledger.HISTORY and cw.reason is Reason.REFUTED
    assert statuses(engine, [a, b, c]) == ["confirmed", "confirmed", "untested"]  # c reopened
    assert {m.entry_id for m in t.moves} >= {b, c, cw.id}                           # one transaction
    assert [e.id for e in engine.frontier(NS)] == [c]
    late = engine.hypothesis("catalyst D works", NS, group=g.id)                   # the group stays open
    engine.record_result(c, True)
    assert engine.status(late.id) is Status.UNTESTED


def test_refuting_a_deduced_member_withdraws_it_and_reopens_the_group(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    child = engine.hypothesis("C works in water", NS, depends_on=[c])
    engine.record_result(a, False)
    engine.record_result(b, False)
    assert engine.status(c) is Status.DEDUCED and engine.status(child.id) is Status.UNTESTED
    engine.record_result(c, False)                         # the deduction is contradicted
    assert closed_world_entry(engine, g).reason is Reason.REFUTED
    assert engine.status(child.id) is Status.PRUNED
    d = engine.hypothesis("catalyst D works", NS, group=g.id)      # reopened: new answers are admitted
    assert engine.status(d.id) is Status.UNTESTED
    engine.record_result(d.id, True)
    assert engine.status(d.id) is Status.CONFIRMED


def test_withdrawing_the_confirmation_reopens_exhausted_members(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    grandchild = engine.hypothesis("B scales up", NS, depends_on=[b])
    t = engine.record_result(a, True)
    assert engine.status(grandchild.id) is Status.PRUNED
    result_id = t.created[0].id
    engine.retract(result_id, note="the assay was contaminated")
    assert statuses(engine, [a, b, c]) == ["untested", "untested", "untested"]
    assert engine.status(grandchild.id) is Status.UNTESTED          # restored with its premise
    assert closed_world_entry(engine, g).ledger is Ledger.ACCEPTED   # the closed world still stands


def test_a_withdrawn_refutation_stays_on_record_and_history_is_final(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    engine.record_result(a, False)
    t = engine.record_result(b, False)
    assert engine.status(c) is Status.DEDUCED
    closed = {e.id: e for e in engine.history(NS)}
    engine.retract(t.created[0].id)                                  # b's refutation withdrawn
    assert statuses(engine, [a, b, c]) == ["refuted", "refuted", "deduced"]
    assert all(engine.get(i) == e for i, e in closed.items())        # nothing left History
    with pytest.raises(ValueError, match="History is final"):
        engine.record_result(b, True)


def test_deduction_withdrawn_when_a_pruned_member_comes_back_into_play(engine):
    # G1 = {x, y} closed; G2 = {a, b, c} closed, where b also rests on y.
    g1 = engine.exclusion_group("which site?", NS)
    x = engine.hypothesis("site X", NS, group=g1.id).id
    y = engine.hypothesis("site Y", NS, group=g1.id).id
    g2 = engine.exclusion_group("which method?", NS)
    a = engine.hypothesis("method A", NS, group=g2.id).id
    b = engine.hypothesis("method B (needs site Y)", NS, group=g2.id, depends_on=[y]).id
    c = engine.hypothesis("method C", NS, group=g2.id).id
    confirm_x = engine.record_result(x, True)
    assert statuses(engine, [y, b]) == ["exhausted", "pruned"]
    assert engine.get(b).ledger is Ledger.PENDING                    # parked, revocable
    engine.record_result(a, False)
    assert engine.status(c) is Status.DEDUCED                        # b is out of play, a refuted
    engine.retract(confirm_x.created[0].id)                          # x was never confirmed after all
    assert statuses(engine, [x, y, a, b, c]) == ["untested", "untested", "refuted", "untested", "untested"]


def test_group_states_replay_with_as_of(engine):
    g, (a, b, c) = group_of_three(engine, closed=True)
    before = engine.store.head()
    engine.record_result(a, True)
    past = engine.state(NS, as_of=before)
    assert {e.id for e in past.pending} >= {a, b, c}
    assert engine.status(b, as_of=before) is Status.UNTESTED and engine.status(b) is Status.EXHAUSTED


def test_bad_group_membership_is_refused(engine):
    h = engine.hypothesis("not a group", NS)
    head = engine.store.head()
    with pytest.raises(ValueError, match="metadata.group"):
        engine.hypothesis("member", NS, group=h.id)
    assert engine.store.head() == head


def test_group_state_survives_reopening_the_store(tmp_path):
    from shared_core.engine import MemoryEngine

    with MemoryEngine.open(tmp_path / "store") as eng:
        g, (a, b, c) = group_of_three(eng, closed=True)
        eng.record_result(a, True)
    with MemoryEngine.open(tmp_path / "store") as eng:
        assert statuses(eng, [a, b, c]) == ["confirmed", "exhausted", "exhausted"]
        assert eng.explain(b).basis and eng.frontier(NS) == []
