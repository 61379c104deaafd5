"""A refit from the user's own logs: the shipped scorer, told the user's vocabulary, plus a penalised
correction learned from self-labels.

Why not a fresh model: a store's logs are small and their self-labels noisy (:mod:`shared_core.lre.labels`;
on the LoCoMo development conversations they pick evidence turns at precision about 0.4 where the base
rate is 0.24), so a model fit on them alone forgets what the shipped scorer knows (0.70 macro-AUC alone,
against 0.81 for the shipped scorer). A refit therefore keeps the shipped scorer and moves only as far
as the logs support, in two steps:

1. **Own vocabulary (no labels).** The shipped vocabulary comes from generated data, so the feature
   ``rare`` (share of a unit's content words outside the vocabulary) counts every everyday word of a
   real user (``pottery``, ``kids``) as rare. The ``vocabulary`` most frequent words of the user's own
   logs are appended with weight 0, which turns ``rare`` into "rare for this user". On the LoCoMo
   development conversations (vocabulary from the other five) this alone lifts macro-AUC from 0.814 to
   about 0.825; the effect is that feature's (giving the new words idf ~0 scores the same).
2. **Correction (self-labels).** An L2-penalised ``delta`` on the standardised feature weights and the
   TF-IDF weights (the new words included), fit by Newton's method in numpy/scipy with the shipped
   logits as an offset: a prior centred on the shipped weights, so with few labels ``delta`` stays
   near 0 and with many it moves as far as the labels support. Dense weights are held tighter
   (``l2``) than TF-IDF weights (``l2_tfidf``): the dense weights carry what the shipped scorer knows,
   the new words' weights start from nothing.

The result is an ordinary :class:`Scorer` (same JSON format); every refit starts again from ``base``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from shared_core.lre.scorer import Scorer
from shared_core.lre.units import LREInputError

if TYPE_CHECKING:
    from scipy import sparse

History = tuple[Sequence[str], Sequence[str] | None]

L2 = 3000.0
"""Penalty per standardised dense weight (and the intercept), against balanced sample weights that sum
to the unit count. Chosen with :data:`L2_TFIDF` and :data:`VOCABULARY` by leave-one-conversation-out on
the LoCoMo development conversations (grid 1,000 / 3,000 / 10,000 / 30,000); ``tarl bench lre`` reports it."""

L2_TFIDF = 300.0
"""Penalty per TF-IDF weight (grid 3 / 10 / 30 / 100 / 300; 100-300 within 0.001 of each other)."""

VOCABULARY = 300
"""Words of the user's own logs added to the vocabulary (100 / 300 / 1,000 / 3,000 tried: 300-3,000
within 0.002 of each other, 100 clearly lower); the shipped scorer has 300."""

MIN_DF = 3
"""A word must occur in this many recorded units to join the vocabulary (a one-off is no vocabulary)."""


def own_vocabulary(base: Scorer, histories: Sequence[History], *, size: int = VOCABULARY,
                   min_df: int = MIN_DF) -> Scorer:
    """``base`` with the ``size`` most frequent content words of ``histories`` it lacks appended to its
    vocabulary (weight 0; idf from the histories): step 1 of the module docstring."""
    from shared_core.lre.fit import build_vocab

    texts = [t for h, _ in histories for t in h]
    words, idf = build_vocab(texts, max_features=len(base.vocab_list) + size, min_df=min_df)
    new = [(w, x) for w, x in zip(words, idf) if w not in base.vocab][:size]
    d = base.to_dict(digits=8)
    d["vocab"] = base.vocab_list + [w for w, _ in new]
    d["idf"] = [*base.idf.tolist(), *(x for _, x in new)]
    d["tfidf_coef"] = [*base.tfidf_coef.tolist(), *([0.0] * len(new))]
    d["meta"] = {**base.meta, "own_vocabulary": {"words": len(new), "units": len(texts), "min_df": min_df}}
    return Scorer.from_dict(d)


def fit_correction(base: Scorer, histories: Sequence[History], labels: Sequence[np.ndarray], *,
                   l2: float = L2, l2_tfidf: float = L2_TFIDF, vocabulary: int = VOCABULARY,
                   iters: int = 30) -> Scorer:
    """The shipped scorer with the user's vocabulary plus a penalised correction (module docstring).

    ``labels`` are one bool array per history; classes are balanced as in
    :func:`shared_core.lre.fit.fit_texts`. ``vocabulary=0`` keeps the base vocabulary.
    """
    if len(histories) != len(labels):
        raise LREInputError(f"labels must have one array per history: {len(labels)} != {len(histories)}")
    for (texts, _), lab in zip(histories, labels):
        if len(texts) != len(lab):
            raise LREInputError(f"labels length {len(lab)} != units {len(texts)}")
    y = np.concatenate([np.asarray(lab, dtype=float) for lab in labels]) if labels else np.zeros(0)
    pos = float(y.sum())
    if pos == 0 or pos == len(y):
        raise LREInputError(f"labels must contain both classes, got {int(pos)} positives of {len(y)} units")
    start = own_vocabulary(base, histories, size=vocabulary) if vocabulary else base
    X, off = _design(start, histories)
    f, v = len(start.coef), len(start.vocab_list)
    sw = np.where(y > 0, len(y) / (2 * pos), len(y) / (2 * (len(y) - pos)))
    # The intercept is penalised like the dense weights: the shipped one carries a budget prior
    # (fit.BUDGET_PRIOR) that balanced refitting would otherwise undo.
    penalty = np.r_[np.full(f + 1, float(l2)), np.full(v, float(l2_tfidf))]
    delta = np.zeros(f + 1 + v)
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(off + X @ delta, -50, 50)))
        grad = X.T @ (sw * (p - y)) + penalty * delta
        hess = (X.T @ X.multiply((sw * p * (1 - p))[:, None])).toarray() + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        step *= min(1.0, 2.0 / max(float(np.abs(step).max()), 1e-12))  # damped: offsets can saturate p
        delta -= step
        if np.abs(step).max() < 1e-8:
            break
    d = start.to_dict(digits=8)
    d["coef"] = (start.coef + delta[:f]).tolist()
    d["intercept"] = start.intercept + float(delta[f])
    d["tfidf_coef"] = (start.tfidf_coef + delta[f + 1:]).tolist()
    d["meta"] = {**start.meta, "adapted": {"units": len(y), "positives": int(pos), "l2": float(l2),
                                           "l2_tfidf": float(l2_tfidf), "labels": "self-supervised from own logs"}}
    return Scorer.from_dict(d)


def _design(scorer: Scorer, histories: Sequence[History]) -> tuple[sparse.csr_matrix, np.ndarray]:
    """[standardised dense features, 1, TF-IDF] of every unit (sparse), and the scorer's logits.
    (scipy is imported here, not at module level: the inference path never loads it.)"""
    from scipy import sparse

    blocks, offs = [], []
    v = len(scorer.vocab_list)
    for texts, kinds in histories:
        fs = scorer.features(texts, kinds)
        x = np.column_stack([(fs.dense - scorer.mean) / scorer.scale, np.ones(fs.n)])
        t = sparse.csr_matrix((fs.tfidf_vals, (fs.tfidf_rows, fs.tfidf_cols)), shape=(fs.n, v))
        blocks.append(sparse.hstack([sparse.csr_matrix(x), t]))
        offs.append(scorer.logits(fs))
    return sparse.vstack(blocks).tocsr(), np.concatenate(offs)
