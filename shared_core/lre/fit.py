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
from shared_core.lre.textarray import SEP, from_texts, lower
from shared_core.lre.units import AsMessage, LREInputError, units_from_messages

History = tuple[Sequence[str], Sequence[str] | None]
"""One history for training: unit texts in order, and unit kinds (or None for plain turns)."""


def build_vocab(texts: Iterable[str], *, max_features: int, min_df: int) -> tuple[list[str], np.ndarray]:
    """Most frequent content words (document frequency ≥ ``min_df``) and their smoothed idf."""
    texts = list(texts)
    df: Counter[str] = Counter()
    n = len(texts)
    if n:  # one pass over the joined history (a refit from own logs builds a vocabulary every time)
        ta = from_texts(texts)
        low = lower(SEP.join(texts) + SEP)
        words = [low[a:b] for a, b in zip(ta.starts.tolist(), ta.ends.tolist())]
        bounds = ta.words_before.tolist()
        for a, b in zip(bounds[:-1], bounds[1:]):
            df.update({w for w in words[a:b] if w not in lexicon.STOP_WORDS})
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


def default_training_set(seed: int = 0) -> tuple[list[History], list[np.ndarray]]:
    """What the shipped weights are fit on: generated data only (no third-party data, see README).

    Multi-session conversations between two friends (:mod:`shared_core.lre.dialogue`) with the
    generator's own fact labels, plus tool-using agent traces (:mod:`shared_core.lre.synthetic`) with
    the self-supervised labels. The recipe (these data, :data:`DEFAULT_FIT`) was chosen on the LoCoMo
    development conversations, which are never trained on (``tarl bench lre`` reports it there).
    """
    from shared_core.lre.dialogue import dialogues
    from shared_core.lre.synthetic import generate_corpus

    spec = DEFAULT_SPEC
    talks = dialogues(seed=seed, n=spec["dialogues"])
    histories: list[History] = [(d.texts, None) for d in talks]
    labels = [np.asarray(d.gold, dtype=bool) for d in talks]
    for messages in generate_corpus(seed=seed, chats=0, traces=spec["traces"], noise_steps=spec["noise_steps"]):
        units = units_from_messages(messages)
        histories.append(([u.text for u in units], [u.kind for u in units]))
        labels.append(self_labels(units))
    return histories, labels


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m shared_core.lre.fit [--logs FILE.jsonl] [--out PATH]``.

    Without ``--logs``: re-create the shipped weights from generated data. With ``--logs``: train on
    your own transcripts (one JSON list of messages per line) and write the weights to ``--out``.
    """
    import json
    from pathlib import Path

    p = argparse.ArgumentParser(prog="python -m shared_core.lre.fit", description=main.__doc__)
    p.add_argument("--logs", type=Path, default=None, help="JSONL: one transcript (list of messages) per line")
    p.add_argument("--out", type=Path, default=None, help="weights file (default: the shipped one, without --logs)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.logs is not None:
        if args.out is None:
            p.error("--out is required with --logs (the shipped weights are trained on generated data only)")
        lines = [line for line in args.logs.read_text().splitlines() if line.strip()]
        scorer = fit_from_logs([json.loads(line) for line in lines], **DEFAULT_FIT,
                               meta={"trained_on": str(args.logs)})
    else:
        histories, labels = default_training_set(args.seed)
        meta = {"trained_on": f"shared_core.lre.fit.default_training_set(seed={args.seed}): "
                              f"generated dialogues (gold fact labels) and agent traces (self-labels), {DEFAULT_SPEC}",
                "licence": "generated by this project (Apache-2.0); no third-party data"}
        scorer = with_budget_prior(fit_texts(histories, labels, **DEFAULT_FIT, meta=meta), BUDGET_PRIOR)
    out = args.out or DEFAULT_WEIGHTS
    scorer.save(out)
    print(f"wrote {out}: {scorer.meta}")
    return 0


DEFAULT_FIT: dict[str, Any] = {"C": 0.01, "max_features": 300, "min_df": 3}
"""Options of the shipped weights (strong regularisation: generated data are cleaner than real talk)."""

BUDGET_PRIOR = -4.0
"""Added to the shipped scorer's intercept. Balanced class weights centre the probabilities on 0.5,
which makes the knapsack (maximise the summed probability per token) favour short units; a lower
prior makes the probability grow like exp(logit), so the budget goes to the units ranked clearly
higher. Chosen on the LoCoMo development conversations (share of evidence kept at 512-2,048 tokens:
-2, -4, -6, -8 tried; -4 best). It applies to conversation turns only: tool-call units keep the
training prior, because on agent traces the same shift cost identifier retention (the ranking within
turns, and within tool calls, does not change)."""


def with_budget_prior(scorer: Scorer, shift: float) -> Scorer:
    """``shift`` added to the logit of every unit except tool calls (see :data:`BUDGET_PRIOR`)."""
    d = scorer.to_dict(digits=8)
    j = FEATURE_NAMES.index("is_tool_call")
    coef = list(d["coef"])
    coef[j] = float(scorer.coef[j] - shift * scorer.scale[j])  # raw weight -shift on the 0/1 feature ...
    d["coef"] = coef
    d["intercept"] = scorer.intercept + shift - shift * float(scorer.mean[j])  # ... in standardised form
    d["meta"] = {**scorer.meta, "budget_prior": shift, "budget_prior_applies_to": "turns (not tool calls)"}
    return Scorer.from_dict(d)


DEFAULT_SPEC: dict[str, int] = {"dialogues": 60, "traces": 40, "noise_steps": 40}
"""How much generated data the shipped weights see (more dialogues did not score better on LoCoMo dev)."""

if __name__ == "__main__":
    raise SystemExit(main())
