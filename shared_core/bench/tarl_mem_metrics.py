"""TARL-Mem metrics. Exact definitions (the README copies these):

- ``macro_f1``: 5-way macro-F1 of the chosen action vs the gold action, averaged over the five actions
  (an action absent from both gold and predictions is skipped), on scored decisions; in
  ``tarl_mem_rollout`` every metric is computed in rollout, with teacher-forced twins (``*_tf``).
- ``next_state_acc``: share of decisions whose predicted next state equals the gold next state exactly:
  for each ledger (Accepted, Pending, History), the multiset of (normalised text, source) of its entries.
  The predicted state is produced by executing the decision (action + grounded target) with the real
  executor on the gold state before the step.
- ``pollution``: among decisions whose gold action is a Hold action (noop, reject_conflict,
  defer_verify), the share where the claim's content reaches Accepted in the predicted next state.
- ``conflict_preservation``: among gold conflict decisions (revise and reject_conflict with a target),
  the share where the predicted next state has the right fact in Accepted and the loser in History
  (revise: the new claim in Accepted, the gold target in History; reject_conflict: the gold target in
  Accepted, the claim in History).
  ``conflict_preservation_grounded``: the same restricted to cases where grounding found the gold target
  (separates the policy's choice from the embedder's recall).
- ``ece``: expected calibration error over the decisions of a run: 10 equal-width bins over the
  probability the decision reports for the action it executed (``confidence``: its
  ``Decision.probabilities[action]``), |mean reported probability - share of those actions that equal
  the gold action| per bin, weighted by bin size. For this project's policies the decision is the one the
  labelling contract leaves (``policy.contract.enforce``) and the probability is what
  ``policy.contract.reported`` says: renormalised over the actions the contract allows, or the policy's
  own probability where the contract forces one action. A system that reports no probability counts as
  sure (1.0).
- ``rollout_acc``: sequential rollout — each episode is replayed with the system's own decisions feeding
  the next step (grounding runs on the predicted state); after every step the predicted state is
  compared with the gold state (same equality as next_state_acc); mean over all steps; ``rollout_by_step``
  is the mean by step index (plotted).
- ``decision_ms_p50``: median wall time of grounding + reliability + policy per decision, excluding
  embedding (candidates come from the harness's brute-force cosine search over open entries).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..executor import MemoryState
from ..schema import DECISION_ACTIONS, Action, Decision, Ledger
from ..training.counterfactual import contents

ACTIONS = tuple(a.value for a in DECISION_ACTIONS)
HOLD = {Action.NOOP, Action.REJECT_CONFLICT, Action.DEFER_VERIFY}


def same_state(a: MemoryState, b: MemoryState) -> bool:
    return all(contents(a, lg) == contents(b, lg) for lg in Ledger)


def macro_f1(gold: Sequence[str], pred: Sequence[str]) -> float:
    scores = []
    for a in ACTIONS:
        tp = sum(g == a and p == a for g, p in zip(gold, pred))
        fp = sum(g != a and p == a for g, p in zip(gold, pred))
        fn = sum(g == a and p != a for g, p in zip(gold, pred))
        if tp + fp + fn:
            scores.append(2 * tp / (2 * tp + fp + fn))
    return float(np.mean(scores)) if scores else float("nan")


def ece(confidence: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float:
    c, k = np.asarray(confidence, float), np.asarray(correct, float)
    if len(c) == 0:
        return float("nan")
    idx = np.minimum((c * bins).astype(int), bins - 1)
    total = 0.0
    for b in range(bins):
        sel = idx == b
        if sel.any():
            total += sel.mean() * abs(c[sel].mean() - k[sel].mean())
    return float(total)


def confidence(decision: Decision) -> float:
    """The probability the system gave to the action it executed."""
    return decision.probabilities.get(decision.action.value, 1.0)


def polluted(pred: MemoryState, created_id: str, gold_action: Action) -> bool:
    entry = pred.entry(created_id)
    return gold_action in HOLD and entry is not None and entry.ledger is Ledger.ACCEPTED


def conflict_kept(pred: MemoryState, created_id: str, gold_action: Action, gold_target: str | None) -> bool | None:
    """None when the decision is not a gold conflict case."""
    if gold_target is None or gold_action not in (Action.REVISE, Action.REJECT_CONFLICT):
        return None
    new, old = pred.entry(created_id), pred.entry(gold_target)
    winner, loser = (new, old) if gold_action is Action.REVISE else (old, new)
    return bool(winner is not None and loser is not None and winner.ledger is Ledger.ACCEPTED
                and loser.ledger is Ledger.HISTORY)
