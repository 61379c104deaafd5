"""TarlMemoryBlock inside LlamaIndex's own Memory: flushed turns become claims, relevant ones come back."""

from __future__ import annotations

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.memory import Memory, StaticMemoryBlock

from llamaindex_tarl import TarlMemory, TarlMemoryBlock
from shared_core import Claim, Ledger, MemoryEngine


def _memory(block: TarlMemoryBlock, **kw) -> Memory:
    options = dict(session_id="s1", token_limit=24, token_flush_size=8, chat_history_token_ratio=0.5,
                   tokenizer_fn=str.split, memory_blocks=[block])
    return Memory.from_defaults(**{**options, **kw})


async def test_flushed_turns_become_claims_and_come_back(engine, recorder):
    block = TarlMemoryBlock(engine, namespace="user:ana", priority=0)
    memory = _memory(block)
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory)
    for text in ["My order id is A-7731", "Where is the nearest bakery?", "I live in Lisbon"]:
        await chat.achat(text)
    assert [e.text for e in engine.accepted("user:ana")] == ["My order id is A-7731"]   # only flushed turns
    assert [d.action.value for d in block.last_decisions] == ["append"]
    await chat.achat("what is my order id")
    assert "A-7731" in recorder.system()                                      # rendered by Memory as a system block
    assert "<tarl_memory>" in recorder.system()


async def test_llm_extractor_and_session_id_is_ignored(engine, recorder):
    recorder.script = lambda messages, kw: ChatMessage(role="assistant", content="- Ana has a dog called Pixel\nNONE")
    block = TarlMemoryBlock(engine, namespace="user:ana", extractor=recorder.llm)
    turn = [ChatMessage(role="user", content="we got a puppy, Pixel!"), ChatMessage(role="assistant", content="Cute!")]
    await block.aput(turn, from_short_term_memory=True, session_id="s1")      # as Memory calls it
    assert [e.text for e in engine.accepted("user:ana")] == ["Ana has a dog called Pixel"]
    assert "we got a puppy, Pixel!" in recorder.seen()                         # the extractor saw the whole turn
    assert "session_id" not in recorder.seen()


def test_sync_callable_extractor_with_dicts_and_claims(engine):
    def extract(messages):
        return ["Ana likes jazz", {"text": "Ana's sister is Rita", "slot": "sister"},
                Claim(text="Ana works at Nordlys", namespace="user:ana", source="tool")]

    block = TarlMemoryBlock(engine, namespace="user:ana", extractor=extract)
    decisions = block.remember([ChatMessage(role="user", content="anything")])
    assert [d.action.value for d in decisions] == ["append"] * 3
    assert engine.by_slot("user:ana", "sister")[0].text == "Ana's sister is Rita"
    assert {e.source for e in engine.accepted("user:ana")} == {"user", "tool"}


async def test_async_extractor(engine):
    async def extract(messages):
        return [m.content.upper() for m in messages]

    block = TarlMemoryBlock(engine, namespace="n", extractor=extract)
    await block.aremember([ChatMessage(role="user", content="ana owns a red bike")])
    assert [e.text for e in engine.accepted("n")] == ["ANA OWNS A RED BIKE"]


async def test_truncation_drops_least_relevant_memories_first(engine):
    block = TarlMemoryBlock(engine, namespace="n")
    text = "- best match here\n- second one\n- least relevant memory"
    assert await block.atruncate(text, 3) == "- best match here\n- second one"
    assert await block.atruncate(text, 100) is None
    await engine.awrite_many([{"text": f"Ana visited city number {i} in spring", "namespace": "n"} for i in range(6)])
    memory = Memory.from_defaults(session_id="t", token_limit=30, tokenizer_fn=str.split,
                                  memory_blocks=[TarlMemoryBlock(engine, namespace="n", priority=1)])
    await memory.aput(ChatMessage(role="user", content="which cities did Ana visit"))
    got = await memory.aget()
    rendered = "\n".join(m.content or "" for m in got)
    assert 0 < rendered.count("- Ana visited") < 5                          # cut to fit, not dropped whole
    assert got[-1].content == "which cities did Ana visit"


def test_tarl_memory_accepts_a_llamaindex_embedding(hash_embedding, recorder):
    memory = TarlMemory.from_defaults(namespace="n", embed_model=hash_embedding, session_id="s")
    SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory).chat("My bike is a red Gazelle")
    assert memory.engine.index.embedder.name.startswith("HashEmbedding")
    hit = memory.as_retriever(top_k=1).retrieve("which bike do I have")[0]
    assert hit.node.get_content() == "My bike is a red Gazelle" and hit.node.metadata["ledger"] == Ledger.ACCEPTED.value
    memory.engine.close()


async def test_truncation_accepts_what_memory_passes_for_an_empty_block(engine):
    """``Memory`` passes ``[]`` for a block that returned nothing (``_truncate_memory_blocks``)."""
    block = TarlMemoryBlock(engine, namespace="nobody", priority=1)
    assert await block.atruncate([], 10) is None
    static = StaticMemoryBlock(name="profile", static_content="word " * 60, priority=2)
    memory = Memory.from_defaults(session_id="s", token_limit=50, tokenizer_fn=str.split, memory_blocks=[block, static])
    await memory.aput(ChatMessage(role="user", content="hello there"))
    assert (await memory.aget())[-1].content == "hello there"
    long_first = Memory.from_defaults(session_id="t", token_limit=100, tokenizer_fn=str.split, memory_blocks=[block])
    long_first.put(ChatMessage(role="user", content="Please summarise this report: " + "lorem ipsum " * 100))
    assert [m.role.value for m in long_first.get()] == ["user"]
