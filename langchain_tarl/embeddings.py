"""A LangChain ``Embeddings`` as the engine's embedder.

The core's ``Embedder`` is one callable for documents and queries alike (a claim is grounded against
stored claims with the same vectors it is later searched with), so ``embed_documents`` serves both.
The core's ``CallableEmbedder`` checks the shapes and L2-normalises, as for any user model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shared_core.index.embedders import CallableEmbedder

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings


def embedder_from_langchain(embeddings: Embeddings, name: str | None = None) -> CallableEmbedder:
    """``name`` identifies the model (it keys the vector collection, so two models never mix);
    default: ``lc-`` + the class name, plus the ``model`` attribute when the class has one."""
    if not callable(getattr(embeddings, "embed_documents", None)):
        raise TypeError(f"embeddings must be a LangChain Embeddings, got {type(embeddings).__name__}")
    if name is None:
        model = getattr(embeddings, "model", None) or getattr(embeddings, "model_name", None)
        name = "lc-" + type(embeddings).__name__ + (f"-{model}" if isinstance(model, str) else "")
    return CallableEmbedder(embeddings.embed_documents, name=name)
