"""Opening a ``MemoryEngine`` from LlamaIndex terms: a store path and, optionally, a ``BaseEmbedding``."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding

from shared_core import MemoryEngine, TarlError
from shared_core.index import Embedder


class LlamaIndexEmbedder:
    """A LlamaIndex ``BaseEmbedding`` seen through the core's ``Embedder`` protocol.

    >>> from llama_index.core.embeddings import MockEmbedding
    >>> LlamaIndexEmbedder(MockEmbedding(embed_dim=8))(["hello"]).shape
    (1, 8)

    The name (which keys the Chroma collection, so two models never share a vector space) comes from
    the model's class and ``model_name``. Rows are L2-normalised as the protocol requires.
    """

    def __init__(self, embed_model: BaseEmbedding) -> None:
        if not isinstance(embed_model, BaseEmbedding):
            raise TarlError("embed_model", embed_model, "must be a llama_index BaseEmbedding")
        self.embed_model = embed_model
        raw = f"{type(embed_model).__name__}-{embed_model.model_name}"
        self.name = re.sub(r"[^A-Za-z0-9_-]+", "-", raw).strip("-")[:48] or "llamaindex"
        self._dim: int | None = None

    @property
    def dim(self) -> int:
        if self._dim is None:
            self(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.asarray(self.embed_model.get_text_embedding_batch(list(texts)), dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.isfinite(vectors).all():
            raise TarlError("embed_model", self.name, f"returned {vectors.shape} finite={np.isfinite(vectors).all()}")
        self._dim = int(vectors.shape[1])
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1.0, norms)


def open_engine(
    engine: MemoryEngine | None = None,
    path: str | Path | None = None,
    embed_model: BaseEmbedding | Embedder | None = None,
    **options: Any,
) -> MemoryEngine:
    """The engine an adapter object works on: the one given, or a new one at ``path`` (None: in memory)."""
    if engine is not None:
        if path is not None or embed_model is not None or options:
            raise TarlError("engine", engine, "pass either an engine or path/embed_model/options, not both")
        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        return engine
    embedder = LlamaIndexEmbedder(embed_model) if isinstance(embed_model, BaseEmbedding) else embed_model
    return MemoryEngine.open(path, embedder=embedder, **options)
