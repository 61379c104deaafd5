"""``TarlRetriever``: Accepted memories as LlamaIndex nodes, for query and context chat engines."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime

from llama_index.core.retrievers import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from shared_core import Entry, Hit, MemoryEngine, TarlError

NO_MEMORIES = "No relevant long-term memories."
_HIDDEN = ["entry_id", "namespace", "ledger", "source", "confidence", "observed_at", "valid_from", "valid_to",
           "slot", "created_tx"]


class TarlRetriever(BaseRetriever):
    """Searches the Accepted ledger of one namespace; each node carries its entry's id and provenance.

    >>> from shared_core import MemoryEngine
    >>> engine = MemoryEngine.open()
    >>> _ = engine.write({"text": "Ana is allergic to peanuts", "namespace": "user:ana"})
    >>> [(n.node.get_content(), n.node.metadata["source"]) for n in TarlRetriever(engine, "user:ana").retrieve("allergies")]
    [('Ana is allergic to peanuts', 'user')]

    Metadata (``entry_id``, ``source``, ``confidence``, ``observed_at``, ``slot``...) is for code and is
    hidden from the LLM prompt. LlamaIndex's context chat engines answer "Empty Response" without calling
    the LLM when a retriever returns nothing, so by default one node saying there are no memories is
    returned instead (score 0.0, ``entry_id`` None); pass ``empty_text=None`` to get ``[]``. ``valid_at``
    restricts results to entries valid at that instant. A blank query gets the ``top_k`` newest memories, score
    None (as LangChain's ``TarlRetriever``).
    """

    def __init__(self, engine: MemoryEngine, namespace: str = "default", *, top_k: int = 5,
                 valid_at: datetime | None = None, empty_text: str | None = NO_MEMORIES,
                 similarity_top_k: int | None = None) -> None:
        if similarity_top_k is not None:    # LlamaIndex's own name for it (``index.as_retriever(similarity_top_k=3)``)
            top_k = similarity_top_k
        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        if not isinstance(namespace, str) or not namespace.strip():
            raise TarlError("namespace", namespace, "must be a non-empty string")
        if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
            raise TarlError("top_k", top_k, "must be a positive integer")
        self.engine, self.namespace, self.top_k = engine, namespace, top_k
        self.valid_at, self.empty_text = valid_at, empty_text
        super().__init__()

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if not query_bundle.query_str.strip():
            return self._newest()
        return self._scored(self.engine.search(query_bundle.query_str, self.namespace, self.top_k,
                                               valid_at=self.valid_at))

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        if not query_bundle.query_str.strip():
            return await asyncio.to_thread(self._newest)
        return self._scored(await self.engine.asearch(query_bundle.query_str, self.namespace, self.top_k,
                                                      valid_at=self.valid_at))

    def _newest(self) -> list[NodeWithScore]:
        """A blank query's answer: the ``top_k`` newest memories, unscored, as LangChain's ``TarlRetriever``
        and ``TarlStore.search(query="")`` answer it. Why: the engine refuses a blank search, so a query
        engine or chat engine given a blank question raised ``TarlError`` instead of answering."""
        return self._nodes([(e, None) for e in self.engine.newest(self.namespace, self.top_k, valid_at=self.valid_at)])

    def _scored(self, hits: Sequence[Hit]) -> list[NodeWithScore]:
        return self._nodes([(h.entry, h.score) for h in hits])

    def _nodes(self, pairs: Sequence[tuple[Entry, float | None]]) -> list[NodeWithScore]:
        if not pairs and self.empty_text is not None:
            node = TextNode(text=self.empty_text, metadata={"entry_id": None}, excluded_llm_metadata_keys=["entry_id"])
            return [NodeWithScore(node=node, score=0.0)]
        return [NodeWithScore(node=node_of(entry), score=score) for entry, score in pairs]


def node_of(e: Entry) -> TextNode:
    metadata = {
        "entry_id": e.id, "namespace": e.namespace, "ledger": e.ledger.value, "source": e.source,
        "confidence": e.confidence, "observed_at": e.observed_at.isoformat(),
        "valid_from": e.valid_from.isoformat() if e.valid_from else None,
        "valid_to": e.valid_to.isoformat() if e.valid_to else None, "slot": e.slot, "created_tx": e.created_tx,
    }
    return TextNode(id_=e.id, text=e.text, metadata=metadata, excluded_llm_metadata_keys=list(_HIDDEN),
                    excluded_embed_metadata_keys=list(_HIDDEN))
