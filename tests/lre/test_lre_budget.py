"""Budgeted selection: exact where affordable, greedy otherwise, never over capacity."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
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
