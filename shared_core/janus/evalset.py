"""What to compare on: Janus's hybrid evaluation set (coverage + boundary + fresh).

Each part guards against a different way a small evaluation set misleads:
- coverage: one real task nearest each k-means centroid of all tasks seen, so a candidate that helps
  the recent tasks but breaks an old region of the task distribution is caught;
- boundary: tasks whose correctness flipped between two memories in earlier comparisons; they are the
  memory-sensitive ones, where a comparison has signal rather than noise;
- fresh: a sample of the tasks seen since the last comparison (including the current one), i.e. the
  tasks the candidate was written from and the ones it most likely changes.

Everything here is a pure function over task indices and embeddings (numpy only, no scikit-learn):
the controller owns the state and calls these at trigger time.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class EvalSet:
    """Task indices (into the controller's list of tasks seen) for one comparison, disjoint parts."""

    coverage: tuple[int, ...] = ()
    boundary: tuple[int, ...] = ()
    fresh: tuple[int, ...] = ()

    @property
    def tasks(self) -> tuple[int, ...]:
        return self.coverage + self.boundary + self.fresh

    def __len__(self) -> int:
        return len(self.tasks)


def kmeans(
    x: np.ndarray,
    k: int,
    *,
    init: np.ndarray | None = None,
    seed: int = 0,
    iters: int = 50,
) -> tuple[np.ndarray, np.ndarray]:
    """Lloyd's k-means; returns (centroids (k', d), labels (n,)) with k' = min(k, n).

    ``init`` warm-starts from the previous trigger's centroids (paper), which keeps the coverage set
    stable between triggers and needs few iterations; it is ignored when its shape no longer fits
    (k changed because few tasks were seen). Otherwise k-means++ seeding from ``seed``. An empty
    cluster is re-seeded at the point farthest from its centroid so that k' representatives exist.
    """
    x = np.asarray(x, dtype=float)
    if x.ndim != 2:
        raise ValueError(f"x must be a 2-d array of embeddings, got shape {x.shape}")
    n = x.shape[0]
    k = min(int(k), n)
    if k <= 0:
        return np.zeros((0, x.shape[1])), np.zeros(n, dtype=int)
    rng = np.random.default_rng(seed)
    if init is not None and np.shape(init) == (k, x.shape[1]):
        centers = np.array(init, dtype=float)
    else:
        centers = _kmeans_pp(x, k, rng)
    labels = np.full(n, -1)
    for _ in range(max(1, iters)):
        d2 = _sq_dists(x, centers)
        new_labels = d2.argmin(axis=1)
        for c in range(k):
            if not np.any(new_labels == c):
                far = int(d2[np.arange(n), new_labels].argmax())
                new_labels[far] = c
                d2[far] = 0.0
        centers = np.stack(
            [x[new_labels == c].mean(axis=0) if np.any(new_labels == c) else centers[c] for c in range(k)]
        )
        if np.array_equal(new_labels, labels):
            break
        labels = new_labels
    return centers, labels


def _sq_dists(x: np.ndarray, centers: np.ndarray) -> np.ndarray:
    return np.maximum(((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2), 0.0)


def _kmeans_pp(x: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    centers = [x[int(rng.integers(len(x)))]]
    for _ in range(1, k):
        d2 = _sq_dists(x, np.stack(centers)).min(axis=1)
        total = float(d2.sum())
        idx = int(rng.integers(len(x))) if total <= 0 else int(rng.choice(len(x), p=d2 / total))
        centers.append(x[idx])
    return np.stack(centers)


def representatives(x: np.ndarray, centers: np.ndarray, labels: np.ndarray) -> tuple[int, ...]:
    """For each cluster, the real task nearest its centroid (a centroid is not a task one can solve)."""
    reps: list[int] = []
    for c in range(len(centers)):
        members = np.flatnonzero(labels == c)
        if members.size == 0:
            continue
        d = np.linalg.norm(x[members] - centers[c], axis=1)
        rep = int(members[int(d.argmin())])
        if rep not in reps:
            reps.append(rep)
    return tuple(reps)


def coverage_set(
    embeddings: np.ndarray, size: int, *, init: np.ndarray | None = None, seed: int = 0
) -> tuple[tuple[int, ...], np.ndarray | None]:
    """(representative task indices, centroids to warm-start the next refresh)."""
    if size <= 0 or len(embeddings) == 0:
        return (), None
    centers, labels = kmeans(embeddings, size, init=init, seed=seed)
    return representatives(np.asarray(embeddings, dtype=float), centers, labels), centers


def fresh_set(pending: Sequence[int], size: int, rng: np.random.Generator) -> tuple[int, ...]:
    """Up to ``size`` tasks sampled from those seen since the last trigger, in stream order."""
    pending = list(pending)
    if size <= 0:
        return ()
    if len(pending) <= size:
        return tuple(pending)
    picked = rng.choice(len(pending), size=size, replace=False)
    return tuple(pending[i] for i in sorted(picked))


def compose(
    coverage: Sequence[int], boundary: Sequence[int], fresh: Sequence[int]
) -> EvalSet:
    """Disjoint parts, each task evaluated once: a task in several parts counts in the first one
    (coverage, then boundary, then fresh), so the evaluator is never paid twice for the same task."""
    cov = tuple(dict.fromkeys(coverage))
    bnd = tuple(t for t in dict.fromkeys(boundary) if t not in cov)
    taken = set(cov) | set(bnd)
    frs = tuple(t for t in dict.fromkeys(fresh) if t not in taken)
    return EvalSet(coverage=cov, boundary=bnd, fresh=frs)


def refresh_boundary(
    previous: Sequence[int],
    flips: Sequence[int],
    coverage: Sequence[int],
    size: int,
    rng: np.random.Generator,
) -> tuple[int, ...]:
    """The next boundary set (authors' rule): the newest flips first (coverage tasks excluded, they are
    evaluated anyway); if there are more flips than slots, a random sample of them; remaining slots
    keep earlier boundary tasks that did not flip again."""
    if size <= 0:
        return ()
    cov = set(coverage)
    new = [t for t in dict.fromkeys(flips) if t not in cov]
    if len(new) >= size:
        picked = rng.choice(len(new), size=size, replace=False)
        return tuple(new[i] for i in sorted(picked))
    keep = [t for t in dict.fromkeys(previous) if t not in cov and t not in new]
    return tuple(new + keep[: size - len(new)])
