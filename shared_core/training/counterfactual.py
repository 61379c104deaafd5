"""Counterfactual execution supervision, the torch-free half: run every action through the real
executor and score each resulting state against the gold next state.

Q(a) = - sum over ledgers L of (w_L * |state_a[L] - gold[L]| + m_L * |gold[L] - state_a[L]|), over
multisets of (normalised text, source): 0 for an exact match, minus the weighted count of misplaced
entries otherwise. Weights: an extra entry costs Accepted 0.5, History 0.3, Pending 0.2 — Accepted is
what retrieval serves, History is the audit trail; a gold Accepted entry that is missing (a true fact
wrongly superseded or dropped) costs twice as much, 1.0 (the asymmetry of ``policy.contract``). A count (not a Jaccard ratio) keeps one misplaced entry equally costly in a small and a
large memory. An action the executor refuses (revise or reject_conflict without an Accepted target)
gets Q = -inf, i.e. zero target mass. The training target is softmax(Q / tau).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from ..errors import InvalidStep
from ..executor import MemoryState
from ..grounding import normalised
from ..schema import DECISION_ACTIONS, Claim, Ledger

LEDGER_WEIGHTS = {Ledger.ACCEPTED: 0.5, Ledger.HISTORY: 0.3, Ledger.PENDING: 0.2}
MISSING_WEIGHTS = {Ledger.ACCEPTED: 1.0, Ledger.HISTORY: 0.3, Ledger.PENDING: 0.2}
TAU = 0.15


def contents(state: MemoryState, ledger: Ledger) -> Counter[tuple[str, str]]:
    return Counter((normalised(e.text), e.source) for e in state.ledger(ledger))


def quality(predicted: MemoryState, gold: MemoryState) -> float:
    total = 0.0
    for ledger, w in LEDGER_WEIGHTS.items():
        a, b = contents(predicted, ledger), contents(gold, ledger)
        total -= w * sum((a - b).values()) + MISSING_WEIGHTS[ledger] * sum((b - a).values())
    return total


def action_qualities(before: MemoryState, claim: Claim, target_id: str | None, gold: MemoryState, step: int) -> np.ndarray:
    """Q for each of DECISION_ACTIONS, every one executed by the real executor on a copy of ``before``."""
    from ..bench.episodes import run_step

    q = np.full(len(DECISION_ACTIONS), -np.inf)
    for i, action in enumerate(DECISION_ACTIONS):
        try:
            q[i] = quality(run_step(before, claim, action, target_id, step), gold)
        except InvalidStep:
            continue
    return q


def soft_target(q: np.ndarray, tau: float = TAU) -> np.ndarray:
    z = np.where(np.isfinite(q), q / tau, -np.inf)
    z = z - z.max()
    e = np.exp(z)
    return e / e.sum()
