"""Opening a ``MemoryEngine`` from LlamaIndex terms: a store path and, optionally, a ``BaseEmbedding``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import BaseModel, ConfigDict, create_model

from shared_core import MemoryEngine, TarlError
from shared_core.index import Embedder
from shared_core.index.embedders import CallableEmbedder


def llamaindex_embedder(embed_model: BaseEmbedding) -> CallableEmbedder:
    """A LlamaIndex ``BaseEmbedding`` as the core's ``Embedder`` (checked, L2-normalised rows).

    >>> from llama_index.core.embeddings import MockEmbedding
    >>> embedder = llamaindex_embedder(MockEmbedding(embed_dim=8))
    >>> embedder.name, embedder(["hello"]).shape
    ('MockEmbedding-unknown', (1, 8))

    The name, which keys the store's vector space, comes from the model's class and ``model_name``.
    """
    if not isinstance(embed_model, BaseEmbedding):
        raise TarlError("embed_model", embed_model, "must be a llama_index BaseEmbedding")
    name = f"{type(embed_model).__name__}-{embed_model.model_name}"[:48]
    return CallableEmbedder(embed_model.get_text_embedding_batch, name=name)


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
    embedder = llamaindex_embedder(embed_model) if isinstance(embed_model, BaseEmbedding) else embed_model
    return MemoryEngine.open(path, embedder=embedder, **options)


def check_fields(model: type[BaseModel], values: dict[str, Any]) -> None:
    """Validate ``values`` against ``model``'s own field definitions without constructing it."""
    spec: dict[str, Any] = {k: (model.model_fields[k].annotation, model.model_fields[k]) for k in values}
    create_model(f"{model.__name__}Options", __config__=ConfigDict(arbitrary_types_allowed=True),
                 **spec).model_validate(values)
