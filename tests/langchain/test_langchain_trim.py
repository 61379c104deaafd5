"""LRETrimMiddleware: LRE keeps a load-bearing detail that FIFO trimming drops, tool pairs stay whole."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.messages.utils import count_tokens_approximately, trim_messages
from langgraph.checkpoint.memory import InMemorySaver
from langchain_tarl.testing import call, scripted
from shared_core import TarlError

from langchain_tarl import LRETrimMiddleware

TOKEN = "tk-9f83-ZQ71-ab22"
TOPICS = ["gardening", "jazz", "hiking", "baking bread", "chess openings", "bird watching", "pottery", "astronomy"]
BUDGET = 2048


def chat_turns(n: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    first = f"My access token for the billing API is {TOKEN}. Use it whenever I ask you to call the API."
    rest = [f"Let's chat about {t} for a bit. What is a good tip for a beginner who enjoys {t} on weekends?"
            for t in (rng.choice(TOPICS) for _ in range(n - 2))]
    return [first, *rest, "Please call the billing API now with my token."]


def reply(i: int) -> AIMessage:
    return AIMessage(f"Here is a thought for turn {i}: start small, be patient and practise regularly; "
                     "progress comes with time, curiosity and a little help from friends.")


def has_token(messages: list[BaseMessage]) -> bool:
    return any(TOKEN in m.text for m in messages)


def test_token_from_turn_one_survives_200_turns_at_2048_tokens_while_fifo_drops_it():
    turns = chat_turns(200)
    model = scripted(*(reply(i) for i in range(len(turns))))
    agent = create_agent(model, system_prompt="You are a helpful assistant.",
                         middleware=[LRETrimMiddleware(budget=BUDGET)], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "long"}}
    for text in turns:
        state = agent.invoke({"messages": [HumanMessage(text)]}, config)
    history = state["messages"][:-1]                                   # what the last model call was given
    assert len(history) == 399 and count_tokens_approximately(history) > 4 * BUDGET
    seen = model.prompts[-1]
    assert has_token(seen)                                             # LRE kept the first turn
    fresh = LRETrimMiddleware(budget=BUDGET).trim(history, seen[0])
    assert [m.content for m in fresh] == [m.content for m in seen[1:]]  # per-thread streaming = a cold trim
    assert seen[-1].content == turns[-1] and isinstance(seen[0], SystemMessage)
    assert count_tokens_approximately(seen) <= BUDGET * 1.1            # the approximations differ slightly
    assert state["messages"] == history + [state["messages"][-1]]      # view only: the saved history is whole
    fifo = trim_messages(history, max_tokens=BUDGET, token_counter=count_tokens_approximately,
                         strategy="last", start_on="human")
    assert fifo and not has_token(fifo)                                # FIFO dropped it


async def test_async_path_trims_too():
    turns = chat_turns(60, seed=1)
    model = scripted(*(reply(i) for i in range(len(turns))))
    agent = create_agent(model, middleware=[LRETrimMiddleware(budget=512)], checkpointer=InMemorySaver())
    for text in turns:
        await agent.ainvoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "a"}})
    assert len(model.prompts[-1]) < 2 * len(turns) - 1 and has_token(model.prompts[-1])


def test_rewrite_history_replaces_the_saved_messages():
    turns = chat_turns(40, seed=2)
    model = scripted(*(reply(i) for i in range(len(turns))))
    agent = create_agent(model, middleware=[LRETrimMiddleware(budget=400, rewrite_history=True)],
                         checkpointer=InMemorySaver())
    for text in turns:
        state = agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": "r"}})
    assert len(state["messages"]) < 2 * len(turns)
    assert has_token(state["messages"]) and state["messages"][-2].content == turns[-1]
    assert [len(p) for p in model.prompts[-1:]] == [len(state["messages"]) - 1]


def tool_history(n_rounds: int, sizes: list[int]) -> list[BaseMessage]:
    out: list[BaseMessage] = [ToolMessage("orphan result", tool_call_id="gone")]      # can happen after a cut
    for i in range(n_rounds):
        out.append(HumanMessage(f"question {i} " + "word " * sizes[i % len(sizes)]))
        if i % 2:
            out.append(AIMessage("", tool_calls=[{"name": "lookup", "args": {"q": i}, "id": f"c{i}", "type": "tool_call"},
                                                 {"name": "lookup", "args": {"q": -i}, "id": f"d{i}", "type": "tool_call"}]))
            out += [ToolMessage(f"result {i} " + "x " * sizes[0], tool_call_id=f"c{i}"),
                    ToolMessage(f"result -{i}", tool_call_id=f"d{i}")]
        out.append(AIMessage(f"answer {i}"))
    return out


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 25), sizes=st.lists(st.integers(0, 60), min_size=1, max_size=5),
       budget=st.integers(0, 800), keep_last=st.integers(0, 4))
def test_kept_messages_are_an_ordered_subset_with_whole_tool_pairs(n, sizes, budget, keep_last):
    history = tool_history(n, sizes)
    kept = LRETrimMiddleware(budget=budget, keep_last=keep_last).trim(history)
    positions = [next(i for i, h in enumerate(history) if h is m) for m in kept]
    assert positions == sorted(positions)                              # originals, in order
    assert not kept or not isinstance(kept[0], ToolMessage)             # never starts on a tool result
    assert kept == history[1:] or starts_on_human(kept)                 # a trimmed view starts on a human turn
    calls = {c["id"]: m for m in kept if isinstance(m, AIMessage) for c in m.tool_calls}
    results = {m.tool_call_id for m in kept if isinstance(m, ToolMessage)}
    assert results == set(calls)                                       # every call with all its results


@pytest.mark.parametrize(("kwargs", "field"), [({"budget": -1}, "budget"), ({"keep_last": -3}, "keep_last"),
                                               ({"budget": True}, "budget")])
def test_bad_arguments_are_refused(kwargs, field):
    with pytest.raises(TarlError, match=field):
        LRETrimMiddleware(**kwargs)


def starts_on_human(messages: list[BaseMessage]) -> bool:
    rest = [m for m in messages if not isinstance(m, SystemMessage)]
    return not rest or isinstance(rest[0], HumanMessage)


def whole_tool_pairs(messages: list[BaseMessage]) -> bool:
    calls = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls}
    return calls == {m.tool_call_id for m in messages if isinstance(m, ToolMessage)}


def lookup_agent(budget: int, rewrite_history: bool):
    from langchain_core.tools import tool

    @tool
    def lookup(q: str) -> str:
        """Look something up."""
        return f"result for {q} " + "data " * 30

    replies = [r for i in range(12)
               for r in (call("lookup", f"L{i}", q=f"thing {i}"), AIMessage(f"answer {i} " + "word " * 30))]
    model = scripted(*replies)
    agent = create_agent(model, [lookup], system_prompt="sys", checkpointer=InMemorySaver(),
                         middleware=[LRETrimMiddleware(budget=budget, rewrite_history=rewrite_history)])
    for i in range(12):
        state = agent.invoke({"messages": [HumanMessage(f"question {i} " + "please " * 20)]},
                             {"configurable": {"thread_id": "t"}})
    return model, state


@pytest.mark.parametrize("rewrite_history", [False, True])
@pytest.mark.parametrize("budget", [150, 250, 300, 500])
def test_the_trimmed_history_starts_on_a_human_message(budget, rewrite_history):
    """As trim_messages(start_on="human") recommends: providers refuse or misread a history that opens
    with an assistant turn or a tool result."""
    model, state = lookup_agent(budget, rewrite_history)
    assert len(model.prompts) == 24
    assert all(starts_on_human(p) and whole_tool_pairs(p) for p in model.prompts)
    assert starts_on_human(state["messages"]) and whole_tool_pairs(state["messages"])
    if rewrite_history:
        assert len(state["messages"]) < 48
    else:
        assert len(state["messages"]) == 48                              # view only: the saved history is whole


def test_a_long_tool_loop_keeps_the_question_it_answers():
    """The recent window holds only tool rounds: the view starts on the question they answer."""
    history: list[BaseMessage] = [HumanMessage("an old question"), AIMessage("an old answer"),
                                  HumanMessage("look up ten things")]
    for i in range(10):
        history += [call("lookup", f"c{i}", q=i), ToolMessage(f"result {i} " + "x " * 40, tool_call_id=f"c{i}")]
    kept = LRETrimMiddleware(budget=120, keep_last=2).trim(history)
    assert kept[0] is history[2] and kept[-4:] == history[-4:] and whole_tool_pairs(kept)


def test_a_history_that_fits_is_sent_as_it_is():
    history = [AIMessage("Hi! How can I help?"), HumanMessage("hello")]
    assert LRETrimMiddleware(budget=500).trim(history) == history
