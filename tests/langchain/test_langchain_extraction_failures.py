"""Extraction is best effort: whatever the extractor does after the reply (a provider error, a reply the
schema refuses, prose instead of structured output), the user's turn succeeds and is checkpointed, the
failure is logged by name, and nothing of that turn is stored. A reply that carries the facts as JSON
text is used."""

from __future__ import annotations

import logging

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver
from langchain_tarl.testing import ScriptedToolModel, call, scripted
from shared_core.extraction import ExtractedFacts

from langchain_tarl import TarlMemoryMiddleware

NS = ("memories", "alice")
TURN = "I drive a Tesla."


class RateLimited(ScriptedToolModel):
    """A provider that fails every call, as a 429 does."""

    def _generate(self, *args, **kwargs):
        raise RuntimeError("429 Too Many Requests")

    async def _agenerate(self, *args, **kwargs):
        raise RuntimeError("429 Too Many Requests")


def run(store, extractor, mode):
    agent = create_agent(scripted(AIMessage("Nice car!")), store=store, checkpointer=InMemorySaver(),
                         middleware=[TarlMemoryMiddleware(namespace=NS, extractor=extractor, with_tools=False)])
    config = {"configurable": {"thread_id": "t"}}
    request = {"messages": [HumanMessage(TURN)]}
    return agent, config, (agent.invoke(request, config) if mode == "sync" else agent.ainvoke(request, config))


async def turn(store, extractor, mode):
    agent, config, out = run(store, extractor, mode)
    out = out if mode == "sync" else await out
    assert out["messages"][-1].content == "Nice car!"                   # the user's turn succeeded
    saved = agent.get_state(config).values["messages"]
    assert [m.content for m in saved] == [TURN, "Nice car!"]
    return [i.value["text"] for i in store.search(NS)]


FAILING = {
    "provider error": lambda: RateLimited(messages=iter([])),
    "schema refuses the reply": lambda: scripted(call(ExtractedFacts.__name__, "x", facts=[
        {"text": "The user drives a Tesla", "source": "user", "confidence": "very sure"}])),
    "prose, not structured output": lambda: scripted(AIMessage("There are no durable facts.")),
    "malformed tool arguments": lambda: scripted(AIMessage("", invalid_tool_calls=[{
        "name": ExtractedFacts.__name__, "args": '{"facts": [', "id": "x", "error": "bad JSON",
        "type": "invalid_tool_call"}])),
}


@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("case", list(FAILING))
async def test_a_failed_extraction_never_fails_the_turn_and_stores_nothing(store, case, mode, caplog):
    caplog.set_level(logging.WARNING, logger="langchain_tarl.memory_middleware")
    assert await turn(store, FAILING[case](), mode) == []
    [record] = [r for r in caplog.records if r.name == "langchain_tarl.memory_middleware"]
    assert record.levelno == logging.WARNING
    named = {"provider error": "RuntimeError: 429 Too Many Requests", "schema refuses the reply": "confidence='very sure'",
             "prose, not structured output": "There are no durable facts.",
             "malformed tool arguments": "not structured output: ''"}[case]
    assert named in record.getMessage()
    assert store.engine.log() == []


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_facts_given_as_json_text_are_stored(store, mode):
    extractor = scripted(AIMessage('{"facts": [{"text": "The user drives a Tesla", "source": "user", '
                                   '"slot": "user.car"}]}'))
    assert await turn(store, extractor, mode) == ["The user drives a Tesla"]
    assert store.get(NS, "user.car").value["source"] == "user"
