"""Fitting the doubt model (``doubt.Uncertainty``) to the shipped policy, on the dev split only.

The doubt model predicts when the base policy is wrong, so it is stale as soon as the policy, the
contract, linking or grounding change. ``tarl bench escalation --refit`` reruns this fit on what the
checkout ships and writes ``shared_core/policy/weights/doubt.json`` (weights, the threshold that sends
20% of dev, the dev scores' percentiles that seed a fresh ``ShareGate``), then measures the new file on
test. Choices are made on dev: the fitted model against top probability alone, by cross-validation
grouped by episode (an episode's decisions share a state, so a random split would leak).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..doubt import TERMS, WEIGHTS, Uncertainty, doubt_terms
from ..index import default_embedder
from ..policy import Policy
from ..policy.contract import enforce
from ..schema import Decision
from . import tarl_mem_metrics as m
from .corpus import HERE, RawEpisode, raw_episodes, to_episode
from .corpus import split as corpus_split
from .tarl_mem_examples import Example, Vectors, examples

SHARES = (0, 5, 10, 20, 30, 50)
ACTIONS = m.ACTIONS
REFIT_COMMAND = "tarl bench escalation --refit"


def dev_test(folder: Path = HERE) -> tuple[dict[str, list[RawEpisode]], str]:
    """The corpus's frozen dev/test split (``corpus.split``); while none is frozen, the same rule drawn
    now (``corpus.split.draw``, what freezing writes), said so in the report."""
    try:
        return corpus_split.load(folder), "frozen split"
    except FileNotFoundError:
        drawn = corpus_split.draw(raw_episodes(folder))
        by_id = {r.id: r for r in raw_episodes(folder)}
        return {part: [by_id[i] for i in ids] for part, ids in drawn.items()}, "split drawn by corpus.split.draw (not frozen yet)"


@dataclass
class Scored:
    example: Example
    base: Decision
    proposed: Decision
    terms: tuple[float, ...]

    @property
    def gold(self) -> str:
        return ACTIONS[self.example.label]

    @property
    def correct(self) -> bool:
        return self.base.action.value == self.gold


def shipped(policy: Policy, e: Example) -> Decision:
    """The decision as ``decision.decide`` makes it on the example's grounding: the policy's, then the
    labelling contract (a judge's validated answer is exempt; pending resolution is not modelled)."""
    d = policy.decide(e.claim, e.grounding, e.comparison)
    return d if d.decided_by == "judge" else enforce(d, e.grounding)


def scored(policy: Policy, exs: Sequence[Example]) -> list[Scored]:
    out = []
    for e in exs:
        if e.scored:
            proposed = policy.decide(e.claim, e.grounding, e.comparison)
            d = enforce(proposed, e.grounding)
            out.append(Scored(e, d, proposed, doubt_terms(e.claim, d, e.grounding, proposed)))
    return out


def decision_rows(parts: dict[str, list[RawEpisode]], policy: Policy) -> dict[tuple[str, str], list[Scored]]:
    """Every scored decision of each part, as free text and with slots: ``{(variant, part): rows}``."""
    vectors = Vectors(default_embedder())
    return {(variant, part): scored(policy, examples([to_episode(r, slots=slots, split=part) for r in raws], vectors))
            for variant, slots in (("free", False), ("slot", True)) for part, raws in parts.items()}


def fit(rows: Sequence[Scored], l2: float = 0.01, steps: int = 3000) -> Uncertainty:
    """Logistic regression of "the base is wrong" on the doubt terms (gradient descent, L2)."""
    x = np.asarray([r.terms for r in rows], float)
    y = np.asarray([not r.correct for r in rows], float)
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= 0.5 * (x.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float(np.mean(p - y))
    return Uncertainty(weights=tuple(round(float(v), 3) for v in w), bias=round(b, 3), seed=())


def threshold_for(rule: Uncertainty, dev: Sequence[Scored], share: float) -> float:
    """The score above which ``share`` of dev decisions escalate (1.0 never escalates)."""
    if share <= 0:
        return 1.0
    scores = np.sort([rule.p(r.terms) for r in dev])[::-1]
    return float(scores[min(len(scores) - 1, int(round(share * len(scores))) - 1)])


P_ONLY = Uncertainty((1.0,) + (0.0,) * (len(TERMS) - 1), 0.0, seed=())
"""The naive rule, for comparison: escalate the decisions with the lowest top probability."""


def kept_accuracy(scored_pairs: Sequence[tuple[float, bool]], share: float) -> float:
    """Accuracy of the decisions kept when the ``share`` with the highest scores escalate."""
    order = sorted(scored_pairs, key=lambda t: -t[0])
    kept = order[int(round(share * len(order))):]
    return float(np.mean([c for _, c in kept])) if kept else float("nan")


def choose(dev: Sequence[Scored], folds: int = 5) -> tuple[str, Uncertainty, dict[str, float]]:
    """The rule chosen on dev: the fitted doubt model or top probability alone, whichever keeps the
    more accurate decisions on average over the escalation shares, the fitted model scored on
    episodes it was not fitted on (cross-validation grouped by episode). Returns the CV scores too."""
    episodes = sorted({r.example.episode for r in dev})
    fold = {e: i % folds for i, e in enumerate(random.Random(0).sample(episodes, len(episodes)))}
    held: list[tuple[float, bool]] = []
    for k in range(folds):
        rule = fit([r for r in dev if fold[r.example.episode] != k])
        held += [(rule.p(r.terms), r.correct) for r in dev if fold[r.example.episode] == k]
    naive = [(P_ONLY.p(r.terms), r.correct) for r in dev]
    score = {name: float(np.mean([kept_accuracy(pairs, s / 100) for s in SHARES if s]))
             for name, pairs in (("doubt_terms", held), ("top_probability", naive))}
    name = max(score, key=score.__getitem__)
    return name, fit(dev) if name == "doubt_terms" else P_ONLY, score


def percentiles(rule: Uncertainty, dev: Sequence[Scored]) -> tuple[float, ...]:
    """The 101 percentiles of the rule's scores on dev: what a fresh ``ShareGate`` ranks against."""
    return tuple(round(float(v), 4) for v in np.percentile([rule.p(r.terms) for r in dev], np.arange(101)))


def calibrated(rule: Uncertainty, dev: Sequence[Scored]) -> Uncertainty:
    """``rule`` with the threshold that sends 20% of dev and the dev percentiles as its gate's seed."""
    return Uncertainty(rule.weights, rule.bias, threshold_for(rule, dev, 0.2), percentiles(rule, dev))


def refit(dev: Sequence[Scored], data: str, path: Path = WEIGHTS) -> tuple[Uncertainty, str, dict[str, float]]:
    """Choose and fit the rule on ``dev`` and write it to ``path`` (the shipped file by default)."""
    chosen, fitted, cv = choose(dev)
    rule = calibrated(fitted, dev)
    rule.save(path, command=REFIT_COMMAND, data=data, decisions=len(dev), chosen=chosen,
              cv_mean_kept_accuracy={k: round(v, 4) for k, v in cv.items()})
    return rule, chosen, cv
