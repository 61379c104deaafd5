"""Two temperatures, fitted by rollout on hand-written episodes the networks never trained on.

Why not the training dev batch (``train.fit_temperature``): that batch mixes generated decisions with
hand-written ones the networks partly trained on, and scores each decision against the gold state, so it
calibrates a policy that never sees its own mistakes. Measured on unseen hand-written episodes in rollout
(the benchmark's ECE), one temperature cannot serve both inputs: free text wants a flatter distribution,
claims with a slot a sharper one. So the shipped weights carry ``temperature`` (free text) and
``temperature_slotted``, each the grid value with the lowest rollout ECE on the held-out episodes. A
temperature rescales the scores before the argmax, so no decision changes; only the reported confidence
(and what the escalation gate reads of it) does.

Then, for slotted claims only, a map of the confidence the contract leaves (``confidence_map``,
``ScorerWeights.confidence_slotted``): fitted on the same episodes with the temperatures in place. Free
text keeps its temperature alone: a map fitted on f, g and h lowered the rollout ECE on j and raised it on
i, while for slotted claims it lowered both (0.116 -> 0.082, 0.092 -> 0.047).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..bench.corpus import RawEpisode, to_episode
from ..bench.tarl_mem_examples import Vectors
from ..bench.tarl_mem_rollout import metrics, rollout
from ..policy.learned import LearnedPolicy
from ..policy.model import ScorerWeights
from .linking import fit

GRID = tuple(float(t) for t in np.round(np.arange(0.6, 2.01, 0.1), 2))
"""Temperatures tried (the shipped refit's grid)."""


def _rollout(weights: ScorerWeights, raws: Sequence[RawEpisode], vectors: Vectors, *, slots: bool) -> list:
    return rollout("learned", LearnedPolicy(weights), [to_episode(r, slots=slots) for r in raws], vectors)


def rollout_ece(weights: ScorerWeights, raws: Sequence[RawEpisode], vectors: Vectors, *, slots: bool) -> float:
    """ECE of the executed actions' probabilities when ``weights`` decide ``raws`` on their own (rollout)."""
    return float(metrics(_rollout(weights, raws, vectors, slots=slots))["ece"])


def temperatures(weights: ScorerWeights, raws: Sequence[RawEpisode], vectors: Vectors,
                 grid: Sequence[float] = GRID) -> tuple[ScorerWeights, str]:
    """``weights`` with both temperatures refitted on ``raws`` (lowest rollout ECE; ties: the first on the
    grid), and a one-line account for the weights' metadata."""
    found = {}
    for slots in (False, True):
        scan = [(round(rollout_ece(replace(weights, temperature=t, temperature_slotted=t), raws, vectors, slots=slots), 4), t)
                for t in grid]
        found[slots] = min(scan)
    (free_ece, free_t), (slot_ece, slot_t) = found[False], found[True]
    steps = sum(len(r.steps) for r in raws)
    note = (f"free text {weights.temperature:.4f} -> {free_t}, slotted claims -> {slot_t} (grid {grid[0]}-{grid[-1]}), "
            f"each the lowest rollout ECE ({free_ece} / {slot_ece}) on {len(raws)} hand-written episodes ({steps} steps) "
            f"the networks never trained on")
    return replace(weights, temperature=free_t, temperature_slotted=slot_t,
                   meta={**weights.meta, "temperature_refit": note}), note


def confidence_map(weights: ScorerWeights, raws: Sequence[RawEpisode], vectors: Vectors) -> tuple[ScorerWeights, str]:
    """``weights`` with ``confidence_slotted`` fitted on ``raws`` (slotted, rollout): the logistic regression
    of "the executed action was right" on the logit of its reported probability (Platt scaling, with the
    linker's unregularised Newton fit), and a one-line account for the weights' metadata."""
    steps = _rollout(replace(weights, confidence_slotted=None), raws, vectors, slots=True)
    p = np.clip([s.confidence for s in steps], 1e-6, 1 - 1e-6)
    y = np.asarray([s.gold == s.pred for s in steps], dtype=np.float64)
    w, b, mean, std = fit(np.log(p / (1 - p))[:, None], y, l2=0.0)     # on the standardised logit: undo it
    a = float(w[0] / std[0]) if std[0] > 1e-9 else 0.0
    ab = (a, float(b) - a * float(mean[0]))
    mapped = replace(weights, confidence_slotted=(round(ab[0], 4), round(ab[1], 4)))
    note = (f"slotted confidence sigmoid({ab[0]:.4f} * logit(p) + {ab[1]:.4f}) on {len(raws)} hand-written episodes "
            f"({len(steps)} slotted decisions): rollout ECE {metrics(steps)['ece']:.4f} -> "
            f"{rollout_ece(mapped, raws, vectors, slots=True):.4f}")
    return replace(mapped, meta={**weights.meta, "confidence_refit": note}), note
