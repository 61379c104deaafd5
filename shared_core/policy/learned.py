"""The learned policy: the TARL operation scorer with numpy inference from shipped weights.

The shipped file was trained by ``tarl train`` with counterfactual execution supervision on episodes the
project generates itself (no third-party data), so its licence is the project's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..grounding import Grounding
from ..reliability import Comparison, reliability
from ..schema import Action, Claim, Decision
from .features import decision_features, feasible
from .model import WEIGHTS_DIR, Scorer, ScorerWeights, recalibrated

DEFAULT_WEIGHTS = WEIGHTS_DIR / "tarl.json"
_TARGETED = {Action.NOOP, Action.REVISE, Action.REJECT_CONFLICT, Action.DEFER_VERIFY}


class LearnedPolicy:
    """Chooses among the five actions with calibrated probabilities; the margin is reliability's rho.

    ``probabilities`` are the model's belief about the right action, including revise or reject_conflict
    when grounding found no Accepted target (the claim looks like an update of something memory could
    not locate); the chosen action is the most probable one the executor can apply, and the decision
    function (``decision.decide``) then applies the labelling contract (``policy.contract``)."""

    name = "learned"

    def __init__(self, weights: str | Path | ScorerWeights = DEFAULT_WEIGHTS) -> None:
        loaded = weights if isinstance(weights, ScorerWeights) else ScorerWeights.load(weights)
        if set(loaded.actions) != {a.value for a in Action if a in _TARGETED or a is Action.APPEND}:
            raise ValueError(f"weights: expected the five TARL actions, got {loaded.actions}")
        self.scorer = Scorer(loaded)

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        x = decision_features(claim, grounding, comparison)
        p = self.scorer.probabilities(x, temperature=self.scorer.weights.temperature_slotted if claim.slot else None)[0]
        probs = dict(zip(self.scorer.actions, p.tolist()))
        ok = feasible(grounding, self.scorer.actions)
        action = Action(self.scorer.actions[int(np.argmax(np.where(ok, p, -1.0)))])
        target = grounding.target.id if grounding.target is not None and action in _TARGETED else None
        margin = comparison.margin if comparison is not None else reliability(claim) - 0.5
        about = f" about {grounding.target.id} (similarity {grounding.similarity:.2f})" if target else ""
        return Decision(action=action, target_id=target, probabilities=probs, margin=margin,
                        rationale=f"learned: {action.value} p={probs[action.value]:.2f}{about}, margin {margin:+.2f}")

    def report(self, claim: Claim, decision: Decision) -> Decision:
        """The decision the contract settled, with the confidence these weights report for it
        (``ScorerWeights.confidence_slotted`` / ``confidence_free``); the action and target are unchanged."""
        weights = self.scorer.weights
        ab = weights.confidence_slotted if claim.slot else weights.confidence_free
        if ab is None or decision.decided_by == "judge":
            return decision
        return decision.model_copy(update={"probabilities": recalibrated(decision.probabilities, decision.action.value, ab)})
