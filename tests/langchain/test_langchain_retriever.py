"""TarlRetriever: langchain-tests' standard retriever suite, plus what the standard suite cannot know
(Accepted only, metadata, bad k)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from langchain_core.documents import Document
from langchain_tests.integration_tests import RetrieversIntegrationTests
from shared_core import MemoryEngine, TarlError

from langchain_tarl import TarlRetriever

NOTES = ["note about trains", "note about tea", "note about bees", "note about maps", "note about jazz"]
_engines: list[MemoryEngine] = []


def _engine() -> MemoryEngine:
    """One real engine (in-memory SQLite + ephemeral Chroma) for the standard suite's module."""
    if not _engines:
        engine = MemoryEngine.open()
        for i, text in enumerate(NOTES):
            engine.write({"text": text, "namespace": "docs.u1", "slot": f"n{i}"})
        _engines.append(engine)
    return _engines[0]


@pytest.fixture(scope="module", autouse=True)
def _close_engine():
    yield
    while _engines:
        _engines.pop().close()


class TestTarlRetrieverStandard(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[TarlRetriever]:
        return TarlRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"engine": _engine(), "namespace": ("docs", "u1")}

    @property
    def retriever_query_example(self) -> str:
        return "note"


def test_documents_carry_entry_ledger_source_validity_and_score(engine):
    first = engine.write({"text": "Alice lives in Lisbon", "namespace": "m.alice", "source": "assistant"})
    engine.write({"text": "Alice lives in Porto", "namespace": "m.alice", "source": "user",
                  "valid_from": "2026-01-01T00:00:00+00:00"})
    [doc] = TarlRetriever(engine=engine, namespace=("m", "alice")).invoke("where does Alice live")
    assert isinstance(doc, Document) and doc.page_content == "Alice lives in Porto"   # Lisbon is History
    meta = doc.metadata
    assert meta["ledger"] == "accepted" and meta["source"] == "user" and meta["entry_id"] == doc.id != first.entry_id
    assert meta["valid_from"] == "2026-01-01T00:00:00+00:00" and meta["valid_to"] is None
    assert 0 < meta["score"] <= 1


async def test_per_call_k_and_async(engine):
    for text in ["Alice plays the cello", "Alice keeps bees on the roof", "Alice speaks Portuguese fluently"]:
        engine.write({"text": text, "namespace": "m"})
    retriever = TarlRetriever(engine=engine, namespace="m", k=3)
    assert len(retriever.invoke("Alice")) == 3
    assert len(await retriever.ainvoke("Alice", k=1)) == 1
    assert retriever.invoke("Alice", k=0) == []


def test_negative_k_is_refused(engine):
    with pytest.raises(ValueError, match="k"):
        TarlRetriever(engine=engine, namespace="m", k=-1)
    retriever = TarlRetriever(engine=engine, namespace="m")
    with pytest.raises(TarlError, match="k=-2"):
        retriever.invoke("x", k=-2)


def test_empty_namespace_is_refused(engine):
    for ns in [(), "", ("a.b",)]:
        with pytest.raises(ValueError, match="namespace"):
            TarlRetriever(engine=engine, namespace=ns)


def test_store_as_retriever(store):
    store.put(("m", "u"), "k", {"text": "Alice keeps bees on the roof"})
    [doc] = store.as_retriever(("m", "u"), k=2).invoke("bees")
    assert doc.metadata["slot"] == "k"


@pytest.mark.parametrize("query", ["", "   "])
async def test_a_blank_query_lists_the_newest_accepted_memories_as_store_search_does(store, query):
    ns = ("m", "u")
    store.put(ns, "city", {"text": "The user lives in Lisbon"})
    store.put(ns, "city", {"text": "The user lives in Porto"})                       # Lisbon -> History
    store.put(ns, "pet", {"text": "The user had a dog", "valid_to": "2020-01-01T00:00:00+00:00"})    # expired
    store.put(ns, "tea", {"text": "The user drinks green tea"})
    store.put(ns, "car", {"text": "The user drives a blue Fiat"})
    retriever = store.as_retriever(ns, k=2)
    listed = [i.value["text"] for i in store.search(ns, query=query, limit=2)]
    docs = retriever.invoke(query)
    assert [d.page_content for d in docs] == listed == ["The user drives a blue Fiat", "The user drinks green tea"]
    assert all(d.metadata["score"] is None and d.metadata["ledger"] == "accepted" for d in docs)
    assert [d.page_content for d in await retriever.ainvoke(query, k=4)] == [
        "The user drives a blue Fiat", "The user drinks green tea", "The user lives in Porto"]
    assert retriever.invoke(query, k=0) == []
    now = TarlRetriever(engine=store.engine, namespace=ns, valid_at=datetime.now(timezone.utc))
    assert [d.page_content for d in now.invoke(query, k=3)] == [
        "The user drives a blue Fiat", "The user drinks green tea", "The user lives in Porto"]
