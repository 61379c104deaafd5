"""Concurrent puts to one session (two requests of one chat, ``asyncio.gather`` over ``aput_messages``):
every user statement still becomes memory. Found driving TarlMemory with ``asyncio.gather``: the history
interleaved as u0 u1 u2 a a a, each answer's turn was read after its put (the last answer alone), and no
user message of the three was remembered."""

from __future__ import annotations

import asyncio
import threading

from llama_index.core.base.llms.types import ChatMessage

from llamaindex_tarl import TarlMemory

NS = "user:ana"
FACTS = ["My locker number is L-417", "My cat is called Miso", "I work at Nordlys in Oslo"]


def turn(text: str) -> list[ChatMessage]:
    return [ChatMessage(role="user", content=text), ChatMessage(role="assistant", content="Noted.")]


def remembered(memory: TarlMemory) -> set[str]:
    return {e.text for e in memory.engine.accepted(NS)} | {e.text for e in memory.engine.history(NS)}


async def test_concurrent_async_turns_of_one_session_are_all_remembered(tmp_path):
    with TarlMemory.from_defaults(path=tmp_path, namespace=NS, session_id="s") as memory:
        await asyncio.gather(*[memory.aput_messages(turn(text)) for text in FACTS])
        assert len(memory.get_all()) == 6
        assert set(FACTS) <= remembered(memory)


def test_concurrent_sync_turns_of_one_session_are_all_remembered():
    with TarlMemory.from_defaults(namespace=NS, session_id="s") as memory:
        start = threading.Barrier(len(FACTS))

        def chat(text: str) -> None:
            start.wait()
            memory.put_messages(turn(text))

        threads = [threading.Thread(target=chat, args=(text,)) for text in FACTS]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert set(FACTS) <= remembered(memory)
