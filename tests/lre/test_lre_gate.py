"""Janus gating refits: the scorer is the memory, sessions are the tasks, self-labels the evaluator."""

from __future__ import annotations

import random

import numpy as np

from shared_core.janus import AlwaysTrigger, JanusConfig, Verdict
from shared_core.lre import Scorer, units_from_messages
from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.gate import SESSION_TAU, JanusRefitGate, Session, session_auc
from shared_core.lre.synthetic import agent_trace


def _sessions(n: int) -> list[Session]:
    r = random.Random(3)
    out = []
    for i in range(n):
        units = units_from_messages(agent_trace(r, noise_steps=10).messages)
        out.append(Session.from_units(f"s{i}", units, 0))
    return out


def _worse(base: Scorer) -> Scorer:
    d = base.to_dict(digits=8)
    d["coef"] = (-base.coef).tolist()
    d["tfidf_coef"] = (-base.tfidf_coef).tolist()
    return Scorer.from_dict(d)


def test_always_compare_keeps_the_better_scorer_after_warmup() -> None:
    base = Scorer.default()
    gate = JanusRefitGate(base, trigger=AlwaysTrigger(warmup=3))
    sessions = _sessions(5)
    for s in sessions[:3]:                                   # warm-up: accepted without comparison
        assert gate.consider(s, base).verdict in (Verdict.WARMUP, Verdict.UNCHANGED)
    bad = _worse(base)
    assert session_auc(bad, sessions[3]) < session_auc(base, sessions[3])
    decision = gate.consider(sessions[3], bad)
    assert decision.triggered and decision.verdict is Verdict.CURRENT_BETTER
    assert np.allclose(gate.scorer.coef, base.coef, atol=1e-6)
    assert gate.controller.stats.comparisons == 1


def test_gate_plugs_into_the_recorder() -> None:
    gate = JanusRefitGate()
    ad = AdaptiveScorer(refit_every=10**6, min_positives=3, gate=gate)
    r = random.Random(5)
    for _ in range(2):
        ad.observe(units_from_messages(agent_trace(r, noise_steps=10).messages))
        ad.refit()                                           # warm-up steps: accepted
    assert len(gate.decisions) == 2 and ad.version == 2


def _shifted(base: Scorer, delta: np.ndarray) -> Scorer:
    d = base.to_dict(digits=8)
    d["coef"] = (base.coef + delta).tolist()
    return Scorer.from_dict(d)


def test_session_tau_ignores_chance_level_turns_and_compares_reversals() -> None:
    """Refits that wander by less than chance (cos above -1/sqrt(d)) pass; a reversal is compared."""
    base = Scorer.default()
    gate = JanusRefitGate(base)
    sessions = _sessions(5)
    d = len(base.coef)
    assert SESSION_TAU == -1.0 / np.sqrt(d)
    v = np.zeros(d)
    v[0] = 0.1
    e1 = np.zeros(d)
    e1[1] = 0.1
    current = base
    for s in sessions[:3]:                                   # warm-up: a steady direction v
        current = _shifted(current, v)
        gate.consider(s, current)
    wander = 0.5 * SESSION_TAU * v + np.sqrt(1 - (0.5 * SESSION_TAU) ** 2) * e1   # cos(wander, v) = tau / 2
    decision = gate.consider(sessions[3], _shifted(current, wander))
    assert not decision.triggered and decision.verdict is Verdict.NO_TRIGGER
    assert decision.cosine is not None and SESSION_TAU < decision.cosine < 0
    decision = gate.consider(sessions[4], _shifted(gate.scorer, -3 * v))      # a reversal
    assert decision.triggered and gate.controller.stats.comparisons == 1


def test_comparisons_read_a_session_with_its_conversations_latest_labels() -> None:
    """Self-labels look ahead: when recorded, the first session has no positive (the return to
    the puppy "Biscuit" comes later), so it could not tell two scorers apart; compared after the second session,
    it is read with the conversation's labels then (the first unit is positive)."""
    msgs = [{"role": "user", "content": "We adopted a puppy called Biscuit!"}]
    msgs += [{"role": "user" if i % 2 else "assistant", "content": f"chat about the weather {i}"} for i in range(40)]
    msgs += [{"role": "user", "content": "The puppy Biscuit chewed my shoe."}]
    units = units_from_messages(msgs)
    first = Session.from_units("c:0", units[:20], 0, conversation="c")
    second = Session.from_units("c:20", units, 20, conversation="c")
    assert not first.labels.any() and second.history_labels is not None and second.history_labels[0]
    base = Scorer.default()
    gate = JanusRefitGate(base, trigger=AlwaysTrigger(warmup=1),
                          config=JanusConfig(warmup=1, coverage=2, boundary=0, fresh=0))
    gate.consider(first, base)
    decision = gate.consider(second, _worse(base))
    assert decision.triggered and 0 in decision.eval_set.tasks
    assert decision.score_current != decision.score_candidate   # the first session now ranks something
