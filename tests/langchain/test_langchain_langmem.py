"""langmem's manage/search memory tools work on TarlStore unchanged (langmem 0.0.30 from the registry)."""

from __future__ import annotations

import json

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_tarl.testing import call, scripted
from shared_core import Action, Reason

langmem = pytest.importorskip("langmem")

NS = ("memories", "alice")


def created_id(reply: str) -> str:
    assert reply.startswith("created memory "), reply
    return reply.removeprefix("created memory ")


def test_manage_and_search_tools_direct(store):
    manage = langmem.create_manage_memory_tool(namespace=NS, store=store)
    search = langmem.create_search_memory_tool(namespace=NS, store=store)
    mid = created_id(manage.invoke({"content": "The user lives in Lisbon"}))
    assert store.get(NS, mid).value == {"content": "The user lives in Lisbon"}
    assert manage.invoke({"content": "The user lives in Porto", "action": "update", "id": mid}) == f"updated memory {mid}"
    [tx_create, tx_update] = store.engine.log("memories.alice")
    assert (tx_create.action, tx_update.action) == (Action.APPEND, Action.REVISE)
    found = json.loads(search.invoke({"query": "where does the user live"}))
    assert [(m["key"], m["value"]["content"]) for m in found] == [(mid, "The user lives in Porto")]
    assert manage.invoke({"action": "delete", "id": mid}) == f"Deleted memory {mid}"
    assert json.loads(search.invoke({"query": "Alice"})) == []
    assert {e.text: e.reason for e in store.engine.history("memories.alice")} == {
        "The user lives in Lisbon": Reason.SUPERSEDED, "The user lives in Porto": Reason.RETRACTED}


async def test_manage_and_search_tools_async(store):
    manage = langmem.create_manage_memory_tool(namespace=NS, store=store)
    search = langmem.create_search_memory_tool(namespace=NS, store=store)
    mid = created_id(await manage.ainvoke({"content": "Alice keeps bees"}))
    found = json.loads(await search.ainvoke({"query": "bees"}))
    assert [m["key"] for m in found] == [mid]


def test_tools_find_the_store_inside_an_agent(store):
    """No store passed to the tools: langmem resolves it with get_store(), i.e. create_agent(store=...)."""
    tools = [langmem.create_manage_memory_tool(namespace=NS), langmem.create_search_memory_tool(namespace=NS)]
    model = scripted(
        call("manage_memory", "m1", content="Alice is allergic to peanuts"),
        call("search_memory", "s1", query="allergies"),
        AIMessage("You are allergic to peanuts."),
    )
    agent = create_agent(model, tools=tools, store=store)
    out = agent.invoke({"messages": [HumanMessage("Remember I'm allergic to peanuts, then check.")]})
    replies = [m.content for m in out["messages"] if isinstance(m, ToolMessage)]
    assert replies[0].startswith("created memory ")
    assert json.loads(replies[1])[0]["value"] == {"content": "Alice is allergic to peanuts"}
    assert [e.text for e in store.engine.accepted("memories.alice")] == ["Alice is allergic to peanuts"]
