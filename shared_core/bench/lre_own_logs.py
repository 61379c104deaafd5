"""``tarl bench lre``, the own-logs part: adapting the scorer through the product path, and Janus.

- ``lre_adapted``: leave one LoCoMo conversation out; the others go through an
  :class:`~shared_core.lre.adaptive.AdaptiveScorer` exactly as an adapter would feed it (whole
  histories observed, self-labels, one refit); the adapted scorer is then scored on the held-out one
  like every other system (ROC-AUC, evidence kept under a budget).
- Janus replay: the conversations replayed session by session into one store. After each session the
  scorer is refit from everything recorded (the same candidate for every policy); a policy decides what
  is deployed; the deployed scorer is scored on the *next* session against the evidence turns (gold
  labels only here, to measure; the policies never see them). Policies: always-accept (deploy every
  refit), Janus (momentum trigger), always-compare, and a random trigger with Janus's comparison rate.
- Self-label quality: each signal the own-logs path learns from, against the evidence turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shared_core.janus import AlwaysTrigger, MomentumTrigger, RandomTrigger
from shared_core.lre import Scorer, units_from_messages
from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.refit import L2, fit_correction
from shared_core.lre.gate import SESSION_CONFIG, JanusRefitGate, Session, session_auc
from shared_core.lre.labels import LATER_GAP, identifier_reuse_labels, later_reference_labels, self_labels


def adapted(convs: Sequence[Any], **options: Any) -> list[Scorer]:
    """Per held-out conversation: the scorer adapted on the others through the own-logs path."""
    out = []
    for k in range(len(convs)):
        recorder = AdaptiveScorer(refit_every=10**9, **options)
        for j, conv in enumerate(convs):
            if j != k:
                recorder.observe(units_from_messages(conv.messages))
        recorder.refit()
        out.append(recorder.scorer)
    return out


def self_label_quality(convs: Sequence[Any]) -> dict[str, dict[str, float]]:
    """Each self-label signal of the own-logs path against the QA evidence turns (the gold labels are
    used here to measure only): share of units marked, precision, recall, macro over conversations."""
    rows: dict[str, list[tuple[float, float, float]]] = {}
    for conv in convs:
        units = units_from_messages(conv.messages)
        texts = [u.text for u in units]
        signals = {
            "identifier_reuse": identifier_reuse_labels(texts),
            "answer_coverage": self_labels(units, min_reuse=10**9),  # (no identifier recurs that often)
            "later_reference_1": later_reference_labels(texts, LATER_GAP, min_words=1),
            "later_reference": later_reference_labels(texts, LATER_GAP),
            "own_logs": self_labels(units, later_gap=LATER_GAP),
        }
        for name, lab in signals.items():
            hit = lab & conv.evidence
            rows.setdefault(name, []).append((float(lab.mean()), hit.sum() / lab.sum() if lab.any() else float("nan"),
                                              hit.sum() / max(int(conv.evidence.sum()), 1)))
    out: dict[str, dict[str, float]] = {}
    for name, v in rows.items():
        prec = [r[1] for r in v if not np.isnan(r[1])]  # no precision where a signal marks nothing
        out[name] = {"positive_share": float(np.mean([r[0] for r in v])), "recall": float(np.mean([r[2] for r in v])),
                     **({"precision": float(np.mean(prec))} if prec else {}),
                     "evidence_share": float(np.mean([c.evidence.mean() for c in convs]))}
    return out


def _replay_steps(convs: Sequence[Any]) -> list[tuple[Session, Session, np.ndarray]]:
    """(session just recorded with its self-labels, next session with evidence labels, self-labels of
    the whole conversation so far) per session."""
    steps = []
    for conv in convs:
        units = units_from_messages(conv.messages)
        bounds = np.flatnonzero(np.r_[True, conv.sessions[1:] != conv.sessions[:-1], True])
        for a, b, c in zip(bounds[:-2], bounds[1:-1], bounds[2:]):
            seen = units[:b]
            labels = self_labels(seen, later_gap=LATER_GAP)
            done = Session.from_units(f"{conv.id}:{a}", seen, int(a), labels, conversation=conv.id)
            nxt = Session.from_units(f"{conv.id}:{b}:next", units[:c], int(b), conv.evidence[:c])
            steps.append((done, nxt, labels))
    return steps


def janus_replay(convs: Sequence[Any], *, l2: float = L2, seed: int = 0) -> dict[str, dict[str, Any]]:
    """AUC trajectory on each next session and comparisons, per policy (see the module docstring)."""
    base = Scorer.default()
    steps = _replay_steps(convs)
    # The candidate after each session: the shipped scorer corrected on every session recorded so far.
    histories: dict[str, tuple[tuple[str, ...], tuple[str, ...], np.ndarray]] = {}
    candidates: list[Scorer] = []
    for done, _, seen_labels in steps:
        histories[done.key.split(":")[0]] = (done.texts, done.kinds, seen_labels)
        labels = [h[2] for h in histories.values()]
        if sum(int(lab.sum()) for lab in labels) < 30:
            candidates.append(candidates[-1] if candidates else base)
            continue
        candidates.append(fit_correction(base, [(h[0], h[1]) for h in histories.values()], labels, l2=l2))
    result: dict[str, dict[str, Any]] = {}
    result["shipped"] = _trajectory(steps, [base] * len(steps), comparisons=0)
    result["always_accept"] = _trajectory(steps, candidates, comparisons=0)
    janus = _gated(steps, candidates, base, None)
    result["janus"] = janus
    # The paper's threshold (tau = 0), for contrast with lre.gate.SESSION_TAU: it fires more often.
    result["janus_tau0"] = _gated(steps, candidates, base, MomentumTrigger(SESSION_CONFIG.beta, 0.0, SESSION_CONFIG.warmup))
    result["always_compare"] = always = _gated(steps, candidates, base, AlwaysTrigger(warmup=SESSION_CONFIG.warmup))
    # Budget-matched: a refit identical to the deployed scorer is never compared by any policy, so the
    # rate is Janus's comparisons over the refits always-compare compared (not over all steps). At a
    # rate this low one draw decides the outcome, so the random trigger is averaged over RANDOM_SEEDS.
    rate = min(janus["comparisons"] / max(always["comparisons"], 1), 1.0)
    runs = [_gated(steps, candidates, base, RandomTrigger(rate=rate, seed=seed + k, warmup=SESSION_CONFIG.warmup))
            for k in range(RANDOM_SEEDS)]
    result["random_trigger"] = {
        "trajectory": [round(float(np.mean(a)), 4) for a in zip(*(r["trajectory"] for r in runs))],
        **{m: float(np.mean([r[m] for r in runs])) for m in ("mean_auc", "final_auc", "comparisons")},
        "final_auc_min": min(r["final_auc"] for r in runs), "final_auc_max": max(r["final_auc"] for r in runs),
        "fired": [f for r in runs for f in r["fired"]]}
    for r in result.values():
        r["comparison_share"] = r["comparisons"] / max(always["comparisons"], 1)
    return result


RANDOM_SEEDS = 10
"""Seeds the budget-matched random trigger is averaged over."""


def _gated(steps: list[tuple[Session, Session, np.ndarray]], candidates: list[Scorer], base: Scorer, trigger: Any) -> dict[str, Any]:
    """Deployed scorer per step under one policy, and every comparison it made: the step, the cosine
    that fired it, the verdict on past sessions (self-labels), and what the choice was worth on the next
    session (evidence AUC of the scorer kept and of the one turned away)."""
    gate = JanusRefitGate(base, trigger=trigger)
    deployed, fired = [], []
    for i, ((done, nxt, _), cand) in enumerate(zip(steps, candidates)):
        current = gate.scorer
        decision = gate.consider(done, cand)
        deployed.append(gate.scorer)
        if decision.triggered:
            fired.append({"step": i, "cosine": decision.cosine, "verdict": str(decision.verdict),
                          "self_label_auc_current": decision.score_current,
                          "self_label_auc_candidate": decision.score_candidate,
                          "next_auc_current": session_auc(current, nxt), "next_auc_candidate": session_auc(cand, nxt)})
    return {**_trajectory(steps, deployed, comparisons=gate.controller.stats.comparisons), "fired": fired}


def _trajectory(steps: list[tuple[Session, Session, np.ndarray]], deployed: list[Scorer], comparisons: int) -> dict[str, Any]:
    aucs = [session_auc(s, nxt) for s, (_, nxt, _) in zip(deployed, steps)
            if nxt.labels.any() and not nxt.labels.all()]
    last = max(1, len(aucs) // 5)
    return {"trajectory": [round(a, 4) for a in aucs], "mean_auc": float(np.mean(aucs)),
            "final_auc": float(np.mean(aucs[-last:])), "comparisons": int(comparisons)}
