"""langmem's manage/search memory tools work on TarlStore unchanged (langmem 0.0.30 from the registry)."""

from __future__ import annotations

import json

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_tarl.testing import call, scripted
from shared_core import Action, Ledger, Reason

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


def truthful(store, ns=NS):
    from langchain_tarl.langmem_tools import manage_memory_tool

    return manage_memory_tool(ns, store=store)


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_langmem_reports_the_truth(store, mode):
    """Every reply of the manage tool matches what the store holds afterwards."""
    manage = truthful(store)

    async def run(args):
        return manage.invoke(args) if mode == "sync" else await manage.ainvoke(args)

    said = await run({"content": "The user lives in Porto"})
    mid = said.split()[2]
    assert said.startswith(f"created memory {mid} (remembered")
    assert store.get(NS, mid).value == {"content": "The user lives in Porto"}
    said = await run({"content": "The user lives in Porto", "action": "update", "id": mid})
    assert said.startswith(f"updated memory {mid} (already known")
    said = await run({"content": "The user lives in Braga", "action": "update", "id": mid})
    assert said.startswith(f"updated memory {mid} (remembered; the memory it updates was moved to history")
    assert store.get(NS, mid).value["content"] == "The user lives in Braga"
    said = await run({"content": "maybe the user lives in Rome", "action": "update", "id": mid})
    assert said.startswith((f"memory {mid} was held for verification", f"memory {mid} was not remembered"))
    assert store.get(NS, mid).value["content"] == "The user lives in Braga"    # and the reply did not say otherwise
    assert store.versions(NS, mid)[0].entry.ledger is not Ledger.ACCEPTED
    assert (await run({"action": "delete", "id": mid})) == f"Deleted memory {mid}"


def test_plain_langmem_on_the_default_store_is_truthful_for_creates_and_same_source_updates(store):
    manage = langmem.create_manage_memory_tool(namespace=NS, store=store)
    for i in range(5):
        mid = created_id(manage.invoke({"content": f"Order {i} ships to warehouse {i}"}))
        assert store.get(NS, mid).value == {"content": f"Order {i} ships to warehouse {i}"}   # keys independent
        assert manage.invoke({"content": f"Order {i} ships to warehouse {i + 10}", "action": "update", "id": mid}) \
            == f"updated memory {mid}"
        assert store.get(NS, mid).value == {"content": f"Order {i} ships to warehouse {i + 10}"}
