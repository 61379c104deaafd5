"""The scorer: L2 logistic regression over the causal features, evaluated in numpy.

Weights are plain JSON (coefficients, feature scaling, TF-IDF vocabulary and idf): loading never
unpickles anything and inference imports neither scikit-learn nor torch. Training lives in
:mod:`shared_core.lre.fit`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from shared_core.lre.features import EMPTY_STATE, FEATURE_NAMES, FeatureSet, PrefixState, VocabIndex, compute_features
from shared_core.lre.units import LREInputError, Unit

FORMAT = "tarl-lre-scorer/1"
DEFAULT_WEIGHTS = Path(__file__).with_name("default_weights.json")


class Scorer:
    """p_i = sigmoid(intercept + coef · standardised(dense_i) + tfidf_coef · tfidf_i)."""

    def __init__(
        self,
        *,
        coef: Sequence[float],
        intercept: float,
        mean: Sequence[float],
        scale: Sequence[float],
        vocab: Sequence[str] = (),
        idf: Sequence[float] = (),
        tfidf_coef: Sequence[float] = (),
        feature_names: Sequence[str] = FEATURE_NAMES,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        names = tuple(feature_names)
        if names != FEATURE_NAMES[: len(names)] or not names:
            raise LREInputError(
                f"weights.feature_names do not match this version's features: got {list(feature_names)!r}"
            )
        f = len(FEATURE_NAMES)
        # Weights saved before features were appended stay valid: the new features get weight 0.
        pad = f - len(names)
        self.coef = np.asarray(coef, dtype=np.float64)
        self.mean = np.asarray(mean, dtype=np.float64)
        self.scale = np.asarray(scale, dtype=np.float64)
        if pad and all(arr.shape == (len(names),) for arr in (self.coef, self.mean, self.scale)):
            self.coef, self.mean, self.scale = (np.r_[self.coef, np.zeros(pad)], np.r_[self.mean, np.zeros(pad)],
                                                np.r_[self.scale, np.ones(pad)])
        for name, arr in (("coef", self.coef), ("mean", self.mean), ("scale", self.scale)):
            if arr.shape != (f,):
                raise LREInputError(f"weights.{name} must have {f} values, got {arr.shape[0] if arr.ndim else arr}")
        if np.any(self.scale <= 0):
            raise LREInputError(f"weights.scale must be positive, got {self.scale.tolist()}")
        self.intercept = float(intercept)
        self.vocab_list = list(vocab)
        self.vocab = {w: i for i, w in enumerate(self.vocab_list)}
        self.idf = np.asarray(idf, dtype=np.float64)
        self.tfidf_coef = np.asarray(tfidf_coef, dtype=np.float64)
        if not (len(self.vocab) == len(self.idf) == len(self.tfidf_coef)):
            raise LREInputError(
                f"weights.vocab, idf and tfidf_coef must have equal lengths, got "
                f"{len(self.vocab)}, {len(self.idf)}, {len(self.tfidf_coef)}"
            )
        self.meta = dict(meta or {})
        self._index = VocabIndex.build(self.vocab_list)
        # Fold the standardisation into one weight vector: one matrix-vector product at inference.
        self._w = self.coef / self.scale
        self._b = self.intercept - float(self._w @ self.mean)

    # ---- persistence -------------------------------------------------------------------------
    @classmethod
    def default(cls) -> Scorer:
        """The shipped scorer (see ``meta`` for what it was trained on)."""
        return _load_default()

    @classmethod
    def load(cls, path: str | Path) -> Scorer:
        return cls.from_dict(json.loads(Path(path).read_text()))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Scorer:
        if data.get("format") != FORMAT:
            raise LREInputError(f"weights.format must be {FORMAT!r}, got {data.get('format')!r}")
        keys = ("coef", "intercept", "mean", "scale", "vocab", "idf", "tfidf_coef", "feature_names", "meta")
        return cls(**{k: data[k] for k in keys if k in data})

    def to_dict(self, digits: int = 5) -> dict[str, Any]:
        def r(a: np.ndarray) -> list[float]:
            return [round(float(x), digits) for x in a]

        return {
            "format": FORMAT,
            "feature_names": list(FEATURE_NAMES),
            "intercept": round(self.intercept, digits),
            "coef": r(self.coef),
            "mean": r(self.mean),
            "scale": r(self.scale),
            "vocab": self.vocab_list,
            "idf": r(self.idf),
            "tfidf_coef": r(self.tfidf_coef),
            "meta": self.meta,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), separators=(",", ":")) + "\n")

    # ---- inference ---------------------------------------------------------------------------
    def features(
        self, texts: Sequence[str], kinds: Sequence[str] | None = None, *, state: PrefixState = EMPTY_STATE,
        keep_state: bool = True,
    ) -> FeatureSet:
        return compute_features(texts, kinds, vocab=self._index, idf=self.idf if len(self.idf) else None, state=state,
                                keep_state=keep_state)

    def logits(self, fs: FeatureSet) -> np.ndarray:
        z = fs.dense @ self._w + self._b
        if len(fs.tfidf_vals):
            z += np.bincount(fs.tfidf_rows, weights=fs.tfidf_vals * self.tfidf_coef[fs.tfidf_cols], minlength=fs.n)
        return z

    def score_texts(self, texts: Sequence[str], kinds: Sequence[str] | None = None) -> np.ndarray:
        """Probability that each unit of one history is load-bearing (texts in history order)."""
        z = self.logits(self.features(texts, kinds, keep_state=False))
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))

    def score_units(self, units: Sequence[Unit]) -> np.ndarray:
        if not units:
            return np.zeros(0)
        _, _, _, texts, _, kinds, _ = zip(*units)
        return self.score_texts(texts, kinds)


@lru_cache(maxsize=1)
def _load_default() -> Scorer:
    return Scorer.load(DEFAULT_WEIGHTS)
