"""``tarl bench lre``, the own-logs part: adapting the scorer through the product path, and Janus.

- ``lre_adapted``: leave one LoCoMo conversation out; the others go through an
  :class:`~shared_core.lre.adaptive.AdaptiveScorer` exactly as an adapter would feed it (whole
  histories observed, self-labels, one refit); ROC-AUC of the adapted scorer on the held-out one.
- Janus replay: the conversations replayed session by session into one store. After each session the
  scorer is refit from everything recorded (the same candidate for every policy); a policy decides what
  is deployed; the deployed scorer is scored on the *next* session against the evidence turns (gold
  labels only here, to measure; the policies never see them). Policies: always-accept (deploy every
  refit), Janus (momentum trigger), always-compare, and a random trigger with Janus's comparison rate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from shared_core.janus import AlwaysTrigger, RandomTrigger
from shared_core.lre import Scorer, units_from_messages
from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.refit import fit_correction
from shared_core.lre.gate import SESSION_CONFIG, JanusRefitGate, Session, session_auc
from shared_core.lre.labels import LATER_GAP, self_labels
from shared_core.lre.metrics import roc_auc


def adapted(convs: Sequence[Any], **options: Any) -> list[float]:
    """Per held-out conversation: AUC after adapting on the others through the own-logs path."""
    out = []
    for k, held in enumerate(convs):
        recorder = AdaptiveScorer(refit_every=10**9, **options)
        for j, conv in enumerate(convs):
            if j != k:
                recorder.observe(units_from_messages(conv.messages))
        recorder.refit()
        out.append(roc_auc(recorder.scorer.score_texts(held.texts), held.evidence))
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


def janus_replay(convs: Sequence[Any], *, l2: float = 3000.0, seed: int = 0) -> dict[str, dict[str, Any]]:
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
    result["always_compare"] = always = _gated(steps, candidates, base, AlwaysTrigger(warmup=SESSION_CONFIG.warmup))
    # Budget-matched: a refit identical to the deployed scorer is never compared by any policy, so the
    # rate is Janus's comparisons over the refits always-compare compared (not over all steps).
    rate = janus["comparisons"] / max(always["comparisons"], 1)
    result["random_trigger"] = _gated(steps, candidates, base,
                                      RandomTrigger(rate=min(rate, 1.0), seed=seed, warmup=SESSION_CONFIG.warmup))
    for r in result.values():
        r["comparison_share"] = r["comparisons"] / max(always["comparisons"], 1)
    return result


def _gated(steps: list[tuple[Session, Session, np.ndarray]], candidates: list[Scorer], base: Scorer, trigger: Any) -> dict[str, Any]:
    gate = JanusRefitGate(base, trigger=trigger)
    deployed = []
    for (done, _, _), cand in zip(steps, candidates):
        gate.consider(done, cand)
        deployed.append(gate.scorer)
    return _trajectory(steps, deployed, comparisons=gate.controller.stats.comparisons)


def _trajectory(steps: list[tuple[Session, Session, np.ndarray]], deployed: list[Scorer], comparisons: int) -> dict[str, Any]:
    aucs = [session_auc(s, nxt) for s, (_, nxt, _) in zip(deployed, steps)
            if nxt.labels.any() and not nxt.labels.all()]
    last = max(1, len(aucs) // 5)
    return {"trajectory": [round(a, 4) for a in aucs], "mean_auc": float(np.mean(aucs)),
            "final_auc": float(np.mean(aucs[-last:])), "comparisons": int(comparisons)}
