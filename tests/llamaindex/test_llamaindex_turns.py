"""A turn that cannot become memories never fails the chat: it is skipped as a memory, with a warning, and
the turn closes as it does with LlamaIndex's own ``Memory``."""

from __future__ import annotations

import json
import logging

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.memory import Memory

from llamaindex_tarl import TarlMemory, TarlMemoryBlock
from shared_core import TarlError

PASTE = "Here are my notes: " + "we discussed the roadmap and the budget. " * 220     # over 8,000 characters
WARNED = "llamaindex_tarl"


def _roles(memory) -> list[str]:
    return [m.role.value for m in memory.get_all()]


def test_a_long_paste_is_skipped_as_a_memory_and_the_session_goes_on(engine, recorder, caplog):
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="s")
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory)
    with caplog.at_level(logging.WARNING, logger=WARNED):
        assert str(chat.chat(PASTE)) == "Noted."
    assert "9038 characters" in caplog.text and "8000" in caplog.text
    assert _roles(memory) == ["user", "assistant"]                     # the turn closed
    assert str(chat.chat("I live in Porto.")) == "Noted."
    assert PASTE not in recorder.seen() or recorder.seen().count(PASTE) == 1   # not re-sent as a new turn
    assert [e.text for e in engine.accepted("u")] == ["I live in Porto."]
    assert _roles(memory) == ["user", "assistant"] * 2


async def test_a_long_paste_in_an_agent_run(engine, recorder, caplog):
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="a")
    agent = FunctionAgent(tools=memory.tools(), llm=recorder.llm)
    with caplog.at_level(logging.WARNING, logger=WARNED):
        assert (await agent.run(user_msg=PASTE, memory=memory)).response.content == "Noted."
    assert "characters" in caplog.text
    assert (await agent.run(user_msg="Forget that. I live in Porto.", memory=memory)).response.content == "Noted."
    assert _roles(memory) == ["user", "assistant"] * 2
    assert [e.text for e in engine.accepted("u")] == ["I live in Porto."]          # "Forget that." is a request


def test_a_malformed_extractor_reply_keeps_the_answer(engine, recorder, updater, caplog):
    updater.script = lambda m, k: ChatMessage(role="assistant", content=json.dumps(
        {"facts": [{"fact": "The user lives in Lisbon", "source": "user", "slot": "user.home_city"}]}))    # no text
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="s", extractor=updater.llm)
    chat = SimpleChatEngine.from_defaults(llm=recorder.llm, memory=memory)
    with caplog.at_level(logging.WARNING, logger=WARNED):
        assert str(chat.chat("I live in Lisbon.")) == "Noted."
    assert "extractor=" in caplog.text and "does not parse" in caplog.text
    assert [(m.role.value, m.content) for m in memory.get_all()] == [("user", "I live in Lisbon."),
                                                                     ("assistant", "Noted.")]
    assert engine.log("u") == [] and memory.block.last_decisions == []


async def test_a_failing_extractor_is_a_tarl_error_when_asked_and_a_warning_in_a_chat(engine, caplog):
    def extract(messages):
        raise ConnectionError("extraction service down")

    block = TarlMemoryBlock(engine, namespace="u", extractor=extract)
    with pytest.raises(TarlError, match="extractor=.*ConnectionError: extraction service down"):
        await block.aremember([ChatMessage(role="user", content="I live in Lisbon.")])
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="s", extractor=extract)
    with caplog.at_level(logging.WARNING, logger=WARNED):
        await memory.aput_messages([ChatMessage(role="user", content="I live in Lisbon."),
                                    ChatMessage(role="assistant", content="Noted.")])
    assert "extraction service down" in caplog.text and _roles(memory) == ["user", "assistant"]


def test_a_flush_from_memory_never_raises(engine, caplog):
    block = TarlMemoryBlock(engine, namespace="u", priority=1)
    memory = Memory.from_defaults(session_id="s", token_limit=1000, tokenizer_fn=str.split, memory_blocks=[block])
    with caplog.at_level(logging.WARNING, logger=WARNED):
        for text in ["I live in Porto and my order id is A-7731.", PASTE, "Thanks!", "What's next"]:
            memory.put_messages([ChatMessage(role="user", content=text),
                                 ChatMessage(role="assistant", content="Noted.")])
    assert "characters" in caplog.text
    assert [e.text for e in engine.accepted("u")] == ["I live in Porto and my order id is A-7731."]

    failing = TarlMemoryBlock(engine, namespace="v", priority=1, extractor=lambda messages: ["fine", 7])
    memory = Memory.from_defaults(session_id="t", token_limit=20, tokenizer_fn=str.split, memory_blocks=[failing])
    with caplog.at_level(logging.WARNING, logger=WARNED):
        for i in range(4):
            memory.put_messages([ChatMessage(role="user", content=f"message number {i} " * 3),
                                 ChatMessage(role="assistant", content="Noted.")])
    assert "extractor[1]=7" in caplog.text and engine.log("v") == []
