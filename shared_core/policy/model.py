"""The learned scorer in numpy: state features and a learned embedding per action -> one score per
action. Weights come from a small JSON file (no pickle), so inference needs neither torch nor sklearn.

score(a) = w3 . tanh(W2 [h ; e_a ; phi(a)] + b2) + b3, with h = tanh(W1 (x - mean) / std + b1);
p = softmax(score / T) over feasible actions, T fitted on dev (temperature scaling).

A weights file may hold several members (the same network trained from different seeds): the score is
their mean. One small network's decisions on hand-written text moved by several points of macro-F1 from
one training seed to the next; the mean of a few is what a retraining reproduces.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from .features import ACTION_CODES, FEATURE_NAMES

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
ARRAYS = ("mean", "std", "W1", "b1", "E", "W2", "b2", "w3", "b3")


@dataclass
class ScorerWeights:
    actions: tuple[str, ...]
    arrays: dict[str, np.ndarray]
    temperature: float
    meta: dict[str, Any]
    config: dict[str, Any] | None = None
    """The ``PolicyConfig`` the weights were trained and calibrated with (shipped defaults)."""
    members: list[dict[str, np.ndarray]] = field(default_factory=list)
    """Further members' arrays (an ensemble: scores are averaged over ``arrays`` and these)."""
    temperature_slotted: float | None = None
    """The temperature for claims that arrive with a slot (None: ``temperature``). Measured on hand-written
    episodes the networks never trained on, one temperature cannot calibrate both: free text wants a
    flatter distribution, slotted claims a sharper one (``meta["temperature_refit"]``)."""
    confidence_slotted: tuple[float, float] | None = None
    """``(a, b)``: a slotted claim's executed action reports ``sigmoid(a * logit(p) + b)`` for the ``p`` the
    contract left it (``recalibrated``). Why after the contract and not one more temperature: measured on
    held-out hand-written episodes, slotted decisions reported at 0.97 were right 0.88-0.93 of the time
    while those the contract forced at 0.2-0.4 were right more often than reported; a temperature moves
    both ends the same way, this map pulls them together. None: the probabilities as the contract reports."""
    confidence_free: tuple[float, float] | None = None
    """The same map for free-text claims (``training.calibration``: no one temperature calibrates free text
    written in several styles; on held-out episodes what it reported at 0.3-0.5 was right 0.5-0.65 of the time)."""
    shares: tuple[float, ...] | None = None
    """Each network's share of the mean score (``arrays`` first, then ``members``; None: equal). A blend of two rounds
    (``blend``, ``tarl train --blend``) gives each round half, however many networks it has."""
    offsets: dict[str, float] = field(default_factory=dict)
    """Added to an action's score before the softmax: a cost of the decision, not the networks' belief. A new fact
    dropped as a repeat (``noop``) costs the user more than a repeat stored beside its entry (``tarl train
    --noop-offset``)."""

    def blend(self, previous: ScorerWeights) -> ScorerWeights:
        """These networks and a previous round's, each round half of the mean score, however many networks it has.
        Why: networks retrained on one round's features alone gained unseen free text but took some of the contract's
        own scenarios (a work phone beside a phone, two medicines) for one thing changing and lost HaluMem (session 45,
        README); half the previous round keeps most of those, the new half most of the gain. Refit the temperature after."""
        ours, old = [self.arrays, *self.members], [previous.arrays, *previous.members]
        shares = [*(self.shares or [1.0 / len(ours)] * len(ours)), *(previous.shares or [1.0 / len(old)] * len(old))]
        meta = {**self.meta, "blended_with": {k: previous.meta.get(k) for k in ("objective", "seed", "tau", "label_weight",
                                                                                "train_decisions", "members")}}
        return replace(self, members=[*self.members, *old], meta=meta, shares=tuple(0.5 * s for s in shares))

    @classmethod
    def load(cls, path: str | Path) -> ScorerWeights:
        raw = json.loads(Path(path).read_text())
        if tuple(raw["feature_names"]) != FEATURE_NAMES:
            raise ValueError(f"weights={path}: feature_names do not match this version's features; retrain")
        def arrays(d: dict) -> dict[str, np.ndarray]:
            return {k: np.asarray(d[k], dtype=np.float64) for k in ARRAYS}
        slotted = raw.get("temperature_slotted")
        def pair(key: str) -> tuple[float, float] | None:
            return None if raw.get(key) is None else (float(raw[key][0]), float(raw[key][1]))
        return cls(tuple(raw["actions"]), arrays(raw), float(raw["temperature"]), raw.get("meta", {}), raw.get("config"),
                   [arrays(m) for m in raw.get("members", [])], None if slotted is None else float(slotted),
                   pair("confidence_slotted"), pair("confidence_free"),
                   None if raw.get("shares") is None else tuple(float(v) for v in raw["shares"]),
                   {k: float(v) for k, v in raw.get("offsets", {}).items()})

    def save(self, path: str | Path) -> None:
        record: dict[str, Any] = {"feature_names": list(FEATURE_NAMES), "actions": list(self.actions),
                                  "temperature": self.temperature, "meta": self.meta}
        if self.temperature_slotted is not None:
            record["temperature_slotted"] = self.temperature_slotted
        for key in ("confidence_slotted", "confidence_free"):
            if getattr(self, key) is not None:
                record[key] = [round(v, 4) for v in getattr(self, key)]
        if self.shares is not None:
            record["shares"] = [round(v, 6) for v in self.shares]
        if self.offsets:
            record["offsets"] = self.offsets
        if self.config is not None:
            record["config"] = self.config
        def rounded(arrays: dict[str, np.ndarray]) -> dict[str, Any]:
            return {k: np.round(np.asarray(v, dtype=np.float64), 6).tolist() for k, v in arrays.items()}
        record.update(rounded(self.arrays))
        if self.members:
            record["members"] = [rounded(m) for m in self.members]
        Path(path).write_text(json.dumps(record, separators=(",", ":")))


