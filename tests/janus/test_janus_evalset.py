"""Hybrid evaluation set: k-means coverage (numpy, warm start), boundary refresh, fresh sample, composition."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from shared_core.janus.evalset import compose, coverage_set, fresh_set, kmeans, refresh_boundary


def blobs(seed: int = 0, per: int = 5) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    x = np.concatenate([c + rng.normal(0, 0.3, size=(per, 2)) for c in centres])
    return x, np.repeat(np.arange(3), per)


def test_coverage_picks_one_real_task_per_cluster():
    x, truth = blobs()
    reps, centres = coverage_set(x, 3, seed=1)
    assert len(reps) == 3 and centres.shape == (3, 2)
    assert sorted(truth[list(reps)]) == [0, 1, 2]          # one representative from each blob


def test_warm_start_keeps_centroids_and_converges_immediately():
    x, _ = blobs()
    centres, labels = kmeans(x, 3, seed=0)
    again, labels2 = kmeans(x, 3, init=centres, iters=1)
    assert np.allclose(again, centres) and (labels2 == labels).all()
    # a warm start whose shape no longer fits is ignored instead of failing
    c2, _ = kmeans(x[:2], 3, init=centres)
    assert c2.shape == (2, 2)


def test_kmeans_with_duplicates_still_returns_k_clusters():
    x = np.array([[0.0, 0.0]] * 4 + [[1.0, 1.0]])
    centres, labels = kmeans(x, 3, seed=0)
    assert centres.shape == (3, 2) and set(labels.tolist()) <= {0, 1, 2}


def test_janus_path_does_not_import_scikit_learn():
    code = (
        "import sys, numpy as np; from shared_core.janus import JanusController; "
        "from shared_core.janus.evalset import coverage_set; coverage_set(np.eye(4), 2); "
        "assert 'sklearn' not in sys.modules and 'torch' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})


def test_fresh_set_samples_from_pending_in_order():
    rng = np.random.default_rng(0)
    assert fresh_set([7, 8], 5, rng) == (7, 8)
    picked = fresh_set(range(10, 30), 5, rng)
    assert len(picked) == 5 and list(picked) == sorted(picked) and set(picked) <= set(range(10, 30))
    assert fresh_set([1, 2], 0, rng) == ()


def test_compose_is_disjoint_in_part_order():
    es = compose(coverage=[1, 2, 2], boundary=[2, 3, 4], fresh=[4, 5, 1])
    assert (es.coverage, es.boundary, es.fresh) == ((1, 2), (3, 4), (5,))
    assert es.tasks == (1, 2, 3, 4, 5) and len(es) == 5


def test_refresh_boundary_follows_the_authors_rule():
    rng = np.random.default_rng(0)
    # fewer flips than slots: flips first, then old boundary tasks that are not coverage or flips
    assert refresh_boundary([10, 11, 12, 13], flips=[5, 11, 1], coverage=[1, 12], size=4, rng=rng) == (5, 11, 10, 13)
    # more flips than slots: a sample of the flips only
    new = refresh_boundary([10, 11], flips=[1, 2, 3, 4, 5], coverage=[], size=3, rng=rng)
    assert len(new) == 3 and set(new) <= {1, 2, 3, 4, 5}
    assert refresh_boundary([1, 2], flips=[3], coverage=[], size=0, rng=rng) == ()


@given(
    cov=st.lists(st.integers(0, 30), max_size=12),
    bnd=st.lists(st.integers(0, 30), max_size=8),
    fr=st.lists(st.integers(0, 30), max_size=5),
)
def test_compose_invariants(cov, bnd, fr):
    es = compose(cov, bnd, fr)
    assert len(set(es.tasks)) == len(es.tasks)                # every task evaluated once
    assert set(es.tasks) == set(cov) | set(bnd) | set(fr)     # nothing lost
    assert set(es.coverage) == set(cov)                       # coverage is never displaced


@given(
    prev=st.lists(st.integers(0, 40), max_size=10),
    flips=st.lists(st.integers(0, 40), max_size=15),
    cov=st.lists(st.integers(0, 40), max_size=12),
    size=st.integers(0, 8),
    seed=st.integers(0, 5),
)
def test_boundary_invariants(prev, flips, cov, size, seed):
    new = refresh_boundary(prev, flips, cov, size, np.random.default_rng(seed))
    assert len(new) <= size and len(set(new)) == len(new)
    assert not set(new) & set(cov)
    assert set(new) <= set(prev) | set(flips)
    fresh_flips = [f for f in dict.fromkeys(flips) if f not in set(cov)]
    if len(fresh_flips) <= size:
        assert new[: len(fresh_flips)] == tuple(fresh_flips)   # every new flip is kept, first
