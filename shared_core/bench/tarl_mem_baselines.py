"""Baselines for ``tarl bench tarl-mem``, each a Policy run in the same harness as TARL's policies.

Deterministic baselines report probability 1 for their choice, so their ECE is their error rate.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..grounding import Grounding, normalised
from ..policy.features import FEATURE_NAMES, decision_features, feasible
from ..policy.model import WEIGHTS_DIR, Scorer, ScorerWeights
from ..reliability import Comparison
from ..schema import DECISION_ACTIONS, Action, Claim, Decision, Ledger

ACTIONS = tuple(a.value for a in DECISION_ACTIONS)

OVERWRITE_SIMILARITY = 0.5


def _one(action: Action, target: str | None = None, why: str = "") -> Decision:
    return Decision(action=action, target_id=target, probabilities={action.value: 1.0}, rationale=why)


class FullHistory:
    """Keeps everything: every claim is appended."""

    name = "full_history"

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        return _one(Action.APPEND, why="always append")


class Mem0AddOnly:
    """mem0 OSS (2026): add-only with hash dedup — an exact repeat of an open entry is skipped."""

    name = "mem0_add_only"

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        key = normalised(claim.text)
        for entry, _ in grounding.candidates:
            if normalised(entry.text) == key:
                return _one(Action.NOOP, entry.id, "hash duplicate")
        return _one(Action.APPEND, why="add")


class OverwriteSimilar:
    """Update-on-similarity: the most similar Accepted entry above a cosine threshold is overwritten
    (superseded), otherwise append."""

    name = "overwrite_similar"

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        best = max(((e, s) for e, s in grounding.candidates if e.ledger is Ledger.ACCEPTED), key=lambda p: p[1], default=None)
        if best is not None and best[1] >= OVERWRITE_SIMILARITY:
            return _one(Action.REVISE, best[0].id, f"similar ({best[1]:.2f})")
        return _one(Action.APPEND, why="nothing similar")


class WriteHold:
    """TARL's binary stress test: a learned Write/Hold classifier (same features, label loss) with a
    heuristic executor — Write revises the grounded Accepted target if any, else appends; Hold drops
    the claim (noop)."""

    name = "write_hold"

    def __init__(self, weights: str | Path = WEIGHTS_DIR / "write_hold.json") -> None:
        self.scorer = Scorer(ScorerWeights.load(weights))

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        p_write, p_hold = self.scorer.probabilities(decision_features(claim, grounding, comparison))[0]
        target = grounding.target
        if p_write >= p_hold:
            if target is not None and target.ledger is Ledger.ACCEPTED:
                action, tid = Action.REVISE, target.id
            else:
                action, tid = Action.APPEND, None
        else:
            action, tid = Action.NOOP, target.id if target is not None else None
        probs = {action.value: float(max(p_write, p_hold))}
        if action is not Action.NOOP:
            probs[Action.NOOP.value] = float(p_hold)
        else:
            probs[Action.APPEND.value if target is None else Action.REVISE.value] = float(p_write)
        return Decision(action=action, target_id=tid, probabilities=probs, rationale=f"write p={p_write:.2f}")


PROBE_FEATURES = ("source_prior", "confidence", "has_target", "claim_hedged", "target_pending", "same_slot")
"""What the content-free probe reads: no word of the claim, only its metadata and whether grounding
found something. If it scores well, the labels are predictable from metadata (a leak), not from content."""


class ContentFreeProbe:
    """A depth-8 decision tree on ``PROBE_FEATURES``, fitted on the generated train split at benchmark
    time. It is the yardstick the learned policy must beat by a wide margin on hand-written text."""

    name = "content_free_probe"

    def __init__(self, xs: np.ndarray, labels: np.ndarray, seed: int = 0) -> None:
        from sklearn.tree import DecisionTreeClassifier

        self.columns = [FEATURE_NAMES.index(f) for f in PROBE_FEATURES]
        self.tree = DecisionTreeClassifier(max_depth=8, random_state=seed).fit(xs[:, self.columns], labels)

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        x = decision_features(claim, grounding, comparison)[self.columns][None, :]
        p = self.tree.predict_proba(x)[0]
        probs = {ACTIONS[int(c)]: float(v) for c, v in zip(self.tree.classes_, p)}
        ok = feasible(grounding, ACTIONS)
        best = max((a for a, allowed in zip(ACTIONS, ok) if allowed), key=lambda a: probs.get(a, 0.0))
        target = grounding.target.id if grounding.target is not None and best != Action.APPEND.value else None
        return Decision(action=Action(best), target_id=target, probabilities=probs, rationale="content-free probe")
