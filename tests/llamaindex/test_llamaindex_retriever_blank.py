"""A blank question to ``TarlRetriever`` (a query engine given ``""``, an image-only turn) gets the newest
memories, unscored, as LangChain's ``TarlRetriever`` answers it. Found putting the retriever in a
``RetrieverQueryEngine``: ``query("")`` raised ``TarlError: query='': must be a non-empty string``."""

from __future__ import annotations

import pytest
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine

from llamaindex_tarl import TarlRetriever
from shared_core import MemoryEngine

NS = "user:ana"
FACTS = ["Ana is allergic to peanuts", "Ana lives in Lisbon", "Ana's order id is A-7731"]


@pytest.fixture
def engine():
    engine = MemoryEngine.open()
    for text in FACTS:
        engine.write({"text": text, "namespace": NS})
    yield engine
    engine.close()


@pytest.mark.parametrize("query", ["", "   "])
async def test_a_blank_query_gets_the_newest_memories_unscored(engine, query):
    retriever = TarlRetriever(engine, NS, top_k=2)
    for nodes in (retriever.retrieve(query), await retriever.aretrieve(query)):
        assert [(n.node.get_content(), n.score) for n in nodes] == [(FACTS[2], None), (FACTS[1], None)]


def test_a_query_engine_answers_a_blank_question(engine):
    response = RetrieverQueryEngine.from_args(TarlRetriever(engine, NS), llm=MockLLM()).query("")
    assert sorted(n.node.get_content() for n in response.source_nodes) == sorted(FACTS)


def test_a_blank_query_on_an_empty_namespace_still_says_there_are_none(engine):
    assert [n.node.get_content() for n in TarlRetriever(engine, "user:nobody").retrieve("")] == [
        "No relevant long-term memories."]


def test_similarity_top_k_is_llamaindex_s_name_for_top_k(engine):
    """``index.as_retriever(similarity_top_k=3)`` is how LlamaIndex users ask; it raised TypeError here."""
    assert len(TarlRetriever(engine, NS, similarity_top_k=1).retrieve("Ana")) == 1
    with pytest.raises(Exception, match="top_k"):
        TarlRetriever(engine, NS, similarity_top_k=0)


def test_a_memory_s_retriever_takes_the_memory_s_top_k(tmp_path):
    from llamaindex_tarl import TarlMemory

    memory = TarlMemory.from_defaults(path=tmp_path / "m", namespace=NS, top_k=1)
    try:
        for text in FACTS:
            memory.engine.write({"text": text, "namespace": NS})
        assert memory.as_retriever().top_k == 1
        assert memory.as_retriever(similarity_top_k=2).top_k == 2
        assert len(memory.as_retriever().retrieve("Ana")) == 1
    finally:
        memory.close()
