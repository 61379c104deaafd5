""""Forget my address": the middleware's forget tool retracts the memory the model names (its slot, its
text, or a line copied from <memories>); it is no longer served, and History keeps it."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver

from langchain_tarl import TarlMemoryMiddleware
from langchain_tarl.testing import call, scripted
from shared_core import Reason

NS = ("memories", "alice")


async def turn(store, text, *calls, mode="sync"):
    model = scripted(*[call(name, f"c{i}", **args) for i, (name, args) in enumerate(calls)], AIMessage("Done."))
    agent = create_agent(model, store=store, middleware=[TarlMemoryMiddleware(namespace=NS)],
                         checkpointer=InMemorySaver())
    request, config = {"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "t"}}
    out = agent.invoke(request, config) if mode == "sync" else await agent.ainvoke(request, config)
    return model, [m.content for m in out["messages"] if isinstance(m, ToolMessage)]


def seed(store):
    store.put(NS, "user.address", {"text": "The user's address is 14 Larch Rd", "source": "user"})
    store.add(NS, {"text": "The user has two cats, Miso and Tofu", "source": "user"})
    for food in ("sushi", "ramen"):
        store.add(NS, {"text": f"The user likes {food}", "source": "user", "many": True}, key="user.liked_foods")
    foods = ["The user likes ramen", "The user likes sushi"]    # a further value of a many-valued key, for every policy
    assert sorted(i.value["text"] for i in store.search(NS, limit=10) if i.key == "user.liked_foods") == foods


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_forget_by_slot_by_text_and_by_a_copied_line(store, mode):
    seed(store)
    food = "sushi"
    _, replies = await turn(store, f"Forget my address, and that I like {food}; the cats too",
                            ("forget", {"memory": "user.address"}),
                            ("forget", {"memory": f"- The user likes {food} (slot: user.liked_foods)"}),
                            ("forget", {"memory": "the user has two cats,  Miso and Tofu"}), mode=mode)
    said = "forgotten (no longer recalled; kept in memory's history): "
    assert replies == [said + "The user's address is 14 Larch Rd", said + f"The user likes {food}",
                       said + "The user has two cats, Miso and Tofu"]
    left = ["The user likes ramen"]                  # only the value named, not the slot's others
    assert [i.value["text"] for i in store.search(NS, limit=10)] == left
    assert store.get(NS, "user.address") is None
    retracted = {e.text for e in store.engine.history("memories.alice") if e.reason is Reason.RETRACTED}
    assert retracted == {"The user's address is 14 Larch Rd", f"The user likes {food}", "The user has two cats, Miso and Tofu"}
    model, _ = await turn(store, "What is my address?", mode=mode)
    shown = "\n".join(m.text for m in model.prompts[0] if isinstance(m, SystemMessage))
    assert "Larch" not in shown and "Miso" not in shown and "ramen" in shown


@pytest.mark.parametrize(("memory", "reply"), [
    ("user.shoe_size", "not forgotten: no memory has the slot or text 'user.shoe_size'; recall it and pass"),
    ("The user lives in Larch Rd", "not forgotten: no memory has the slot or text"),
    ("", "not forgotten: memory='': must be a memory's slot or its exact text"),
    (None, "Error invoking tool 'forget' with kwargs {'memory': None} with error:\n memory: Input should be a valid string"),
])
async def test_forget_what_is_not_there_says_so_and_retracts_nothing(store, memory, reply):
    seed(store)
    before = len(store.engine.log())
    _, [answer] = await turn(store, "forget it", ("forget", {"memory": memory}))
    assert answer.startswith(reply)
    assert len(store.engine.log()) == before and len(store.search(NS, limit=10)) == 4
