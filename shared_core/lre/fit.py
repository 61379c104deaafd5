"""Training a scorer (needs the ``train`` or ``bench`` extra: scikit-learn and scipy).

Training computes features with the very same :func:`compute_features` the inference path uses, so
what is learned is what runs. Only this module imports scikit-learn, and only inside functions.

Re-create the shipped weights (trained on generated data only, see :mod:`shared_core.lre.synthetic`),
or train on your own transcripts (JSONL, one message list per line)::

    python -m shared_core.lre.fit
    python -m shared_core.lre.fit --logs my_transcripts.jsonl --out my_weights.json
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from shared_core.lre import lexicon
from shared_core.lre.features import FEATURE_NAMES, VocabIndex, compute_features
from shared_core.lre.labels import self_labels
from shared_core.lre.scorer import DEFAULT_WEIGHTS, Scorer
from shared_core.lre.textarray import word_strings
from shared_core.lre.units import AsMessage, LREInputError, units_from_messages

History = tuple[Sequence[str], Sequence[str] | None]
"""One history for training: unit texts in order, and unit kinds (or None for plain turns)."""


def build_vocab(texts: Iterable[str], *, max_features: int, min_df: int) -> tuple[list[str], np.ndarray]:
    """Most frequent content words (document frequency ≥ ``min_df``) and their smoothed idf."""
    df: Counter[str] = Counter()
    n = 0
    for t in texts:
        df.update({w for w in word_strings(t) if w not in lexicon.STOP_WORDS})
        n += 1
    words = sorted((w for w, c in df.items() if c >= min_df), key=lambda w: (-df[w], w))[:max_features]
    idf = np.array([math.log((1 + n) / (1 + df[w])) + 1.0 for w in words])
    return words, idf


def fit_texts(
    histories: Sequence[History],
    labels: Sequence[np.ndarray],
    *,
    C: float = 1.0,
    max_features: int = 1000,
    min_df: int = 2,
    tfidf_weight: float = 1.0,
    meta: Mapping[str, Any] | None = None,
) -> Scorer:
    """Fit L2 logistic regression (balanced classes) on labelled histories (needs scikit-learn: the
    ``train`` extra; inference never does)."""
    if len(histories) != len(labels):
        raise LREInputError(f"labels must have one array per history: {len(labels)} != {len(histories)}")
    y = np.concatenate([np.asarray(lab, dtype=bool) for lab in labels]) if labels else np.zeros(0, bool)
    if len(np.unique(y)) < 2:
        raise LREInputError(f"labels must contain both classes, got {int(y.sum())} positives of {len(y)} units")
    try:
        from scipy import sparse
        from sklearn.linear_model import LogisticRegression
    except ImportError as exc:
        raise ImportError(f"fitting an LRE scorer needs scikit-learn: pip install 'tarl-memory[train]' ({exc})") from None
    vocab_list, idf = ([], np.zeros(0))
    if max_features > 0:
        vocab_list, idf = build_vocab((t for texts, _ in histories for t in texts), max_features=max_features, min_df=min_df)
    vocab = VocabIndex.build(vocab_list)
    dense, rows, cols, vals, offset = [], [], [], [], 0
    for (texts, kinds), lab in zip(histories, labels):
        if len(texts) != len(lab):
            raise LREInputError(f"labels length {len(lab)} != units {len(texts)}")
        fs = compute_features(texts, kinds, vocab=vocab, idf=idf if len(idf) else None)
        dense.append(fs.dense)
        rows.append(fs.tfidf_rows + offset)
        cols.append(fs.tfidf_cols)
        vals.append(fs.tfidf_vals * tfidf_weight)
        offset += fs.n
    X = np.vstack(dense)
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale = np.where(scale > 1e-9, scale, 1.0)
    Xs = sparse.csr_matrix((X - mean) / scale)
    T = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(offset, vocab.size))
    model = LogisticRegression(C=C, class_weight="balanced", max_iter=3000)
    model.fit(sparse.hstack([Xs, T]).tocsr(), y)
    f = len(FEATURE_NAMES)
    w = model.coef_[0]
    info = {"units": int(offset), "positives": int(y.sum()), "C": C, "tfidf_weight": tfidf_weight, **(meta or {})}
    return Scorer(
        coef=w[:f], intercept=float(model.intercept_[0]), mean=mean, scale=scale,
        vocab=vocab_list, idf=idf, tfidf_coef=w[f:] * tfidf_weight, meta=info,
    )


def fit_from_logs(
    transcripts: Iterable[Sequence[Any]],
    *,
    as_message: AsMessage | None = None,
    min_reuse: int = 3,
    threshold: float = 0.4,
    min_gap: int = 2,
    max_sources: int | None = 2,
    **fit_options: Any,
) -> Scorer:
    """Train a scorer from a user's own transcripts with self-supervised labels (:mod:`labels`).

    Each transcript is a message list in the format :func:`~shared_core.lre.trim.trim` accepts. Save
    the result with ``scorer.save(path)`` and pass ``Scorer.load(path)`` as ``trim(..., scorer=...)``.
    """
    histories: list[History] = []
    labels: list[np.ndarray] = []
    for messages in transcripts:
        units = units_from_messages(messages, as_message=as_message)
        histories.append(([u.text for u in units], [u.kind for u in units]))
        labels.append(self_labels(
            units, min_reuse=min_reuse, threshold=threshold, min_gap=min_gap, max_sources=max_sources
        ))
    meta = {"labels": "self-supervised (identifier reuse, answer coverage)", **fit_options.pop("meta", {})}
    return fit_texts(histories, labels, meta=meta, **fit_options)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m shared_core.lre.fit [--logs FILE.jsonl] [--out PATH]``.

    Without ``--logs``: re-create the shipped weights from generated data. With ``--logs``: train on
    your own transcripts (one JSON list of messages per line) and write the weights to ``--out``.
    """
    import json
    from pathlib import Path

    from shared_core.lre.synthetic import DEFAULT_SPEC, generate_corpus

    p = argparse.ArgumentParser(prog="python -m shared_core.lre.fit", description=main.__doc__)
    p.add_argument("--logs", type=Path, default=None, help="JSONL: one transcript (list of messages) per line")
    p.add_argument("--out", type=Path, default=None, help="weights file (default: the shipped one, without --logs)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.logs is not None:
        if args.out is None:
            p.error("--out is required with --logs (the shipped weights are trained on generated data only)")
        lines = [line for line in args.logs.read_text().splitlines() if line.strip()]
        logs = [json.loads(line) for line in lines]
        meta = {"trained_on": str(args.logs)}
    else:
        logs = generate_corpus(seed=args.seed, **DEFAULT_SPEC)
        meta = {"trained_on": f"shared_core.lre.synthetic.generate_corpus(seed={args.seed}, **DEFAULT_SPEC)",
                "licence": "generated by this project (Apache-2.0); no third-party data"}
    scorer = fit_from_logs(logs, **DEFAULT_FIT, meta=meta)
    out = args.out or DEFAULT_WEIGHTS
    scorer.save(out)
    print(f"wrote {out}: {scorer.meta}")
    return 0


DEFAULT_FIT: dict[str, Any] = {"C": 0.5, "max_features": 100, "min_df": 3}
"""Options of the shipped weights (kept small: the JSON stays a few KB)."""

if __name__ == "__main__":
    raise SystemExit(main())
