"""Fitting the remark model (``shared_core.chitchat``) on the hand-written episodes, in numpy.

Examples: every scored step, free text; label 1 for chit-chat (gold ``noop`` with no target). Fitted on
the training episodes (``bench/corpus/train``) only; the threshold is chosen on the dev split by F0.5
(precision counts twice: a real fact taken for a remark is dropped), with a margin (``MARGIN``); the test split is never read.

``python -m shared_core.training.chitchat`` fits, prints dev numbers and writes the shipped weights.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import numpy as np

from .. import chitchat
from ..bench.corpus import TRAIN, raw_episodes, to_episode
from ..bench.corpus import split as corpus_split
from ..bench.corpus import RawEpisode
from ..linking import PairModel
from .linking import fit


def examples(raws: Sequence[RawEpisode]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for raw in raws:
        for s in to_episode(raw, slots=False).steps:
            if s.scored:
                xs.append(chitchat.features(s.claim.text, s.claim.source))
                ys.append(float(s.action.value == "noop" and s.target is None))
    return np.asarray(xs), np.asarray(ys)


MARGIN = 0.05
"""The shipped threshold is the highest within this much of the best dev F0.5: with a few dozen remarks
to fit on, the margin is for text nobody here has seen ("we got a puppy lol" is a fact)."""


def f_half(p: np.ndarray, y: np.ndarray) -> tuple[float, float, int, int]:
    """(threshold, F0.5, true positives, false positives) on dev: the highest threshold whose F0.5 is
    within ``MARGIN`` of the best."""
    rows = []
    for t in np.arange(0.3, 0.951, 0.025):
        pred = p >= t
        tp, fp = int((pred & (y > 0)).sum()), int((pred & (y == 0)).sum())
        prec, rec = tp / max(1, tp + fp), tp / max(1, int(y.sum()))
        rows.append((float(round(t, 3)), 1.25 * prec * rec / max(1e-9, 0.25 * prec + rec), tp, fp))
    best = max(r[1] for r in rows)
    return max(r for r in rows if r[1] >= best - MARGIN)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m shared_core.training.chitchat", description=__doc__)
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args(argv)
    xt, yt = examples(raw_episodes(TRAIN))
    xd, yd = examples(corpus_split.load()["dev"])
    w, b, mean, std = fit(xt, yt)
    model = PairModel(chitchat.NAMES, w, b, mean, std, 0.5, {})
    t, score, tp, fp = f_half(model.probabilities(xd), yd)
    print(f"train steps {len(yt)} (remarks {int(yt.sum())}); dev steps {len(yd)} (remarks {int(yd.sum())})")
    print(f"dev F0.5 {score:.3f} at threshold {t}: {tp} remarks found, {fp} other steps taken for remarks")
    for name, wi in sorted(zip(chitchat.NAMES, w), key=lambda t: -abs(t[1])):
        print(f"  {name:<18} {wi:+.3f}")
    if not args.no_save:
        PairModel(chitchat.NAMES, w, b, mean, std, t, {"train_steps": int(len(yt)), "dev_f05": round(score, 4),
                                                       "fitted_on": "hand-written train"}).save(chitchat.WEIGHTS)
        chitchat.default.cache_clear()
        print(f"wrote {chitchat.WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
