"""Learning eviction from the user's own logs (opt-in): record, self-label, refit, version, roll back.

A refit keeps the shipped scorer and moves only as far as the logs support: the user's own vocabulary
(no labels needed) plus a penalised correction learned from the self-labels, see
:mod:`shared_core.lre.refit`. The result is an ordinary :class:`Scorer` (same JSON format).

:class:`AdaptiveScorer` is a unit scorer that adapters accept as ``scorer=`` unchanged
(``LRETrimMiddleware(scorer=...)``, ``TarlMemory(scorer=...)``): every history it scores is recorded
(a conversation is recognised by its prefix), every ``refit_every`` new units a refit is proposed, and
until ``min_positives`` self-labelled units exist it scores with the shipped scorer. Versions are kept
beside the ledger (``<ledger>.lre/``); :meth:`AdaptiveScorer.rollback` returns to the previous one. No
gold answers enter this path: labels come from the logs alone. An optional ``gate`` (for instance
:class:`shared_core.lre.gate.JanusRefitGate`) decides whether a proposed refit is deployed.

Costs to know: ``log.jsonl`` holds the raw text of every recorded unit (it is the user's own traffic,
kept next to their ledger); a scheduled refit runs inside the trim call that crosses ``refit_every``
and featurises and fits everything recorded (about 0.4 s of CPU for 3,000 units), so call
:meth:`refit` yourself off the hot path and set ``refit_every`` high if that matters.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from shared_core.lre.features import EMPTY_STATE, PrefixState
from shared_core.lre.labels import LATER_GAP, self_labels
from shared_core.lre.refit import L2, fit_correction
from shared_core.lre.scorer import Scorer
from shared_core.lre.units import LREInputError, Unit


@dataclass
class _Conversation:
    id: int
    units: list[tuple[str, str, str]]  # (role, kind, text)
    scores: np.ndarray
    state: PrefixState
    version: int


Gate = Callable[[Scorer, Scorer, "AdaptiveScorer"], bool]
"""(current, candidate, recorder) -> deploy the candidate?"""


class AdaptiveScorer:
    """A per-store scorer that learns from the conversations it scores (see the module docstring).

    >>> scorer = AdaptiveScorer.beside("store.db")          # doctest: +SKIP
    >>> middleware = LRETrimMiddleware(budget=2048, scorer=scorer)  # doctest: +SKIP
    >>> scorer.version, scorer.rollback()                   # doctest: +SKIP
    """

    def __init__(self, directory: str | Path | None = None, *, base: Scorer | None = None,
                 refit_every: int = 200, min_positives: int = 30, l2: float = L2, later_gap: int | None = LATER_GAP,
                 gate: Gate | None = None, max_conversations: int = 1000) -> None:
        for name, value in (("refit_every", refit_every), ("min_positives", min_positives),
                            ("max_conversations", max_conversations)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise LREInputError(f"{name} must be a positive int, got {value!r}")
        if later_gap is not None and (isinstance(later_gap, bool) or not isinstance(later_gap, int) or later_gap < 1):
            raise LREInputError(f"later_gap must be a positive int or None, got {later_gap!r}")
        if not isinstance(l2, (int, float)) or l2 <= 0:
            raise LREInputError(f"l2 must be a positive number, got {l2!r}")
        self.base = base or Scorer.default()
        self.refit_every, self.min_positives, self.l2, self.gate = refit_every, min_positives, float(l2), gate
        self.later_gap = later_gap
        self.max_conversations = max_conversations
        self.directory = Path(directory) if directory is not None else None
        self._lock = threading.RLock()
        self._conversations: list[_Conversation] = []
        self._new_units = 0
        self._next_id = 0
        self._versions: list[int] = []  # deployed versions, oldest first; empty: the shipped scorer
        self._latest = 0
        self._scorers: dict[int, Scorer] = {}
        if self.directory is not None:
            self._load()

    @classmethod
    def beside(cls, ledger_path: str | Path, **options: Any) -> AdaptiveScorer:
        """The scorer kept next to a ledger file: ``<ledger_path>.lre/``."""
        return cls(Path(f"{ledger_path}.lre"), **options)

    # ---- state ---------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        """Deployed version; 0 is the shipped scorer (too few labels yet, or rolled back)."""
        return self._versions[-1] if self._versions else 0

    @property
    def scorer(self) -> Scorer:
        return self._scorers[self.version] if self._versions else self.base

    def histories(self) -> list[list[Unit]]:
        """The recorded conversations as units (what a refit learns from)."""
        return [[Unit(i, i + 1, role, text, 0, kind) for i, (role, kind, text) in enumerate(c.units)]  # type: ignore[arg-type]
                for c in self._conversations]

    def conversation_ids(self) -> list[int]:
        """Stable ids of the recorded conversations, in the order of :meth:`histories`."""
        return [c.id for c in self._conversations]

    def labels(self) -> list[np.ndarray]:
        """Self-labels of every recorded conversation (identifier reuse, answer coverage, and later
        references unless ``later_gap=None``: see :mod:`shared_core.lre.labels`)."""
        return [self_labels(units, later_gap=self.later_gap) for units in self.histories()]

    # ---- scoring and recording -------------------------------------------------------------------
    def observe(self, units: Sequence[Unit]) -> None:
        """Record a history without scoring it (``select_units`` calls this on every trim, also when
        everything fits and nothing needs scoring, so the logs hold whole conversations)."""
        with self._lock:
            self._record([(u.role, u.kind, u.text) for u in units])

    def score_units(self, units: Sequence[Unit]) -> np.ndarray:
        """Scores with the deployed scorer; records the history and refits when one is due."""
        with self._lock:
            keys = [(u.role, u.kind, u.text) for u in units]
            conv = self._record(keys)
            scorer, version = self.scorer, self.version
            if conv.version != version:  # a new scorer: cached scores are stale
                conv.scores, conv.state, conv.version = np.zeros(0), EMPTY_STATE, version
            m = len(conv.scores)
            if m < len(keys):
                fs = scorer.features([t for _, _, t in keys[m:]], [k for _, k, _ in keys[m:]], state=conv.state)
                z = scorer.logits(fs)
                conv.scores = np.r_[conv.scores, 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))]
                conv.state = fs.state if fs.state is not None else conv.state
            return conv.scores[: len(keys)].copy()

    def _record(self, keys: list[tuple[str, str, str]]) -> _Conversation:
        conv = self._match(keys)
        start = len(conv.units)
        if start and start <= len(keys) and conv.units[-1] != keys[start - 1]:
            start -= 1  # the last unit grew (a tool result joined its call): replace it, rescore
            del conv.units[start:]
            conv.scores, conv.state = np.zeros(0), EMPTY_STATE
        added = keys[start:]
        if added:
            self._append_log(conv.id, start, added)
            conv.units.extend(added)
            self._new_units += len(added)
        if self._new_units >= self.refit_every:
            self.refit()
        return conv

    def _match(self, keys: list[tuple[str, str, str]]) -> _Conversation:
        """The recorded conversation this history continues (equal up to the shorter one, except that
        the recorded last unit may since have grown), else a new one."""
        for conv in reversed(self._conversations):
            k = min(len(conv.units), len(keys))
            if k > 2 and conv.units[1] != keys[1]:
                continue  # cheap reject (the first unit is often a shared system prompt)
            if k and conv.units[: k - 1] == keys[: k - 1] and (conv.units[k - 1] == keys[k - 1] or k == len(conv.units)):
                return conv  # (a shorter view reuses the first scores: features are causal)
        self._next_id += 1
        conv = _Conversation(self._next_id, [], np.zeros(0), EMPTY_STATE, self.version)
        self._conversations.append(conv)
        if len(self._conversations) > self.max_conversations:
            self._conversations.pop(0)
        return conv

    # ---- refit, versions, rollback ------------------------------------------------------------------
    def refit(self) -> bool:
        """Propose a scorer fit on everything recorded; deploy it unless the gate refuses.

        Returns whether a new version was deployed. Below ``min_positives`` self-labelled units
        nothing is fit (the shipped scorer or the current version stays).
        """
        with self._lock:
            self._new_units = 0
            histories = self.histories()
            labels = [self_labels(units, later_gap=self.later_gap) for units in histories]
            if sum(int(lab.sum()) for lab in labels) < self.min_positives:
                return False
            texts = [([u.text for u in units], [u.kind for u in units]) for units in histories]
            candidate = fit_correction(self.base, texts, labels, l2=self.l2)
            if self.gate is not None and not self.gate(self.scorer, candidate, self):
                return False
            self._latest += 1
            self._deploy(self._latest, candidate)
            return True

    def rollback(self) -> int:
        """Return to the previously deployed version (0: the shipped scorer); returns the version now."""
        with self._lock:
            if self._versions:
                self._versions.pop()
                self._save_versions()
            return self.version

    def _deploy(self, version: int, scorer: Scorer) -> None:
        scorer.meta["version"] = version
        scorer = Scorer.from_dict(scorer.to_dict())  # exactly what the file holds (rounded weights)
        self._scorers[version] = scorer
        if self.directory is not None:
            scorer.save(self.directory / f"scorer-v{version}.json")
        self._versions.append(version)
        self._save_versions()

    # ---- persistence (plain files a user can read) -------------------------------------------------
    def _append_log(self, conversation: int, start: int, units: list[tuple[str, str, str]]) -> None:
        if self.directory is None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        with open(self.directory / "log.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps({"conversation": conversation, "start": start, "units": units}) + "\n")

    def _save_versions(self) -> None:
        if self.directory is None:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.directory / "versions.json.tmp"
        tmp.write_text(json.dumps({"deployed": self._versions, "latest": self._latest}))
        tmp.replace(self.directory / "versions.json")

    def _load(self) -> None:
        assert self.directory is not None
        log = self.directory / "log.jsonl"
        if log.exists():
            convs: dict[int, list[tuple[str, str, str]]] = {}
            for line in log.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rec = json.loads(line)
                    units = convs.setdefault(int(rec["conversation"]), [])
                    del units[int(rec["start"]):]
                    units.extend(tuple(u) for u in rec["units"])
            self._conversations = [_Conversation(i, list(u), np.zeros(0), EMPTY_STATE, -1)
                                   for i, u in sorted(convs.items())][-self.max_conversations:]
            self._next_id = max(convs, default=0)
        versions = self.directory / "versions.json"
        if versions.exists():
            state = json.loads(versions.read_text())
            self._latest = int(state["latest"])
            for v in state["deployed"]:
                self._scorers[int(v)] = Scorer.load(self.directory / f"scorer-v{int(v)}.json")
            self._versions = [int(v) for v in state["deployed"]]
