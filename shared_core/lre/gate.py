"""Janus gates the refits of a scorer learned from own logs (arXiv 2606.31121 applied to LRE).

A refit from the user's latest sessions is a locally fitted, possibly overfitted memory update: the
kind of update Janus exists for. The scorer plays the role of the memory (one item: its JSON weights),
a session of recorded units the role of a task:

- phi(scorer) is its standardised feature-weight vector, so the momentum trigger fires when a refit
  turns the weights away from the direction recent refits have been moving in;
- a session is embedded as the mean of its standardised features (same dimension), which is what the
  coverage set clusters;
- the evaluator is the scorer's ROC-AUC on a session against that session's *self*-labels (identifier
  reuse, answer coverage): no gold answers enter this path either.

The project's :class:`~shared_core.janus.JanusController` does the rest unchanged (warm-up, hybrid
evaluation set of past sessions, ties to the candidate); this module only translates.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from shared_core.janus import JanusConfig, JanusController, JanusDecision, Trigger
from shared_core.lre.features import FEATURE_NAMES
from shared_core.lre.labels import LATER_GAP, self_labels
from shared_core.lre.scorer import Scorer
from shared_core.lre.units import Unit

if TYPE_CHECKING:
    from shared_core.lre.adaptive import AdaptiveScorer

SESSION_TAU = -1.0 / math.sqrt(len(FEATURE_NAMES))
"""The momentum threshold for scorer refits: compare only when a refit turns against the momentum by
more than chance. phi(scorer) has d = len(FEATURE_NAMES) dimensions, and the cosine of two unrelated
directions in d dimensions is spread about 0 with standard deviation 1/sqrt(d), so the paper's tau = 0
fires on about half of all refits whose direction is pure noise (refits from overlapping, growing logs
wander like that). tau = -1/sqrt(d) asks for a reversal one standard deviation beyond chance. A rule
from the dimension, not a value tuned on any conversation. Checked on the LoCoMo development
conversations replayed session by session (``tarl bench lre``, rows ``refit_*``): with identifier
reuse and answer coverage as the only self-labels, 43 of 115 refits were compared at tau = 0 and 24 at
this tau; with later references added, refits drift steadily (median cosine 0.45) and 5 of 146 are compared
at tau = 0, none at this tau; with the refits of :mod:`shared_core.lre.refit` (own vocabulary, two-word
later references), which do beat the shipped scorer on the next session, 5 of 145 at tau = 0 and 1 at
this tau (row ``refit_janus_tau0``). The final AUC was the same in every case."""

SESSION_CONFIG = JanusConfig(warmup=3, coverage=3, boundary=2, fresh=2, tau=SESSION_TAU)
"""The paper's defaults (20 warm-up tasks, 12 coverage, 5 fresh) assume thousands of tasks; a store
refits a few times a day, so the same proportions are scaled down to sessions; tau: :data:`SESSION_TAU`."""


@dataclass(frozen=True)
class Session:
    """Units ``start:`` of ``texts`` (earlier ones are context for the causal features), with labels.

    ``conversation`` names the conversation the session belongs to, and ``history_labels`` are the
    self-labels of all of ``texts`` when it was recorded: self-labels look ahead (a unit is load-bearing
    if something *later* uses it), so a session's own labels are nearly empty when it is recorded, and
    the gate re-reads them from the conversation's latest labels when it compares (see
    :meth:`JanusRefitGate.consider`)."""

    key: str
    texts: tuple[str, ...]
    kinds: tuple[str, ...]
    start: int
    labels: np.ndarray
    conversation: str = ""
    history_labels: np.ndarray | None = None

    @classmethod
    def from_units(cls, key: str, units: Sequence[Unit], start: int, labels: np.ndarray | None = None,
                   conversation: str = "") -> Session:
        lab = self_labels(units, later_gap=LATER_GAP) if labels is None else np.asarray(labels, dtype=bool)
        return cls(key, tuple(u.text for u in units), tuple(u.kind for u in units), start, lab[start:],
                   conversation, lab)


def session_auc(scorer: Scorer, session: Session, labels: np.ndarray | None = None) -> float:
    """ROC-AUC of ``scorer`` on the session's units (its self-labels unless ``labels`` given); 0.5 when
    the session has one class only (nothing to rank)."""
    from shared_core.lre.metrics import roc_auc

    y = session.labels if labels is None else labels
    if y.all() or not y.any():
        return 0.5
    fs = scorer.features(session.texts, session.kinds)
    return roc_auc(scorer.logits(fs)[session.start:], y)


def scorer_vector(scorer: Scorer) -> np.ndarray:
    """phi(scorer): its standardised feature weights (the TF-IDF part is shared with the shipped one)."""
    return np.asarray(scorer.coef, dtype=float)


class JanusRefitGate:
    """``gate=`` for :class:`~shared_core.lre.adaptive.AdaptiveScorer`: deploy a refit only when Janus
    says so. Each call is one Janus step whose task is the session recorded since the previous call."""

    def __init__(self, base: Scorer | None = None, *, config: JanusConfig = SESSION_CONFIG,
                 trigger: Trigger | None = None) -> None:
        self.base = base or Scorer.default()
        self._scorers: dict[str, Scorer] = {}
        self._vectors: dict[str, np.ndarray] = {}
        self._seen: dict[int, int] = {}
        self._latest: dict[str, np.ndarray] = {}
        self.decisions: list[JanusDecision] = []
        self.controller: JanusController[Session] = JanusController(
            lambda memory, task, feedback: memory, self._evaluate, self._embed, config=config,
            memory=(self._item(self.base),), trigger=trigger, task_text=lambda s: s.key)

    def __call__(self, current: Scorer, candidate: Scorer, recorder: AdaptiveScorer | None = None) -> bool:
        if recorder is None:
            raise ValueError("recorder: JanusRefitGate needs the AdaptiveScorer whose sessions it compares on")
        return self.consider(self.latest_session(recorder), candidate).accepted

    def consider(self, session: Session, candidate: Scorer) -> JanusDecision:
        """One Janus step: ``session`` is the task, ``candidate`` the proposed scorer. Its conversation's
        labels so far replace the labels of that conversation's earlier sessions in comparisons."""
        if session.conversation and session.history_labels is not None:
            self._latest[session.conversation] = session.history_labels
        self._vectors[session.key] = self._session_vector(session)
        decision = self.controller.consider(session, (self._item(candidate),))
        self.decisions.append(decision)
        return decision

    @property
    def scorer(self) -> Scorer:
        """The scorer Janus has deployed."""
        return self._scorers[self.controller.memory[0]]

    def latest_session(self, recorder: AdaptiveScorer) -> Session:
        """The units the recorder saw since the previous step (the longest new stretch of one
        conversation), with self-labels computed on its whole conversation."""
        histories = recorder.histories()
        best = max(range(len(histories)), key=lambda i: len(histories[i]) - self._seen.get(i, 0))
        start = min(self._seen.get(best, 0), max(len(histories[best]) - 1, 0))
        self._seen[best] = len(histories[best])
        return Session.from_units(f"session:{len(self.decisions)}", histories[best], start,
                                  conversation=str(recorder.conversation_ids()[best]))

    # ---- what the controller calls ----------------------------------------------------------------
    def _item(self, scorer: Scorer) -> str:
        item = json.dumps(scorer.to_dict(digits=8), sort_keys=True)
        self._scorers[item] = scorer
        self._vectors[item] = scorer_vector(scorer)
        return item

    def _session_vector(self, session: Session) -> np.ndarray:
        fs = self.base.features(session.texts, session.kinds)
        x = (fs.dense[session.start:] - self.base.mean) / self.base.scale
        return x.mean(axis=0) if len(x) else np.zeros(len(self.base.coef))

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.stack([self._vectors[t] for t in texts])

    def _evaluate(self, memory: Any, session: Session) -> float:
        latest = self._latest.get(session.conversation) if session.conversation else None
        end = session.start + len(session.labels)
        labels = latest[session.start:end] if latest is not None and len(latest) >= end else None
        return session_auc(self._scorers[memory[0]], session, labels)
