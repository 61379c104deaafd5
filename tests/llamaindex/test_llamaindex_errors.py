"""Bad input to the LlamaIndex adapter: a clear error naming the field and value, and nothing written."""

from __future__ import annotations

import logging
import re

import pytest
from llama_index.core.base.llms.types import ChatMessage
from pydantic import ValidationError

from llamaindex_tarl import llamaindex_embedder, TarlMemory, TarlMemoryBlock, TarlRetriever, open_engine
from shared_core import MemoryEngine, TarlError

NS = "user:err"
USER = ChatMessage(role="user", content="My order id is A-7731")
REPLY = ChatMessage(role="assistant", content="Noted.")


def _nothing_written(memory: TarlMemory) -> None:
    assert memory.get_all() == []
    assert memory.engine.accepted(NS) == [] and memory.engine.log(NS) == []


def test_put_rejects_non_messages(engine):
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS)
    with pytest.raises(TarlError, match=r"message='hello'"):
        memory.put("hello")
    with pytest.raises(TarlError, match=r"messages\[1\]"):
        memory.put_messages([USER, {"role": "assistant", "content": "hi"}, REPLY])
    with pytest.raises(TarlError, match="messages"):
        memory.set("hello")
    _nothing_written(memory)


async def test_async_put_rejects_non_messages(engine):
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS)
    with pytest.raises(TarlError, match=r"messages\[0\]"):
        await memory.aput_messages([None, USER, REPLY])
    with pytest.raises(TarlError, match="message"):
        await memory.aput(42)
    _nothing_written(memory)


@pytest.mark.parametrize("output, field", [
    (["a good fact", "  "], r"extractor\[1\]\.text"),
    (["a good fact", {"text": "x", "confidence": 3}], r"extractor\[1\]\.confidence"),
    (["a good fact", 7], r"extractor\[1\]=7"),
    ("one string, not a list", r"extractor="),
])
def test_bad_extractor_output_writes_nothing(engine, output, field, caplog):
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS, extractor=lambda messages: output)
    with pytest.raises(TarlError, match=field):
        memory.block.remember([USER, REPLY])    # asked directly: the error, before any write
    memory.put(USER)
    with caplog.at_level(logging.WARNING, logger="llamaindex_tarl"):
        memory.put(REPLY)                       # the turn closes: a warning naming the item, the chat goes on
    assert re.search(field, caplog.text)
    assert [m.content for m in memory.get_all()] == [USER.content, REPLY.content]
    assert memory.engine.log(NS) == []


def test_async_extractor_in_sync_path_is_refused(engine):
    async def extract(messages):
        return ["fact"]

    block = TarlMemoryBlock(engine, namespace=NS, extractor=extract)
    with pytest.raises(TarlError, match="async"):
        block.remember([USER])
    assert engine.log(NS) == []


def test_construction_errors(engine):
    with pytest.raises(ValidationError, match="extractor=42"):
        TarlMemoryBlock(engine, extractor=42)
    with pytest.raises(TarlError, match="engine='nope'"):
        TarlMemoryBlock("nope")
    with pytest.raises(ValidationError, match="token_limit"):
        TarlMemory.from_defaults(engine=engine, token_limit=0)
    with pytest.raises(ValidationError, match="namespace"):
        TarlMemory.from_defaults(engine=engine, namespace="")
    with pytest.raises(TarlError, match="engine"):
        open_engine(engine, path="/tmp/elsewhere")
    with pytest.raises(TarlError, match="tokenizer_fn"):
        TarlMemory.from_defaults(engine=engine, token_counter=len, tokenizer_fn=str.split)
    with pytest.raises(TarlError, match="embed_model"):
        llamaindex_embedder("not a model")
    with pytest.raises(TarlError, match="top_k=0"):
        TarlRetriever(engine, NS, top_k=0)
    with pytest.raises(TarlError, match="namespace=''"):
        TarlRetriever(engine, "")
    assert engine.log() == []


@pytest.mark.parametrize("bad", [{"token_limit": 0}, {"keep_last": -1}, {"top_k": 0}, {"namespace": " "},
                                 {"extractor": "llm"}, {"chat_history": ["hi"]}, {"engine": "db"}])
def test_bad_options_create_no_store(tmp_path, bad):
    with pytest.raises(ValueError):
        TarlMemory.from_defaults(tmp_path / "store", **bad)
    assert not (tmp_path / "store").exists()


def test_read_errors(engine):
    memory = TarlMemory.from_defaults(engine=engine, namespace=NS, token_limit=100)
    with pytest.raises(TarlError, match="initial_token_count=500"):
        memory.get(initial_token_count=500)
    # a blank query is no error: it gets the newest memories (test_llamaindex_retriever_blank.py)


@pytest.mark.parametrize("source", ["crm", "User", "third party"])
def test_an_unknown_source_is_refused_at_open_not_at_every_turn(tmp_path, source):
    """Accepted until now, every closed turn was then dropped with a warning: the user's words lost."""
    with pytest.raises(TarlError, match=rf"source={source!r}: unknown source"):
        TarlMemory.from_defaults(tmp_path / "mem", namespace=NS, source=source)
    assert not (tmp_path / "mem").exists()                 # refused before a store was opened
    with MemoryEngine.open() as engine:
        with pytest.raises(TarlError, match=rf"source={source!r}"):
            TarlMemory.from_defaults(engine=engine, namespace=NS, source=source)
        with pytest.raises(TarlError, match=rf"source={source!r}"):
            TarlMemoryBlock(engine, namespace=NS, source=source)


def test_a_source_the_engine_maps_is_accepted(caplog):
    from llama_index.core.chat_engine import SimpleChatEngine
    from llama_index.core.llms import MockLLM

    with MemoryEngine.open(config={"source_aliases": {"crm": "tool"}}) as engine:
        memory = TarlMemory.from_defaults(engine=engine, namespace=NS, source="crm")
        SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory).chat("Order A-7731 shipped on Monday")
        assert [(e.text, e.source) for e in engine.accepted(NS)] == [("Order A-7731 shipped on Monday", "crm")]
    assert "not written" not in caplog.text
