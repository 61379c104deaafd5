"""Janus gating refits: the scorer is the memory, sessions are the tasks, self-labels the evaluator."""

from __future__ import annotations

import random

import numpy as np

from shared_core.janus import AlwaysTrigger, Verdict
from shared_core.lre import Scorer, units_from_messages
from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.gate import JanusRefitGate, Session, session_auc
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
