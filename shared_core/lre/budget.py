"""Budgeted selection: which older units to keep so that the kept history fits the token budget.

Maximise Σ p_i subject to Σ tokens_i ≤ remaining budget (a 0/1 knapsack). When the dynamic programme
is affordable (candidates × (capacity + 1) ≤ ``exact_cells``, 300,000 by default) it is solved
exactly; otherwise greedily by density p_i / tokens_i (ties to the newer unit), followed by the
classic guard of taking the single best item if it alone beats the greedy set. Greedy keeps a
1,000-message trim in a few milliseconds; the exact solution is used for the common case of a few
dozen candidates.
"""

from __future__ import annotations

import numpy as np

EXACT_CELLS = 300_000


def _exact(w: np.ndarray, v: np.ndarray, cap: int) -> np.ndarray:
    m = len(w)
    dp = np.zeros(cap + 1)
    take = np.zeros((m, cap + 1), dtype=bool)
    for j in range(m):
        wj = int(w[j])
        if wj > cap:
            continue
        cand = dp[: cap + 1 - wj] + v[j]
        better = cand > dp[wj:]
        take[j, wj:] = better
        dp[wj:] = np.where(better, cand, dp[wj:])
    chosen = np.zeros(m, dtype=bool)
    c = cap
    for j in range(m - 1, -1, -1):
        if take[j, c]:
            chosen[j] = True
            c -= int(w[j])
    return chosen


def _greedy(w: np.ndarray, v: np.ndarray, cap: int) -> np.ndarray:
    m = len(w)
    density = v / np.maximum(w, 1e-9)
    order = (m - 1) - np.argsort(-density[::-1], kind="stable")  # densest first, ties to the newer unit
    chosen = np.zeros(m, dtype=bool)
    # The densest items up to the first that does not fit are all taken (one cumulative sum); after
    # it only items no heavier than what is left can ever be taken, usually a handful, visited in order.
    csum = np.cumsum(w[order])
    k = int(np.searchsorted(csum, cap, side="left"))  # these leave something over
    if k < m and csum[k] == cap:  # this one fills the budget exactly: nothing after it is taken
        k += 1
    chosen[order[:k]] = True
    left = cap - (int(csum[k - 1]) if k else 0)
    rest = order[k:]
    rest = rest[w[rest] <= left]
    weights = w.tolist()
    for j in rest.tolist():
        if left == 0:
            break
        if weights[j] <= left:
            chosen[j] = True
            left -= weights[j]
    fits = np.flatnonzero(w <= cap)
    if len(fits):
        best = fits[np.argmax(v[fits])]
        if v[best] > v[chosen].sum():
            chosen[:] = False
            chosen[best] = True
    return chosen


def select(
    tokens: np.ndarray, value: np.ndarray, capacity: int, *, exact_cells: int = EXACT_CELLS
) -> np.ndarray:
    """Boolean mask of the items to keep; the kept tokens never exceed ``capacity``."""
    w = np.asarray(tokens, dtype=np.int64)
    v = np.asarray(value, dtype=np.float64)
    if capacity <= 0 or len(w) == 0:
        out = np.zeros(len(w), dtype=bool)
        if capacity == 0:
            out |= w == 0
        return out
    if w.sum() <= capacity:
        return np.ones(len(w), dtype=bool)
    if len(w) * (capacity + 1) <= exact_cells:
        return _exact(w, v, capacity)
    return _greedy(w, v, capacity)
