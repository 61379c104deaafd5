"""Budgeted selection: exact where affordable, greedy otherwise, never over capacity."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from shared_core.lre import select


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 40), st.floats(0.0, 1.0)), min_size=0, max_size=9), st.integers(0, 120))
def test_exact_knapsack_matches_brute_force(items: list[tuple[int, float]], cap: int) -> None:
    w = np.array([i[0] for i in items], dtype=np.int64)
    v = np.array([i[1] for i in items])
    chosen = select(w, v, cap)
    assert w[chosen].sum() <= cap
    best = max((sum(v[list(c)]) for r in range(len(items) + 1) for c in itertools.combinations(range(len(items)), r)
                if w[list(c)].sum() <= cap), default=0.0)
    assert v[chosen].sum() >= best - 1e-9


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 400), st.floats(0.0, 1.0)), min_size=1, max_size=60), st.integers(0, 3000))
def test_greedy_never_exceeds_capacity(items: list[tuple[int, float]], cap: int) -> None:
    w = np.array([i[0] for i in items], dtype=np.int64)
    v = np.array([i[1] for i in items])
    chosen = select(w, v, cap, exact_cells=0)
    assert w[chosen].sum() <= cap
    # greedy + best-single guard is at least half the optimum's fractional bound on the best item
    fits = w <= cap
    if fits.any():
        assert v[chosen].sum() >= v[fits].max() - 1e-12


def _greedy_one_by_one(w: np.ndarray, v: np.ndarray, cap: int) -> np.ndarray:
    """The greedy rule as a plain loop (the reference for the vectorised prefix in budget._greedy)."""
    order = np.lexsort((-np.arange(len(w)), -(v / np.maximum(w, 1e-9))))
    chosen, left = np.zeros(len(w), dtype=bool), cap
    for j in order:
        if w[j] <= left:
            chosen[j], left = True, left - int(w[j])
            if left == 0:
                break
    fits = np.flatnonzero(w <= cap)
    if len(fits) and v[best := fits[np.argmax(v[fits])]] > v[chosen].sum():
        chosen[:] = False
        chosen[best] = True
    return chosen


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 50), st.floats(0.0, 1.0)), min_size=1, max_size=80), st.integers(1, 600))
@example([(5, 1.0), (10, 0.0), (0, 0.0)], 5)  # an exact fill stops the greedy pass: the free item is not taken
def test_greedy_equals_the_one_by_one_rule(items: list[tuple[int, float]], cap: int) -> None:
    w = np.array([i[0] for i in items], dtype=np.int64)
    v = np.array([i[1] for i in items])
    np.testing.assert_array_equal(select(w, v, cap, exact_cells=0), _greedy_one_by_one(w, v, cap)
                                  if w.sum() > cap else np.ones(len(w), dtype=bool))
