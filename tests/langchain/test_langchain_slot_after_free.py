"""The memory tools' slotted facts are grounded against the whole namespace: an agent that remembered a
fact without a slot and its change with one (models name slots unevenly) leaves one current value."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_tarl import TarlMemoryMiddleware
from langchain_tarl.testing import call, scripted
from shared_core import Action, Reason

NS = ("memories", "alice")


def turn(store, text, *calls):
    model = scripted(*[call("remember", f"c{i}", **args) for i, args in enumerate(calls)], AIMessage("Noted."))
    agent = create_agent(model, store=store, middleware=[TarlMemoryMiddleware(namespace=NS)],
                         checkpointer=InMemorySaver())
    agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "t"}})
    return model


@pytest.mark.parametrize(("first", "then", "slot"), [
    ("The user lives in Lisbon", "The user lives in Berlin", "user.home_city"),
    ("The user's manager is Dana Kim", "The user's manager is Luis Ortega", "user.manager"),
])
def test_a_slotted_change_revises_the_same_fact_stored_without_a_slot(store, first, then, slot):
    turn(store, first.replace("The user", "I").replace("lives", "live"), {"fact": first, "source": "user"})
    turn(store, then.replace("The user", "I"), {"fact": then, "source": "user", "slot": slot})
    assert [i.value["text"] for i in store.search(NS, query=then)] == [then]
    assert store.get(NS, slot).value["text"] == then
    [old] = store.engine.history("memories.alice")
    assert old.text == first and old.reason is Reason.SUPERSEDED
    model = turn(store, "What do you know about me?")
    shown = "\n".join(m.text for m in model.prompts[0] if isinstance(m, SystemMessage))
    assert then in shown and first not in shown


def test_distinct_ids_and_further_values_still_stay_apart(store):
    turn(store, "I love sushi", {"fact": "The user loves sushi", "source": "user"})
    turn(store, "and ramen", {"fact": "The user loves ramen", "source": "user", "slot": "user.liked_foods", "many": True})
    turn(store, "Order A-1001 shipped",
         {"fact": "Order A-1001 has shipped", "source": "user", "slot": "order_a1001.status"})
    turn(store, "Order A-1002 is pending",
         {"fact": "Order A-1002 is pending", "source": "user", "slot": "order_a1002.status"})
    assert sorted(i.value["text"] for i in store.search(NS, limit=10)) == [
        "Order A-1001 has shipped", "Order A-1002 is pending", "The user loves ramen", "The user loves sushi"]


async def test_add_with_a_key_is_a_keyed_write_grounded_on_the_namespace(store):
    store.add(NS, {"text": "I prefer dark mode", "source": "user"})
    d = await store.aadd(NS, {"text": "The user prefers light mode", "source": "user"}, key="user.ui_theme")
    assert d.action is Action.REVISE
    again = store.add(NS, {"text": "The user prefers dark mode", "source": "user"}, key="user.ui_theme")
    assert again.action is Action.REVISE          # a changed value of the key is never dropped
    assert [i.value["text"] for i in store.search(NS)] == ["The user prefers dark mode"]
    assert store.get(NS, "user.ui_theme").value["text"] == "The user prefers dark mode"
