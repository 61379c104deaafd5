"""The cache's small products run on one BLAS thread, with the same results, and the process's thread
count comes back however the limit is nested or shared between threads."""

import threading

import numpy as np
import pytest

from shared_core.index import blas
from shared_core.index.cache import _Rows

libs = blas._blas()
needs_threads = pytest.mark.skipif(not libs, reason="no multi-threaded BLAS loaded")


def _threads() -> list[int]:
    return [lib.get_num_threads() for lib in libs]


@needs_threads
def test_one_thread_inside_and_the_count_restored_after_nesting_and_threads() -> None:
    before = _threads()
    barrier = threading.Barrier(2)
    seen: list[list[int]] = []

    def use() -> None:
        with blas.one_thread(10):
            barrier.wait()
            seen.append(_threads())
            barrier.wait()

    with blas.one_thread(10):
        with blas.one_thread(10):
            assert _threads() == [1] * len(libs)
        workers = [threading.Thread(target=use) for _ in range(2)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
    assert seen == [[1] * len(libs)] * 2 and _threads() == before
    with blas.one_thread(blas.SMALL + 1):         # a large product keeps its threads
        assert _threads() == before


def test_the_cache_scores_are_the_plain_products() -> None:
    rng = np.random.default_rng(3)
    rows = _Rows(2048)
    data = (rng.random((300, 2048)) * (rng.random((300, 2048)) < 0.04)).astype(np.float32)
    rows.append(data[:200])
    for r in data[200:]:
        rows.append(r[None, :])
    q = (rng.random(2048) * (rng.random(2048) < 0.03)).astype(np.float32)
    got = rows.dot(q)
    assert got.shape == (300,) and np.allclose(got, data @ q, rtol=1e-5, atol=1e-6)
    assert np.array_equal(got[-rows.n_buf:], data[-rows.n_buf:] @ q)
