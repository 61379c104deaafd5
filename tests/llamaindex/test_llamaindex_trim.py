"""LRE trimming of LlamaIndex chat history: whole turns, order kept, budget respected, details survive."""

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
def test_trim_keeps_whole_turns_in_order_within_budget(messages, budget, keep_last):
    kept = trim_history(messages, budget, keep_last=keep_last)
    index = [next(i for i, m in enumerate(messages) if m is k) for k in kept]
    assert index == sorted(set(index))                                   # originals, in order, no repeats
    if kept:
        assert role_of(kept[0]) == "user"                                # never starts on assistant/tool
    for i in index:                                                      # whole turns: a kept message's
        j = i                                                            # user message and all its replies
        while role_of(messages[j]) != "user":
            j -= 1
        stop = next((n for n in range(i + 1, len(messages)) if role_of(messages[n]) == "user"), len(messages))
        assert all(n in index for n in range(j, stop))
    user_turns = [i for i, m in enumerate(messages) if role_of(m) == "user"]
    recent = user_turns[-keep_last:] if keep_last else []
    assert all(i in index for i in recent)                               # the last keep_last turns stay
    recent_cost = tokens(messages[recent[0]:]) if recent else 0
    assert tokens(kept) <= max(budget, recent_cost)                      # over budget only for the recent window


def test_openai_style_tool_calls_are_counted_and_keep_the_turn_open():
    from llamaindex_tarl.messages import ends_turn, last_turn, turns

    call = ChatMessage(role="assistant", content="", additional_kwargs={"tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "track", "arguments": '{"order": "A-7731"}'}}]})
    result = ChatMessage(role="tool", content="in transit", additional_kwargs={"tool_call_id": "c1"})
    answer = ChatMessage(role="assistant", content="It is in transit.")
    history = [ChatMessage(role="assistant", content="Hi!"), ChatMessage(role="user", content="where is it?"),
               call, result, answer]
    assert text_of(call) == 'track({"order": "A-7731"})'
    assert not ends_turn(call) and ends_turn(answer)
    assert last_turn(history) == history[1:]           # what TARL gets when the answer closes the turn
    assert turns(history) == [(1, 5)]                  # the greeting answers nothing still in history
    assert trim_history(history, 10_000) == history[1:]
