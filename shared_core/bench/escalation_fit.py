"""Fitting the doubt model (``doubt.Uncertainty``) to the shipped policy, on the dev split only.

The doubt model predicts when the base policy is wrong, so it is stale as soon as the policy, the
contract, linking or grounding change. ``tarl bench escalation --refit`` reruns this fit on what the
checkout ships and writes ``shared_core/policy/weights/doubt.json`` (weights, the threshold that sends
20% of dev, the dev scores' percentiles that seed a fresh ``ShareGate``), then measures the new file on
test. Choices are made on dev: top probability alone, a logistic model of every doubt term, and one with
crosses (:data:`MODELS`), by cross-validation grouped by episode (an episode's decisions share a state,
so a random split would leak), read on the dev decisions the policy was not trained on
(:func:`trained_on`). Why that part: ``tarl train`` fits the policy on two thirds of dev ten times
over, and a model of the errors it leaves there learns what a network fails to memorise, not where it
errs on new text. On the policy of 2026-12-01 the fitted models won on all of dev (mean accuracy kept
0.899 against 0.897 for top probability) and lost on the unseen third (0.834-0.835 against 0.848).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.stats import rankdata

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


def trained_on(episode: str) -> bool:
    """Whether ``tarl train`` trains the policy on this hand-written dev episode (two thirds of them, by a
    stable hash of the id); the other third only stops and calibrates its training. The doubt model is
    chosen on that third: its decisions, like test's, are ones the policy never fitted, and the errors a
    network leaves on what it trained on (ten times over) are not the errors it makes on new text."""
    return int(hashlib.sha1(episode.encode()).hexdigest(), 16) % 3 != 0


LEAD = "low_probability"
CROSSES = tuple((LEAD, t) for t in TERMS if t != LEAD)
"""The crosses a ``crosses`` model may weigh: the policy's doubt together with each other signal (the
same top probability means more doubt at a forced decision, with a Pending target, from an untrusted
source, ...)."""


def design(rows: Sequence[Scored], crosses: Sequence[tuple[str, str]] = ()) -> np.ndarray:
    x = np.asarray([r.terms for r in rows], float)
    pairs = [(TERMS.index(a), TERMS.index(b)) for a, b in crosses]
    return np.hstack([x, np.stack([x[:, i] * x[:, j] for i, j in pairs], 1)]) if pairs else x


def fit(rows: Sequence[Scored], crosses: Sequence[tuple[str, str]] = (), l2: float = 0.01,
        steps: int = 3000) -> Uncertainty:
    """Logistic regression of "the base is wrong" on the doubt terms and the products ``crosses``
    (gradient descent, L2)."""
    x, y = design(rows, crosses), np.asarray([not r.correct for r in rows], float)
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        w -= 0.5 * (x.T @ (p - y) / len(y) + l2 * w)
        b -= 0.5 * float(np.mean(p - y))
    k = len(TERMS)
    return Uncertainty(weights=tuple(round(float(v), 3) for v in w[:k]), bias=round(b, 3), seed=(),
                       crosses=tuple((a, c, round(float(v), 3)) for (a, c), v in zip(crosses, w[k:]) if round(float(v), 3)))


def threshold_for(rule: Uncertainty, dev: Sequence[Scored], share: float) -> float:
    """The score above which ``share`` of dev decisions escalate (1.0 never escalates)."""
    if share <= 0:
        return 1.0
    scores = np.sort([rule.p(r.terms) for r in dev])[::-1]
    return float(scores[min(len(scores) - 1, int(round(share * len(scores))) - 1)])


P_ONLY = Uncertainty((1.0,) + (0.0,) * (len(TERMS) - 1), 0.0, seed=(), crosses=())
"""The naive rule, for comparison: escalate the decisions with the lowest top probability."""
MODELS: dict[str, Callable[[Sequence[Scored]], Uncertainty]] = {
    "top_probability": lambda rows: P_ONLY,
    "doubt_terms": fit,
    "doubt_terms_crosses": lambda rows: fit(rows, CROSSES),
}
"""The model classes ``--refit`` chooses among, simplest first (a tie keeps the simpler)."""


def kept_accuracy(scored_pairs: Sequence[tuple[float, bool]], share: float) -> float:
    """Accuracy of the decisions kept when the ``share`` with the highest scores escalate; decisions
    tied with the last one escalated count in proportion (what a random order among them would keep),
    so a signal that takes few values is not flattered or punished by the order of the rows."""
    if not scored_pairs:
        return float("nan")
    score, right = np.asarray([s for s, _ in scored_pairs], float), np.asarray([c for _, c in scored_pairs], float)
    n, k = len(score), int(round(share * len(score)))
    if k >= n:
        return float("nan")
    cut = np.sort(score)[::-1][k - 1] if k else np.inf
    above, tied = score > cut, score == cut
    stay = (tied.sum() - (k - above.sum())) / tied.sum() if tied.any() else 0.0   # share of the tie kept
    return float((right[score < cut].sum() + stay * right[tied].sum()) / (n - k))


def auroc(scored_pairs: Sequence[tuple[float, bool]]) -> float:
    """How well the score ranks the wrong decisions above the right ones (0.5: no better than chance)."""
    score = np.asarray([s for s, _ in scored_pairs], float)
    wrong = np.asarray([not c for _, c in scored_pairs])
    n1, n0 = int(wrong.sum()), int((~wrong).sum())
    return float((rankdata(score)[wrong].sum() - n1 * (n1 + 1) / 2) / (n1 * n0)) if n1 and n0 else float("nan")


def held_out(dev: Sequence[Scored], make: Callable[[Sequence[Scored]], Uncertainty], folds: int = 5,
             seed: int = 0) -> list[tuple[float, bool]]:
    """Each dev decision's score from a model fitted on the other folds (folds by episode: an episode's
    decisions share a state, so a random split would leak), in ``dev``'s order."""
    episodes = sorted({r.example.episode for r in dev})
    fold = {e: i % folds for i, e in enumerate(random.Random(seed).sample(episodes, len(episodes)))}
    out: list[tuple[float, bool]] = [(0.0, True)] * len(dev)
    for k in range(folds):
        rule = make([r for r in dev if fold[r.example.episode] != k])
        for i, r in enumerate(dev):
            if fold[r.example.episode] == k:
                out[i] = (rule.p(r.terms), r.correct)
    return out


