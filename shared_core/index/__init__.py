"""The derived vector index (Chroma) and the embedders that feed it.

``EntryIndex`` and the client factories import chromadb lazily, so importing this package is cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .embedders import CallableEmbedder, Embedder, HashingEmbedder, QueryIDF, default_embedder

if TYPE_CHECKING:
    from .chroma import EntryIndex

__all__ = ["CallableEmbedder", "Embedder", "EntryIndex", "HashingEmbedder", "QueryIDF", "default_embedder"]


def __getattr__(name: str) -> Any:
    if name == "EntryIndex":
        from .chroma import EntryIndex

        return EntryIndex
    raise AttributeError(name)
