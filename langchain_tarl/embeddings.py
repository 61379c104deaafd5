"""A LangChain ``Embeddings`` as the engine's embedder.

The core's ``Embedder`` is one callable for documents and queries alike (a claim is grounded against
stored claims with the same vectors it is later searched with), so ``embed_documents`` serves both.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")


class LangChainEmbedder:
    """Minimal ``Embedder`` over ``Embeddings.embed_documents``: checks the shape and L2-normalises,
    so cosine similarity means the same as for the core's own embedders.

    Stand-in until ``shared_core.index.CallableEmbedder`` is on main; then this becomes
    ``CallableEmbedder(embeddings.embed_documents, name=...)``.
    """

    def __init__(self, embeddings: Embeddings, name: str | None = None) -> None:
        if not callable(getattr(embeddings, "embed_documents", None)):
            raise TypeError(f"embeddings must be a LangChain Embeddings, got {type(embeddings).__name__}")
        self.embeddings = embeddings
        # Chroma collection names allow [A-Za-z0-9._-]; the name also keeps two models' vectors apart.
        self.name = _UNSAFE.sub("_", name or "lc_" + type(embeddings).__name__)[:60]
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        out = np.asarray(self.embeddings.embed_documents(texts), dtype=np.float32)
        if out.ndim != 2 or out.shape[0] != len(texts) or not np.isfinite(out).all():
            raise ValueError(f"embeddings {self.name!r} returned shape {out.shape} (or non-finite values) "
                             f"for {len(texts)} texts")
        if self._dim is not None and out.shape[1] != self._dim:
            raise ValueError(f"embeddings {self.name!r} returned dim {out.shape[1]}, expected {self._dim}")
        self._dim = out.shape[1]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms == 0, 1.0, norms)


def embedder_from_langchain(embeddings: Embeddings, name: str | None = None) -> LangChainEmbedder:
    return LangChainEmbedder(embeddings, name)
