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
    prior = r.SOURCE_PRIORS.get(claim.source, r.UNKNOWN_SOURCE_PRIOR)
    cf = [r.reliability(claim), float(r.hedged(claim.text)), prior, claim.confidence, float(comparison is not None)]
    return np.asarray(gf + rf + cf, dtype=np.float32)


def feasible(grounding: g.Grounding, actions: tuple[str, ...]) -> np.ndarray:
    """Actions the executor can apply: revise and reject_conflict need an Accepted target."""
    accepted = grounding.target is not None and grounding.target.ledger is Ledger.ACCEPTED
    return np.asarray([accepted or not ACTION_CODES[a][4] for a in actions], dtype=bool)


def applicable(claim: Claim, grounding: g.Grounding, actions: tuple[str, ...]) -> np.ndarray:
    """Feasible actions that also make sense. With no target a claim is about nothing in memory, so it
    cannot restate anything: dropping it (noop) needs a reason, and the only one left is that it carries
    no fact (a question or a phatic turn, ``grounding.content_free``). A contentful new claim is therefore
    stored (append) or held for verification (defer_verify), never silently lost. With a target, a
    claim that replaces one of its values (``grounding.value_replaced``: another place, name, number or
    id) says something new about it, so it is not a restatement either. A slot is a single-valued key
    (the key of a key-value view such as a LangGraph store): a claim on the slot of an open target cannot
    be appended beside it, since the key would then hold two answers; it revises, is rejected, waits, or
    restates."""
    ok = feasible(grounding, actions)
    if grounding.target is None and not g.content_free(claim.text) or grounding.features.get("value_replaced"):
        ok &= np.asarray([a != Action.NOOP.value for a in actions], dtype=bool)
    if grounding.target is not None and grounding.features.get("same_slot"):
        ok &= np.asarray([a != Action.APPEND.value for a in actions], dtype=bool)
    return ok
