"""``cache.top_k``'s shortcut must return exactly what the full selection returns, ties and closed rows included."""

import numpy as np
import pytest

from shared_core.index.cache import top_k


def _full(scores: np.ndarray, k: int) -> np.ndarray:
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


@pytest.mark.parametrize("seed", range(40))
def test_same_as_the_full_selection(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 20_000))
    scores = rng.random(n).astype(np.float32)
    if seed % 4 == 1:                                     # many ties: rounded scores, duplicated texts
        scores = np.round(scores, 2).astype(np.float32)
    if seed % 4 == 2:                                     # closed rows
        scores[rng.random(n) < 0.7] = -np.inf
    if seed % 4 == 3:                                     # a few exact twins among the best
        best = np.argsort(-scores)[:5]
        scores[best[1]] = scores[best[0]]
    allowed = int(np.isfinite(scores).sum())
    for k in (1, 5, 16, 20, 63, 64, 200):
        k = min(k, allowed)
        if k:
            assert top_k(scores, k).tolist() == _full(scores, k).tolist()


def test_all_tied() -> None:
    scores = np.full(10_000, 0.5, dtype=np.float32)
    assert top_k(scores, 16).tolist() == _full(scores, 16).tolist()
