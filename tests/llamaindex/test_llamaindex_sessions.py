"""Sessions that survive a restart: chat history beside the ledger, resumed by a new process."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock

from llamaindex_tarl import TarlMemory
from llamaindex_tarl.chat_store import SQLiteChatStore
from shared_core import TarlError

ROOT = Path(__file__).resolve().parents[2]
RESUME = textwrap.dedent("""
    import json, sys
    from llamaindex_tarl import TarlMemory
    with TarlMemory.from_defaults(path=sys.argv[1], namespace="user:ana", session_id=sys.argv[2]) as memory:
        history = [[m.role.value, m.content] for m in memory.get_all()]
        memories = memory.get(input="what is my order id?")[0].content
        print(json.dumps({"history": history, "memories": memories}))
""")


def resume_in_new_process(path: Path, session: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", RESUME, str(path), session], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_new_process_with_the_same_path_and_session_resumes(tmp_path):
    with TarlMemory.from_defaults(path=tmp_path / "mem", namespace="user:ana", session_id="monday") as memory:
        memory.put_messages([ChatMessage(role="user", content="My order id is A-7731"),
                             ChatMessage(role="assistant", content="Noted.")])
    assert (tmp_path / "mem" / "chat.db").exists() and (tmp_path / "mem" / "ledger.db").exists()
    got = resume_in_new_process(tmp_path / "mem", "monday")
    assert got["history"] == [["user", "My order id is A-7731"], ["assistant", "Noted."]]
    assert "A-7731" in got["memories"]
    other = resume_in_new_process(tmp_path / "mem", "tuesday")          # another session: no history,
    assert other["history"] == [] and "A-7731" in other["memories"]     # the same long-term memory


async def test_async_puts_persist_and_tool_calls_round_trip(tmp_path):
    call = ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id="c1", tool_name="track",
                                                                tool_kwargs={"order": "A-7731"})])
    messages = [ChatMessage(role="user", content="where is A-7731?"), call,
                ChatMessage(role="tool", content="in transit", additional_kwargs={"tool_call_id": "c1"}),
                ChatMessage(role="assistant", content="In transit.")]
    async with asyncio.timeout(120):
        with TarlMemory.from_defaults(path=tmp_path, session_id="s") as memory:
            await memory.aput_messages(messages)
    with TarlMemory.from_defaults(path=tmp_path, session_id="s") as again:
        assert again.get_all() == messages
        again.reset()
        assert again.get_all() == []


def test_close_releases_only_what_from_defaults_opened(tmp_path):
    store = SQLiteChatStore(tmp_path / "own.db")
    memory = TarlMemory.from_defaults(path=tmp_path / "mem", chat_store=store, session_id="s")
    memory.put(ChatMessage(role="user", content="hello there"))
    memory.close()
    memory.close()                                                      # idempotent
    assert [m.content for m in store.get_messages("s")] == ["hello there"]   # the caller's store still open
    store.close()
    with pytest.raises(Exception):
        memory.engine.accepted("default")                               # the engine it opened is closed


def test_aget_trims_off_the_event_loop(tmp_path):
    """The LRE trim runs in a worker thread: the loop's thread never runs it."""
    import threading

    from llamaindex_tarl import memory as memory_module

    seen = []
    real = memory_module.trim

    def spy(*args, **kwargs):
        seen.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    with TarlMemory.from_defaults(session_id="s", token_limit=200) as memory:
        memory.put_messages([ChatMessage(role="user", content=f"message {i} " * 5) for i in range(20)])
        memory_module.trim = spy
        try:
            asyncio.run(memory.aget())
        finally:
            memory_module.trim = real
    assert seen == [False]


def test_chat_store_keys_and_deletes(tmp_path):
    with SQLiteChatStore(tmp_path / "c.db") as store:
        for i in range(3):
            store.add_message("a", ChatMessage(role="user", content=f"m{i}"))
        store.add_message("b", ChatMessage(role="user", content="x"))
        store.add_message("a", ChatMessage(role="user", content="first"), idx=0)
        assert store.get_keys() == ["a", "b"]
        assert [m.content for m in store.get_messages("a")] == ["first", "m0", "m1", "m2"]
        assert store.delete_message("a", 1).content == "m0" and store.delete_message("a", 9) is None
        assert store.delete_last_message("a").content == "m2"
        assert [m.content for m in store.delete_messages("a")] == ["first", "m1"]
        assert store.get_messages("a") == [] and store.delete_messages("a") is None
        assert json.loads(store.get_messages("b")[0].model_dump_json())["role"] == "user"


def test_session_id_can_be_set_as_on_llamaindex_memory(engine):
    memory = TarlMemory.from_defaults(engine=engine, namespace="user:ana", session_id="a")
    memory.put_messages([ChatMessage(role="user", content="My order id is A-7731"),
                         ChatMessage(role="assistant", content="Noted.")])
    memory.session_id = "b"                                             # as Memory.session_id = "b"
    assert memory.session_id == "b" and memory.chat_store_key == "b" and memory.get_all() == []
    assert "A-7731" in memory.get(input="what is my order id?")[0].content   # long-term memory is the namespace's
    memory.session_id = "a"
    assert [m.content for m in memory.get_all()] == ["My order id is A-7731", "Noted."]
    for bad in ("", "  ", None, 3):
        with pytest.raises(TarlError, match=r"session_id="):
            memory.session_id = bad
    assert memory.session_id == "a"


async def test_a_closed_memory_says_so(tmp_path):
    memory = TarlMemory.from_defaults(path=tmp_path, session_id="monday")
    memory.put(ChatMessage(role="user", content="hello there"))
    memory.close()
    for use in (lambda: memory.put(ChatMessage(role="user", content="hello")), memory.get, memory.get_all,
                memory.reset, memory.tools, lambda: memory.set([]), memory.as_retriever):
        with pytest.raises(TarlError, match=r"session_id='monday': .*closed"):
            use()
    for ause in (memory.aget, memory.aget_all, memory.areset,
                 lambda: memory.aput(ChatMessage(role="user", content="hello"))):
        with pytest.raises(TarlError, match="closed"):
            await ause()
