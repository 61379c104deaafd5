"""explain(entry_id): the justification chain and the transactions that changed the entry."""

from __future__ import annotations

from shared_core.beliefs import Status
from shared_core.schema import Action

NS = "rd"


def test_explain_returns_chain_evidence_and_transactions(engine):
    g = engine.exclusion_group("What limits yield?", NS, closed_world=True)
    a = engine.hypothesis("temperature limits yield", NS, prior=0.6, group=g.id)
    b = engine.hypothesis("pressure limits yield", NS, prior=0.4, group=g.id)
    child = engine.hypothesis("cooling raises yield", NS, depends_on=[a.id])
    exp = engine.start_experiment(a.id, "vary temperature")
    r = engine.record_result(a.id, True, experiment_id=exp.id)
    engine.record_result(child.id, True)

    ex = engine.explain(child.id)
    assert ex.status is Status.CONFIRMED
    (premise,) = ex.justification.premises
    assert premise.id == a.id and premise.status is Status.CONFIRMED
    assert [p.id for p in premise.premises] == [g.id]
    assert [t.action for t in ex.transactions] == [Action.DEFER_VERIFY, Action.APPEND]

    ex_a = engine.explain(a.id)
    assert [e.id for e in ex_a.evidence] == [exp.id, r.created[0].id]
    assert child.id in ex_a.dependents
    assert [t.tx for t in ex_a.transactions] == [a.created_tx, r.tx]
    ex_b = engine.explain(b.id)
    assert ex_b.status is Status.EXHAUSTED
    assert {j.id: j.status for j in ex_b.basis}[a.id] is Status.CONFIRMED      # what the exhaustion rests on
    assert any(j.text.startswith("exactly one answer") and j.status is Status.ACCEPTED for j in ex_b.basis)
    text = str(ex_b)
    assert "exhausted" in text and a.id in text and f"tx {r.tx}" in text


def test_explain_as_of_shows_the_past(engine):
    h = engine.hypothesis("P", NS)
    before = engine.store.head()
    engine.record_result(h.id, False)
    assert engine.explain(h.id, as_of=before).status is Status.UNTESTED
    assert len(engine.explain(h.id, as_of=before).transactions) == 1
    assert engine.explain(h.id).status is Status.REFUTED
