"""``TarlRetriever``: Accepted memories as LangChain ``Document``s."""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, field_validator
from shared_core import Entry, MemoryEngine, TarlError

from . import namespaces


class TarlRetriever(BaseRetriever):
    """Retrieve Accepted memories (never Pending or History) for a query.

    .. code-block:: python

        from shared_core import MemoryEngine
        from langchain_tarl import TarlRetriever

        engine = MemoryEngine.open()
        engine.write({"text": "Alice lives in Lisbon", "namespace": "memories.alice"})
        retriever = TarlRetriever(engine=engine, namespace=("memories", "alice"), k=4)
        docs = retriever.invoke("where does Alice live?", k=1)      # per-call k
        docs[0].metadata["ledger"], docs[0].metadata["source"]       # ('accepted', 'user')
        docs = await retriever.ainvoke("Alice")

    ``namespace`` takes a LangGraph tuple (encoded as :mod:`langchain_tarl.namespaces` says) or an
    engine namespace string. Each ``Document`` has ``id`` = entry id and metadata ``entry_id``,
    ``namespace``, ``ledger``, ``source``, ``confidence``, ``slot``, ``valid_from``, ``valid_to``,
    ``observed_at`` (ISO strings or None) and ``score`` (cosine similarity). A blank query (``""``)
    lists the ``k`` newest Accepted memories with ``score`` None, as ``TarlStore.search`` does.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    engine: MemoryEngine
    namespace: str
    k: int = Field(default=4, ge=0)
    valid_at: datetime | None = None
    """Only memories valid at this instant (None: all Accepted memories)."""

    @field_validator("namespace", mode="before")
    @classmethod
    def _namespace(cls, value: Any) -> str:
        return namespaces.coerce(value)

    def _k(self, k: Any) -> int:
        k = self.k if k is None else k
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise TarlError("k", k, "must be a non-negative integer")
        return k

    def _newest(self, k: int) -> list[Document]:
        """A blank query's answer: the ``k`` newest Accepted memories (valid at ``valid_at``), unscored.
        Why not an error or nothing: ``TarlStore.search(query="")`` lists the same way, and LangChain's
        vector-store retrievers answer ``""`` with ``k`` documents, so a chain that sends a blank
        question (a condensed follow-up, a form field) gets context, not an exception."""
        return [_document(e, None) for e in self.engine.newest(self.namespace, k, valid_at=self.valid_at)]

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                k: int | None = None, **kwargs: Any) -> list[Document]:
        if _blank(query):
            return self._newest(self._k(k))
        hits = self.engine.search(query, self.namespace, self._k(k), valid_at=self.valid_at)
        return [_document(h.entry, h.score) for h in hits]

    async def _aget_relevant_documents(self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun,
                                       k: int | None = None, **kwargs: Any) -> list[Document]:
        if _blank(query):
            return await asyncio.to_thread(self._newest, self._k(k))
        hits = await self.engine.asearch(query, self.namespace, self._k(k), valid_at=self.valid_at)
        return [_document(h.entry, h.score) for h in hits]


def _blank(query: Any) -> bool:
    return isinstance(query, str) and not query.strip()


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _document(e: Entry, score: float | None) -> Document:
    return Document(id=e.id, page_content=e.text, metadata={
        "entry_id": e.id, "namespace": e.namespace, "ledger": e.ledger.value, "source": e.source,
        "confidence": e.confidence, "slot": e.slot, "valid_from": _iso(e.valid_from), "valid_to": _iso(e.valid_to),
        "observed_at": _iso(e.observed_at), "score": score,
    })
