"""Embedders (placeholder until the measured default lands): a callable texts -> (n, dim) float32."""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

_WORD = re.compile(r"[a-z0-9]+")


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int

    def __call__(self, texts: Sequence[str]) -> np.ndarray: ...


class HashingEmbedder:
    """Signed feature hashing of words and word bigrams: offline, deterministic, no fitting."""

    name = "hashing"

    def __init__(self, dim: int = 1024) -> None:
        self.dim = dim

    def config(self) -> dict[str, Any]:
        return {"dim": self.dim}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())
            for tok in words + [a + " " + b for a, b in zip(words, words[1:])]:
                h = zlib.crc32(tok.encode())
                out[row, h % self.dim] += 1.0 if (h >> 31) & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def default_embedder() -> Embedder:
    return HashingEmbedder()
