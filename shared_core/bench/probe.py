"""Label-leak report for decision data: how much of the gold label the content-free probe recovers.

The probe (``tarl_mem_baselines.ContentFreeProbe``: a depth-8 tree on six features that read no word of
the claim) is fitted on the generated train split. If it scores well on a data set, that set's labels
can be read from metadata, and a policy trained on it learns the metadata rather than the language.
``python -m shared_core.bench.probe`` prints the generated splits' class balance and the probe's
macro-F1 on the generated test split and on the hand-written corpus's frozen test split (free text and
slotted). scikit-learn is needed (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from .tarl_mem_baselines import ACTIONS, ContentFreeProbe
from .tarl_mem_metrics import macro_f1


def fitted(train: Sequence[Any], seed: int = 0) -> ContentFreeProbe:
    """The probe fitted on the scored ``tarl_mem_examples.Example`` records of ``train``."""
    scored = [e for e in train if e.scored]
    return ContentFreeProbe(np.stack([e.x for e in scored]), np.asarray([e.label for e in scored]), seed)


def probe_macro_f1(train: Sequence[Any], test: Sequence[Any], seed: int = 0) -> float:
    """Teacher-forced macro-F1 of the probe's raw tree prediction on ``test`` (no feasibility mask: what
    the metadata alone says about the label)."""
    probe = fitted(train, seed)
    scored = [e for e in test if e.scored]
    pred = probe.tree.predict(np.stack([e.x for e in scored])[:, probe.columns])
    return macro_f1([ACTIONS[e.label] for e in scored], [ACTIONS[int(p)] for p in pred])


def main(argv: Sequence[str] | None = None) -> int:
    from ..index import default_embedder
    from .corpus import split as corpus_split
    from .corpus import raw_episodes, to_episode
    from .episodes import generate
    from .tarl_mem_examples import Vectors, examples

    p = argparse.ArgumentParser(prog="python -m shared_core.bench.probe", description=__doc__)
    p.add_argument("--episodes", type=int, default=1500)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    vectors = Vectors(default_embedder())
    eps = generate(args.episodes, args.seed)
    split = {s: examples([e for e in eps if e.split == s], vectors) for s in ("train", "test")}
    for name, ex in split.items():
        counts = Counter(ACTIONS[e.label] for e in ex if e.scored)
        total = sum(counts.values())
        print(f"generated {name}: {total} decisions; " + ", ".join(f"{a} {counts[a] / total:.3f}" for a in ACTIONS))
    print(f"probe macro_f1 generated test: {probe_macro_f1(split['train'], split['test'], args.seed):.3f}")
    try:
        raws, part = corpus_split.load()["test"], "test"
    except (FileNotFoundError, ValueError) as e:   # no frozen split (yet): every episode, and say so
        raws, part = raw_episodes(), "all episodes"
        print(f"hand-written corpus: {e}; reporting on all episodes")
    for slots in (False, True):
        hand = examples([to_episode(r, slots=slots) for r in raws], vectors)
        print(f"probe macro_f1 hand-written {part} ({'slot' if slots else 'free'}, {len(raws)} episodes, "
              f"{sum(e.scored for e in hand)} decisions): {probe_macro_f1(split['train'], hand, args.seed):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
