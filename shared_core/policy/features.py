"""The policy's view of one decision: grounding features, the reliability comparison, and the claim's own
trust, flattened into one fixed-order vector. Training and inference both call ``decision_features``,
so the two can never disagree about what a feature means."""

from __future__ import annotations

import numpy as np

from .. import grounding as g
from .. import reliability as r
from ..schema import Action, Claim, Ledger

CLAIM_NAMES: tuple[str, ...] = ("claim_reliability", "claim_hedged", "source_prior", "confidence", "has_comparison")
FEATURE_NAMES: tuple[str, ...] = g.FEATURE_NAMES + r.FEATURE_NAMES + CLAIM_NAMES

ACTION_CODE_NAMES: tuple[str, ...] = ("adds_to_accepted", "removes_from_accepted", "adds_to_history",
                                      "adds_to_pending", "needs_target")
ACTION_CODES: dict[str, tuple[float, ...]] = {
    Action.APPEND.value: (1, 0, 0, 0, 0),
    Action.NOOP.value: (0, 0, 0, 0, 0),
    Action.REVISE.value: (1, 1, 1, 0, 1),
    Action.REJECT_CONFLICT.value: (0, 0, 1, 0, 1),
    Action.DEFER_VERIFY.value: (0, 0, 0, 1, 0),
    "write": (1, 0, 0, 0, 0),
    "hold": (0, 0, 0, 0, 0),
}
"""TARL's execution code phi(a): which ledger the action writes to, whether it needs a target, and
its effect on Accepted. Read from the executor's semantics, fixed, not learned."""


def decision_features(claim: Claim, grounding: g.Grounding, comparison: r.Comparison | None) -> np.ndarray:
    gf = g.vector(grounding.features if grounding.target is not None else {**grounding.features, "has_target": 0.0})
    rf = comparison.vector() if comparison is not None else [0.0] * len(r.FEATURE_NAMES)
    f = grounding.features       # the decision function put the configured trust here
    prior = f["source_prior"] if "source_prior" in f else r.prior(claim)
    trust = f["claim_reliability"] if "claim_reliability" in f else r.reliability(claim)
    cf = [trust, float(r.hedged(claim.text)), prior, claim.confidence, float(comparison is not None)]
    return np.asarray(gf + rf + cf, dtype=np.float32)


def feasible(grounding: g.Grounding, actions: tuple[str, ...]) -> np.ndarray:
    """Actions the executor can apply: revise and reject_conflict need an Accepted target."""
    accepted = grounding.target is not None and grounding.target.ledger is Ledger.ACCEPTED
    return np.asarray([accepted or not ACTION_CODES[a][4] for a in actions], dtype=bool)
