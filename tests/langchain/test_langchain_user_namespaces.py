"""Per-user namespaces taken from the run's config, as LangGraph apps key their stores: one agent, two
users, several threads (InMemorySaver), sync and async; neither user ever sees the other's memories."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_tarl import TarlMemoryMiddleware
from langchain_tarl.testing import call, scripted
from shared_core.extraction import ExtractedFacts


def by_config(rt):
    return ("memories", rt.config["configurable"]["user_id"])


def shown(prompt) -> str:
    return "\n".join(m.text for m in prompt if isinstance(m, SystemMessage))


async def run(agent, mode, text, user, thread):
    request = {"messages": [HumanMessage(text)]}
    config = {"configurable": {"thread_id": thread, "user_id": user}}
    if mode == "sync":
        return agent.invoke(request, config)
    if mode == "async":
        return await agent.ainvoke(request, config)
    return [chunk async for chunk in agent.astream(request, config, stream_mode="updates")]


@pytest.mark.parametrize("mode", ["sync", "async", "astream"])
async def test_namespace_from_config_in_prompt_tools_and_extraction(store, mode):
    model = scripted(
        call("remember", "a1", fact="The user lives in Porto", source="user", slot="user.home_city"),
        AIMessage("Noted: Porto."),
        call("remember", "b1", fact="The user lives in Oslo", source="user", slot="user.home_city"),
        AIMessage("Noted: Oslo."),
        AIMessage("You live in Porto."),
        AIMessage("You live in Oslo."),
    )
    extractor = scripted(*[call(ExtractedFacts.__name__, f"x{i}", facts=[]) for i in range(2)],
                         call(ExtractedFacts.__name__, "x3",
                              facts=[{"text": "The user has a cat named Miso", "source": "user"}]),
                         call(ExtractedFacts.__name__, "x4", facts=[]))
    agent = create_agent(model, store=store, checkpointer=InMemorySaver(),
                         middleware=[TarlMemoryMiddleware(namespace=by_config, extractor=extractor)])
    await run(agent, mode, "I moved to Porto", "alice", "alice-1")
    await run(agent, mode, "I moved to Oslo", "bob", "bob-1")
    await run(agent, mode, "Where do I live? My cat Miso says hi", "alice", "alice-2")   # a new thread
    await run(agent, mode, "Where do I live?", "bob", "bob-2")

    alice, bob = shown(model.prompts[4]), shown(model.prompts[5])
    assert "Porto" in alice and "Oslo" not in alice
    assert "Oslo" in bob and "Porto" not in bob and "Miso" not in bob
    assert store.get(("memories", "alice"), "user.home_city").value["text"] == "The user lives in Porto"
    assert store.get(("memories", "bob"), "user.home_city").value["text"] == "The user lives in Oslo"
    assert [i.value["text"] for i in store.search(("memories", "alice"), query="cat")][:1] == [
        "The user has a cat named Miso"]
    assert all("Miso" not in i.value["text"] for i in store.search(("memories", "bob"), limit=20))


def test_a_context_namespace_still_gets_the_runtime_it_asked_for(store):
    seen = []

    def by_context(rt):
        seen.append(rt.context["user_id"])
        return ("memories", rt.context["user_id"])

    store.put(("memories", "carol"), "user.diet", {"text": "The user is vegan", "source": "user"})
    model = scripted(AIMessage("Vegan options, then."))
    agent = create_agent(model, store=store, middleware=[TarlMemoryMiddleware(namespace=by_context)],
                         context_schema=dict)
    agent.invoke({"messages": [HumanMessage("What should I eat?")]}, context={"user_id": "carol"})
    assert seen == ["carol"] and "The user is vegan" in shown(model.prompts[0])
