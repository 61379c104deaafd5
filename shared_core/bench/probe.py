"""The content-free probe: a label-leak detector for decision data, and a benchmark system.

A depth-8 decision tree over six features that read no word of the claim's content (source prior,
stated confidence, whether grounding found a target, whether the text carries a hedge word, whether
that target is Pending, whether it shares the claim's slot). If it scores well on a data set, the data
set's labels can be read from its metadata, and a policy trained on it learns the metadata rather than
the language. Fit on the generated train split, scored on a test split; a policy worth shipping must
beat it by a wide margin. scikit-learn is imported only when a probe is fitted (benchmark time).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..grounding import Grounding
from ..policy.features import feasible
from ..reliability import Comparison, hedged, prior
from ..schema import DECISION_ACTIONS, Action, Claim, Decision, Ledger

PROBE_FEATURES = ("source_prior", "confidence", "has_target", "hedged", "target_pending", "same_slot")
DEPTH = 8
ACTIONS = tuple(a.value for a in DECISION_ACTIONS)


def probe_features(claim: Claim, grounding: Grounding) -> np.ndarray:
    """The six content-free features, in ``PROBE_FEATURES`` order."""
    t = grounding.target
    return np.asarray([prior(claim), claim.confidence, float(t is not None),
                       float(hedged(claim.text)), float(t is not None and t.ledger is Ledger.PENDING),
                       float(t is not None and claim.slot is not None and t.slot == claim.slot)], dtype=np.float32)


class ContentFreeProbe:
    """A Policy that decides from the six content-free features only (fit before use)."""

    name = "content_free_probe"

    def __init__(self, seed: int = 0) -> None:
        from sklearn.tree import DecisionTreeClassifier

        self.tree: Any = DecisionTreeClassifier(max_depth=DEPTH, random_state=seed)

    def fit(self, examples: Sequence[Any]) -> ContentFreeProbe:
        """``examples``: ``tarl_mem_examples.Example`` records (their claim, grounding and gold label)."""
        scored = [e for e in examples if e.scored]
        x = np.stack([probe_features(e.claim, e.grounding) for e in scored])
        self.tree.fit(x, [ACTIONS[e.label] for e in scored])
        return self

    def probabilities(self, claim: Claim, grounding: Grounding) -> np.ndarray:
        p = self.tree.predict_proba(probe_features(claim, grounding)[None])[0]
        out = np.zeros(len(ACTIONS))
        for cls, v in zip(self.tree.classes_, p):
            out[ACTIONS.index(cls)] = v
        return out

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        p = self.probabilities(claim, grounding)
        action = Action(ACTIONS[int(np.argmax(np.where(feasible(grounding, ACTIONS), p, -1.0)))])
        target = grounding.target.id if grounding.target is not None and action is not Action.APPEND else None
        return Decision(action=action, target_id=target, probabilities=dict(zip(ACTIONS, map(float, p))),
                        rationale=f"content-free probe: {action.value}")


def probe_macro_f1(train: Sequence[Any], test: Sequence[Any], seed: int = 0) -> float:
    """Teacher-forced macro-F1 of a probe fitted on ``train`` examples, scored on ``test`` examples (the raw
    tree prediction, no feasibility mask: what the metadata alone says about the label)."""
    from .tarl_mem_metrics import macro_f1

    probe = ContentFreeProbe(seed).fit(train)
    scored = [e for e in test if e.scored]
    pred = probe.tree.predict(np.stack([probe_features(e.claim, e.grounding) for e in scored]))
    return macro_f1([ACTIONS[e.label] for e in scored], list(pred))
