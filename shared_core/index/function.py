"""The bridge that registers our embedders with Chroma.

Chroma's own default embedding function downloads an ONNX model on first use; registering ours means a
fresh process (or a user with the plain chromadb client) can reopen the collection and query it by text,
offline, with the same vectors the engine wrote.
"""

from __future__ import annotations

from typing import Any

from chromadb.api.types import Documents, EmbeddingFunction, Embeddings
from chromadb.utils.embedding_functions import register_embedding_function

from .embedders import Embedder, HashingEmbedder


@register_embedding_function
class TarlEmbeddingFunction(EmbeddingFunction[Documents]):
    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder = embedder if embedder is not None else HashingEmbedder()

    def __call__(self, input: Documents) -> Embeddings:
        return list(self.embedder(list(input)))

    @staticmethod
    def name() -> str:
        return "tarl"

    def default_space(self) -> str:  # type: ignore[override]
        return "cosine"

    def get_config(self) -> dict[str, Any]:
        config = getattr(self.embedder, "config", None)
        return {"embedder": self.embedder.name, "params": config() if callable(config) else {}}

    @staticmethod
    def build_from_config(config: dict[str, Any]) -> TarlEmbeddingFunction:
        if str(config.get("embedder", "")).startswith(HashingEmbedder.name):
            return TarlEmbeddingFunction(HashingEmbedder(**config.get("params", {})))
        raise ValueError(
            f"embedder={config.get('embedder')!r}: a custom embedder cannot be rebuilt from its config; "
            "pass it to MemoryEngine.open(..., embedder=...)"
        )


def chroma_function(embedder: Embedder) -> TarlEmbeddingFunction:
    return TarlEmbeddingFunction(embedder)