class _Member:
    """One trained network; the action half of the second layer is precomputed (it does not depend on x)."""

    def __init__(self, a: dict[str, np.ndarray], actions: tuple[str, ...]) -> None:
        self._mean, self._std = a["mean"], np.where(a["std"] > 1e-6, a["std"], 1.0)
        self._W1, self._b1 = a["W1"], a["b1"]
        self._w3, self._b3 = a["w3"], float(a["b3"].reshape(-1)[0])
        codes = np.asarray([ACTION_CODES[x] for x in actions], dtype=np.float64)
        self._action_part = np.concatenate([a["E"], codes], axis=1) @ a["W2"][:, self._W1.shape[0]:].T + a["b2"]
        self._h_part = a["W2"][:, : self._W1.shape[0]]

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.tanh(((x - self._mean) / self._std) @ self._W1.T + self._b1)
        z = np.tanh((h @ self._h_part.T)[:, None, :] + self._action_part[None, :, :])
        return z @ self._w3 + self._b3


def _alike(members: list[_Member]) -> bool:
    """Networks of one shape, which stack into one (``_Stacked``); others are scored one by one."""
    return len({(m._W1.shape, m._h_part.shape, m._action_part.shape) for m in members}) == 1


class _Stacked:
    """The members as one network: their first layers stacked (each one's standardisation folded into its weights),
    their second layers block-diagonal, their shares folded into the output weights. The same scores as the members'
    weighted mean (to ~1e-15) in about a fifth of the time: the shipped blend of six networks cost 72 us a scoring in
    numpy calls, 13 us stacked."""

    def __init__(self, members: list[_Member], shares: tuple[float, ...] | None) -> None:
        k, (h2, h1) = len(members), members[0]._h_part.shape
        scaled = [m._W1 / m._std for m in members]
        self._W1 = np.vstack(scaled)
        self._b1 = np.concatenate([m._b1 - w @ m._mean for m, w in zip(members, scaled)])
        self._H = np.zeros((k * h2, k * h1))
        for i, m in enumerate(members):
            self._H[i * h2:(i + 1) * h2, i * h1:(i + 1) * h1] = m._h_part
        self._action = np.stack([m._action_part for m in members])          # (k, actions, h2)
        share = np.asarray(shares if shares is not None else [1.0] * k, dtype=np.float64)
        share = share / share.sum()
        self._w3 = np.stack([m._w3 for m in members]) * share[:, None]
        self._b3 = float(np.asarray([m._b3 for m in members]) @ share)
        self._k, self._h2 = k, h2

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = np.tanh(x @ self._W1.T + self._b1)
        z = np.tanh((h @ self._H.T).reshape(len(x), self._k, 1, self._h2) + self._action)
        return np.einsum("nkah,kh->na", z, self._w3) + self._b3


class Scorer:
    def __init__(self, weights: ScorerWeights) -> None:
        self.weights = weights
        self.actions = weights.actions
        self._members = [_Member(a, self.actions) for a in (weights.arrays, *weights.members)]
        if weights.shares is not None and len(weights.shares) != len(self._members):
            raise ValueError(f"weights shares: {len(weights.shares)} for {len(self._members)} networks")
        unknown = set(weights.offsets) - set(self.actions)
        if unknown:
            raise ValueError(f"weights offsets: no action {sorted(unknown)}")
        self._offset = np.asarray([weights.offsets.get(a, 0.0) for a in self.actions])
        self._stacked = _Stacked(self._members, weights.shares) if _alike(self._members) else None

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Scores for a batch ``x`` of shape (n, features) -> (n, actions): the members' (weighted) mean, plus the
        offsets."""
        if self._stacked is not None:
            return self._stacked.logits(x) + self._offset
        scores = [m.logits(x) for m in self._members]
        return np.average(scores, axis=0, weights=self.weights.shares) + self._offset

    def probabilities(self, x: np.ndarray, mask: np.ndarray | None = None, temperature: float | None = None) -> np.ndarray:
        s = self.logits(np.atleast_2d(x)) / (temperature or self.weights.temperature)
        if mask is not None:
            s = np.where(np.atleast_2d(mask), s, -np.inf)
        s = s - s.max(axis=1, keepdims=True)
        e = np.exp(s)
        return e / e.sum(axis=1, keepdims=True)


def recalibrated(probabilities: dict[str, float], action: str, ab: tuple[float, float]) -> dict[str, float]:
    """``probabilities`` with the executed ``action``'s mapped to ``sigmoid(a * logit(p) + b)`` and the
    others rescaled to the rest, so they still sum to one (see ``ScorerWeights.confidence_slotted``)."""
    p = min(max(probabilities.get(action, 1.0), 1e-6), 1 - 1e-6)
    q = 1.0 / (1.0 + np.exp(-(ab[0] * np.log(p / (1 - p)) + ab[1])))
    others = [k for k in probabilities if k != action]
    rest = sum(probabilities[k] for k in others)
    share = {k: probabilities[k] / rest if rest > 0 else 1.0 / len(others) for k in others}   # (a forced p = 1: evenly)
    return {action: float(q), **{k: float((1.0 - q) * share[k]) for k in others}}
