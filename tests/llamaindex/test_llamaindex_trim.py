"""LRE trimming of LlamaIndex chat history: the core's units, order kept, budget respected, details survive."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.memory import ChatMemoryBuffer, Memory

from llamaindex_tarl import TarlMemory, trim_history
from llamaindex_tarl.messages import role_of, text_of
from shared_core.lre import MESSAGE_OVERHEAD, count_tokens

ORDER_ID = "ORD-58213-KX"
TOPICS = ["a new pasta recipe", "the weather this weekend", "a podcast about history", "my running plan",
          "which novel to read next", "the football match", "houseplants that need little light", "a trip to the coast",
          "learning to play the guitar", "a birthday present for my sister", "how to stretch after work",
          "a documentary about oceans"]
OPENERS = ["I was wondering about", "Can you tell me more about", "Let's talk about", "What do you think of",
           "I've been reading about", "Give me a few ideas on"]
REPLIES = ["That sounds lovely; here are a few thoughts you might enjoy exploring further.",
           "Good question. Many people find it helps to start small and build a routine slowly over time.",
           "Sure, there is a lot to say about that, so let me share the main points briefly and clearly.",
           "I'd suggest keeping it simple at first and seeing what you enjoy most before going deeper."]


def conversation(turns: int = 200, seed: int = 0, order_turn: int = 0) -> list[ChatMessage]:
    rng = random.Random(seed)
    messages: list[ChatMessage] = []
    for t in range(turns):
        if t == order_turn:
            messages += [ChatMessage(role="user", content=f"Hi, my order {ORDER_ID} has not arrived and I need it soon."),
                         ChatMessage(role="assistant", content="Sorry to hear that. I will look into the delivery.")]
            continue
        messages.append(ChatMessage(role="user", content=f"{rng.choice(OPENERS)} {rng.choice(TOPICS)}, "
                                                         f"and {rng.choice(OPENERS).lower()} {rng.choice(TOPICS)}?"))
        messages.append(ChatMessage(role="assistant", content=" ".join(rng.sample(REPLIES, 2))))
    return messages


def tokens(messages: list[ChatMessage]) -> int:
    return sum(count_tokens(text_of(m)) + MESSAGE_OVERHEAD for m in messages)


@pytest.mark.parametrize("order_turn", [0, 120])
def test_order_id_survives_200_turns_at_2048_tokens_fifo_loses_it(order_turn):
    history = conversation(200, order_turn=order_turn)
    assert tokens(history) > 4 * 2048
    memory = TarlMemory.from_defaults(namespace="user:trim", token_limit=2048, chat_history=history)
    kept = memory.get()                               # set() writes no claims: this is history alone
    assert any(ORDER_ID in (m.content or "") for m in kept)
    assert tokens(kept) <= 2048 and kept[0].role.value == "user"
    assert kept[-2:] == history[-2:]                  # the latest turn is always there
    memory.engine.close()

    counter = lambda text: range(count_tokens(text))  # noqa: E731  the same counter for FIFO
    fifo = ChatMemoryBuffer.from_defaults(chat_history=history, token_limit=2048, tokenizer_fn=counter).get()
    assert not any(ORDER_ID in (m.content or "") for m in fifo)


async def test_llamaindex_memory_fifo_loses_it_too():
    memory = Memory.from_defaults(session_id="fifo", token_limit=2048, token_flush_size=300,
                                  chat_history_token_ratio=1.0, tokenizer_fn=lambda t: range(count_tokens(t)))
    await memory.aput_messages(conversation(200))
    assert not any(ORDER_ID in (m.content or "") for m in await memory.aget())
    tarl = TarlMemory.from_defaults(namespace="user:trim", token_limit=2048)
    await tarl.aset(conversation(200))
    assert any(ORDER_ID in (m.content or "") for m in await tarl.aget())
    tarl.engine.close()


# -- invariants over arbitrary histories with tool calls -----------------------------------------------
WORDS = st.sampled_from(["order", "A-7731", "lisbon", "ok", "thanks", "error 500", "the", "ticket", "42", "why?"])
TEXT = st.lists(WORDS, min_size=1, max_size=30).map(" ".join)


@st.composite
def histories(draw) -> list[ChatMessage]:
    messages: list[ChatMessage] = []
    if draw(st.booleans()):
        messages.append(ChatMessage(role="assistant", content=draw(TEXT)))       # a greeting before any user
    for t in range(draw(st.integers(1, 25))):
        messages.append(ChatMessage(role="user", content=draw(TEXT)))
        for c in range(draw(st.integers(0, 2))):
            call = ToolCallBlock(tool_call_id=f"{t}-{c}", tool_name="lookup", tool_kwargs={"q": draw(TEXT)})
            messages.append(ChatMessage(role="assistant", blocks=[call]))
            messages.append(ChatMessage(role="tool", content=draw(TEXT), additional_kwargs={"tool_call_id": f"{t}-{c}"}))
        messages.append(ChatMessage(role="assistant", content=draw(TEXT)))
    return messages


@settings(max_examples=60, deadline=None)
@given(histories(), st.integers(0, 600), st.integers(0, 3))
def test_trim_is_the_cores_trim_on_the_cores_units(messages, budget, keep_last):
    """Same answer as ``shared_core.lre.trim`` on the neutral messages (the units its scorer was trained
    on); originals, in order; a tool call never without its results; within budget unless the recent
    window alone exceeds it."""
    from shared_core.lre import trim, units_from_messages

    from llamaindex_tarl.messages import as_message

    kept = trim_history(messages, budget, keep_last=keep_last)
    index = [next(i for i, m in enumerate(messages) if m is k) for k in kept]
    assert index == sorted(set(index))
    neutral = [as_message(m) for m in messages]
    assert index == [next(j for j, n in enumerate(neutral) if n is k) for k in trim(neutral, budget, keep_last=keep_last)]
    for unit in units_from_messages(messages, as_message=as_message):
        inside = [i in index for i in range(unit.start, unit.stop)]
        assert all(inside) or not any(inside)                           # a unit is kept whole or not at all
    units = units_from_messages(messages, as_message=as_message)
    recent = [u for u in units if u.kind != "orphan"][-keep_last:] if keep_last else []
    assert all(i in index for u in recent for i in range(u.start, u.stop))
    recent_cost = sum(u.tokens for u in recent) + sum(u.tokens for u in units if u.kind == "system")
    assert tokens(kept) <= max(budget, recent_cost)


def test_openai_style_tool_calls_are_counted_and_keep_the_turn_open():
    from llamaindex_tarl.messages import ends_turn, last_turn

    call = ChatMessage(role="assistant", content="", additional_kwargs={"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "track", "arguments": '{"order": "A-7731"}'}}]})
    result = ChatMessage(role="tool", content="in transit", additional_kwargs={"tool_call_id": "c1"})
    answer = ChatMessage(role="assistant", content="It is in transit.")
    history = [ChatMessage(role="assistant", content="Hi!"), ChatMessage(role="user", content="where is it?"),
               call, result, answer]
    assert text_of(call) == 'track({"order": "A-7731"})'
    assert not ends_turn(call) and ends_turn(answer)
    assert last_turn(history) == history[1:]           # what TARL gets when the answer closes the turn
    assert trim_history(history, 10_000) == history    # within budget: everything, in order
    kept = trim_history(history, 30, keep_last=1)
    assert (call in kept) == (result in kept)          # the call and its result are one unit
