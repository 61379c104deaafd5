"""The long-term memories ``get`` adds fit ``token_limit`` with the caller's ``initial_token_count`` and the
latest turn, least relevant left out first, as ``Memory`` cuts its blocks and ``ChatMemoryBuffer`` its history.

Found driving ``get`` with token limits: three long memories made ``get()`` return 78 tokens under
``token_limit=40``, and ``get(initial_token_count=30)`` the same 78 (108 with the caller's 30): the history
yielded to the memories, but the memories yielded to nothing, so a chat engine's prompt overran the limit
it had set."""

from __future__ import annotations

import pytest
from llama_index.core.base.llms.types import ChatMessage

from llamaindex_tarl import TarlMemory
from shared_core import MemoryEngine
from shared_core.lre import MESSAGE_OVERHEAD

ORDERS = ["Ana's order A-100 holds a red bicycle helmet, size medium, and two water bottles for the Porto trip",
          "Ana's order A-200 holds a blue bicycle pump and spare inner tubes for the road bike in Lisbon",
          "Ana's order A-300 holds bicycle lights, front and rear, and a lock, sent to her office in Braga"]
QUESTION = "which bicycle orders do I have?"


def tokens(messages: list[ChatMessage]) -> int:
    return sum(len((m.content or "").split()) + MESSAGE_OVERHEAD for m in messages)


def memory_lines(messages: list[ChatMessage]) -> list[str]:
    return [line for m in messages if m.role.value == "system" for line in (m.content or "").splitlines()[1:]]


@pytest.fixture
def engine(tmp_path):
    with MemoryEngine.open(tmp_path) as engine:
        for text in ORDERS:
            engine.write({"text": text, "namespace": "user:ana", "source": "user"})
        yield engine


def _memory(engine, limit: int) -> TarlMemory:
    memory = TarlMemory.from_defaults(engine=engine, namespace="user:ana", session_id=f"s{limit}",
                                      token_limit=limit, tokenizer_fn=str.split)
    memory.put(ChatMessage(role="user", content=QUESTION))
    return memory


@pytest.mark.parametrize("limit, initial", [(40, 0), (60, 0), (90, 0), (90, 30), (200, 150)])
async def test_memories_fit_the_limit_most_relevant_first(engine, limit, initial):
    everything = memory_lines(_memory(engine, 1000).get())
    assert len(everything) == 3
    memory = _memory(engine, limit)
    for got in (memory.get(initial_token_count=initial), await memory.aget(initial_token_count=initial)):
        assert tokens(got) + initial <= limit
        assert got[-1].content == QUESTION                          # the latest turn, whole
        assert memory_lines(got) == everything[:len(memory_lines(got))]
    assert memory_lines(_memory(engine, 90).get())                   # room for one is used
