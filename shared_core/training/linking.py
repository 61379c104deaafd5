"""Fitting the linker (``shared_core.linking``) on slot-labelled episodes, in numpy.

Pairs: every slotted step of an episode against each open entry its free-text twin would be handed
(the engine's candidates on the gold state before the step); label 1 when the entry's gold slot is the
step's slot. Features read only the texts (the claim and entries as free text), never the gold slots.
Fitted on the hand-written training episodes (``bench/corpus/train``);
the threshold is chosen on the hand-written dev split (pair F1); the test split is never read here.

``python -m shared_core.training.linking`` fits, prints dev numbers and writes the shipped weights.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Sequence

import numpy as np

from .. import change, linking, slots
from ..bench.corpus import TRAIN, raw_episodes, to_episode
from ..bench.corpus import split as corpus_split
from ..bench.episodes import Episode, GoldStep, entry_id, gold_states
from ..bench.tarl_mem_examples import Vectors, candidates
from ..executor import MemoryState
from ..index.embedders import default_embedder

L2 = 1.0
"""Ridge penalty on the standardised weights: few features, few hundred positives; keep them tame."""


def slotted(episodes: Sequence[Episode]) -> Iterator[tuple[GoldStep, MemoryState]]:
    """Every step with a gold slot, with the gold state before it."""
    for ep in episodes:
        states = gold_states(ep)
        yield from ((s, states[i]) for i, s in enumerate(ep.steps) if s.claim.slot is not None)


def pairs(episodes: Sequence[Episode], vectors: Vectors) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for s, before in slotted(episodes):
        free = s.claim.model_copy(update={"slot": None, "many": None})
        near, _ = candidates(free, before, vectors)
        if near:
            xs.append(linking.matrix(free.text, slots.of(free.text), [(e.text, slots.of(e.text), c) for e, c in near]))
            ys.extend(float(e.slot == s.claim.slot) for e, _ in near)
    return (np.concatenate(xs) if xs else np.zeros((0, len(linking.NAMES)))), np.asarray(ys)


def change_pairs(episodes: Sequence[Episode], vectors: Vectors) -> tuple[np.ndarray, np.ndarray]:
    """(claim, entry of the same slot) pairs: label 0 for a restatement (gold noop on it), 1 for a gold
    revise / reject_conflict / defer_verify about it, and 1 for a further value of a multi-valued slot."""
    rows, ys = [], []
    for s, before in slotted(episodes):
        if s.target is not None:
            about, label = [before.entry(entry_id(s.target))], float(s.action.value != "noop")
        elif s.action.value == "append" and s.claim.many:
            about, label = [e for e in before.accepted if e.slot == s.claim.slot], 1.0
        else:
            continue
        for e in (e for e in about if e is not None):
            rows.append((s.claim.text, e.text, float(vectors([s.claim.text])[0] @ vectors([e.text])[0])))
            ys.append(label)
    return change.matrix(rows), np.asarray(ys)


def fit(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """L2-regularised logistic regression by Newton's method on standardised features."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    z = np.concatenate([(x - mean) / np.where(std > 1e-9, std, 1.0), np.ones((len(x), 1))], axis=1)
    w = np.zeros(z.shape[1])
    reg = np.full(z.shape[1], l2)
    reg[-1] = 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30, 30)))
        grad = z.T @ (p - y) + reg * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(reg + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1]), mean, std


def best_threshold(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The threshold with the best pair F1 (ties: the higher, to link less)."""
    best = (0.5, -1.0)
    for t in np.arange(0.2, 0.81, 0.025):
        pred = p >= t
        tp = float((pred & (y > 0)).sum())
        f1 = 2 * tp / max(1.0, pred.sum() + (y > 0).sum())
        if f1 >= best[1]:
            best = (float(round(t, 3)), f1)
    return best


def balanced_threshold(p: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The threshold with the best balanced accuracy (mean recall of changes and restatements)."""
    best = (0.5, -1.0)
    for t in np.arange(0.2, 0.81, 0.025):
        pred = p >= t
        acc = 0.5 * ((pred & (y > 0)).sum() / max(1, (y > 0).sum()) + (~pred & (y == 0)).sum() / max(1, (y == 0).sum()))
        if acc > best[1]:
            best = (float(round(t, 3)), float(acc))
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m shared_core.training.linking", description=__doc__)
    ap.add_argument("--no-save", action="store_true")
    ap.add_argument("--with-dev", action="store_true", help="fit on dev too (threshold still chosen on dev)")
    ap.add_argument("--models", default="link,change",
                    help="which weights to write: link, change or both (a refit that does not help dev is not shipped)")
    args = ap.parse_args(argv)
    write = set(args.models.split(","))
    if not write <= {"link", "change"}:
        ap.error(f"--models={args.models}: expected link, change or link,change")
    vectors = Vectors(default_embedder())
    parts = corpus_split.load()
    train_eps = [to_episode(r) for r in raw_episodes(TRAIN)] if TRAIN.exists() else []
    dev_eps = [to_episode(r) for r in parts["dev"]]
    xt, yt = pairs(train_eps + (dev_eps if args.with_dev else []), vectors)
    xd, yd = pairs(dev_eps, vectors)
    w, b, mean, std = fit(xt, yt)
    model = linking.PairModel(linking.NAMES, w, b, mean, std, 0.5, {})
    t, f1 = best_threshold(linking.gated(model, xd), yd)
    print(f"train pairs {len(yt)} (positives {int(yt.sum())}); dev pairs {len(yd)} (positives {int(yd.sum())})")
    print(f"dev pair F1 {f1:.3f} at threshold {t}")
    for name, wi in sorted(zip(linking.NAMES, w), key=lambda t: -abs(t[1])):
        print(f"  {name:<18} {wi:+.3f}")
    xc, yc = change_pairs(train_eps + (dev_eps if args.with_dev else []), vectors)
    xcd, ycd = change_pairs(dev_eps, vectors)
    cw, cb, cmean, cstd = fit(xc, yc)
    cmodel = linking.PairModel(change.NAMES, cw, cb, cmean, cstd, 0.5, {})
    ct, cacc = balanced_threshold(cmodel.probabilities(xcd), ycd)
    print(f"change: train pairs {len(yc)} (changes {int(yc.sum())}); dev pairs {len(ycd)}; dev balanced accuracy {cacc:.3f} at {ct}")
    for name, wi in sorted(zip(change.NAMES, cw), key=lambda t: -abs(t[1])):
        print(f"  {name:<18} {wi:+.3f}")
    if not args.no_save and "change" in write:
        linking.PairModel(change.NAMES, cw, cb, cmean, cstd, ct, {"train_pairs": int(len(yc)), "dev_balanced_accuracy": round(cacc, 4),
                                                                 "l2": L2}).save(change.WEIGHTS)
        change.default.cache_clear()
        print(f"wrote {change.WEIGHTS}")
    if not args.no_save and "link" in write:
        meta = {"train_pairs": int(len(yt)), "train_episodes": len(train_eps) + (len(dev_eps) if args.with_dev else 0),
                "dev_pair_f1": round(f1, 4), "l2": L2, "fitted_on": "hand-written train" + (" + dev" if args.with_dev else "")}
        linking.PairModel(linking.NAMES, w, b, mean, std, t, meta).save(linking.WEIGHTS)
        linking.default.cache_clear()
        print(f"wrote {linking.WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
