"""A LangChain ``Embeddings`` as the engine's embedder.

The core's ``Embedder`` is one callable for documents and queries alike (a claim is grounded against
stored claims with the same vectors it is later searched with), so ``embed_documents`` serves both.
The core's ``CallableEmbedder`` checks the shapes and L2-normalises, as for any user model.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shared_core import TarlError

from shared_core.index.embedders import CallableEmbedder

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings


def embedder_from_langchain(embeddings: Embeddings, name: str | None = None, dim: int | None = None) -> CallableEmbedder:
    """``name`` identifies the model (it keys the vector collection, so two models never mix);
    default: ``lc-`` + the class name, plus the ``model`` attribute when the class has one."""
    if not callable(getattr(embeddings, "embed_documents", None)):
        raise TypeError(f"embeddings must be a LangChain Embeddings, got {type(embeddings).__name__}")
    if name is None:
        model = getattr(embeddings, "model", None) or getattr(embeddings, "model_name", None)
        name = "lc-" + type(embeddings).__name__ + (f"-{model}" if isinstance(model, str) else "")
    return CallableEmbedder(embeddings.embed_documents, name=name, dim=dim)


def embedder_from_index(index: Any) -> tuple[CallableEmbedder, Embeddings]:
    """The embedder of a LangGraph ``IndexConfig`` and the ``Embeddings`` behind it (``embed``: an
    ``Embeddings``, a sync or async function of a list of texts, or a ``"provider:model"`` string,
    resolved as LangGraph resolves it); ``dims``, when given, is checked against what the model returns.
    Scores are cosine similarities: a ``distance_type`` other than ``"cosine"`` is refused."""
    from langgraph.store.base.embed import ensure_embeddings

    if not isinstance(index, dict) or index.get("embed") is None:
        raise TarlError("index", index, "must be a dict with 'embed' (and 'dims'), as LangGraph's IndexConfig")
    dims = index.get("dims")
    if dims is not None and (isinstance(dims, bool) or not isinstance(dims, int) or dims <= 0):
        raise TarlError("index.dims", dims, "must be a positive integer")
    if index.get("distance_type", "cosine") not in ("cosine", None):
        raise TarlError("index.distance_type", index["distance_type"], "TarlStore scores by cosine similarity only")
    embed = index["embed"]
    name = f"lg-{embed.replace(':', '-')}" if isinstance(embed, str) else None
    embeddings = ensure_embeddings(embed)
    return embedder_from_langchain(embeddings, name=name, dim=dims), embeddings