def cv_scores(dev: Sequence[Scored], seeds: int = 3) -> dict[str, dict[str, float]]:
    """Per model class, mean accuracy kept over the escalation shares and AUROC, on held-out folds (three
    fold draws averaged), over all of dev (``all``) and over the decisions the policy was not trained on
    (``unseen``, what the choice reads)."""
    unseen = [not trained_on(r.example.episode) for r in dev]
    out: dict[str, dict[str, float]] = {}
    for name, make in MODELS.items():
        runs = [held_out(dev, make, seed=s) for s in range(seeds)]
        for part, keep in (("all", [True] * len(dev)), ("unseen", unseen)):
            pairs = [[p for p, k in zip(run, keep) if k] for run in runs]
            out.setdefault(name, {})[f"kept_{part}"] = float(np.mean([kept_accuracy(q, s / 100) for q in pairs
                                                                       for s in SHARES if s]))
            out[name][f"auroc_{part}"] = float(np.mean([auroc(q) for q in pairs]))
    return out


def choose(dev: Sequence[Scored]) -> tuple[str, Uncertainty, dict[str, dict[str, float]]]:
    """The model class that keeps the more accurate decisions, on average over the escalation shares, on
    the dev decisions the policy was not trained on, each scored by a model fitted without its episode;
    then fitted on all of dev. Returns the CV scores too."""
    cv = cv_scores(dev)
    name = max(MODELS, key=lambda k: cv[k]["kept_unseen"])
    return name, MODELS[name](dev), cv


def signals(dev: Sequence[Scored]) -> dict[str, dict[str, float]]:
    """Each doubt term alone as the ranking (its higher values escalate first; ``auroc`` below 0.5 means
    the term marks right decisions): AUROC and accuracy kept at 5/10/20/30% on all of dev and on the
    decisions the policy was not trained on. No fitting, so no cross-validation is needed."""
    unseen = [not trained_on(r.example.episode) for r in dev]
    out = {}
    for i, term in enumerate(TERMS):
        row = {}
        for part, keep in (("all", [True] * len(dev)), ("unseen", unseen)):
            pairs = [(r.terms[i], r.correct) for r, k in zip(dev, keep) if k]
            row[f"auroc_{part}"] = auroc(pairs)
            row.update({f"kept_{s}_{part}": kept_accuracy(pairs, s / 100) for s in (5, 10, 20, 30)})
        out[term] = row
    return out


def percentiles(rule: Uncertainty, dev: Sequence[Scored]) -> tuple[float, ...]:
    """The 101 percentiles of the rule's scores on dev: what a fresh ``ShareGate`` ranks against."""
    return tuple(round(float(v), 4) for v in np.percentile([rule.p(r.terms) for r in dev], np.arange(101)))


def calibrated(rule: Uncertainty, dev: Sequence[Scored]) -> Uncertainty:
    """``rule`` with the threshold that sends 20% of dev and the dev percentiles as its gate's seed."""
    return Uncertainty(rule.weights, rule.bias, threshold_for(rule, dev, 0.2), percentiles(rule, dev), rule.crosses)


def refit(dev: Sequence[Scored], data: str, path: Path = WEIGHTS) -> tuple[Uncertainty, str, dict[str, dict[str, float]]]:
    """Choose and fit the rule on ``dev`` and write it to ``path`` (the shipped file by default)."""
    chosen, fitted, cv = choose(dev)
    rule = calibrated(fitted, dev)
    rule.save(path, command=REFIT_COMMAND, data=data, decisions=len(dev), chosen=chosen,
              criterion="mean accuracy kept over the shares on the dev decisions the policy was not trained on "
                        "(episode-grouped 5-fold CV, 3 fold draws)",
              cv={k: {m: round(v, 4) for m, v in row.items()} for k, row in cv.items()})
    return rule, chosen, cv
