"""``SQLiteChatStore`` answers every ``BaseChatStore`` call as LlamaIndex's ``SimpleChatStore`` does."""

from __future__ import annotations

import asyncio

import pytest
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.storage.chat_store import SimpleChatStore

from llamaindex_tarl import SQLiteChatStore
from shared_core import TarlError


def _m(text: str) -> ChatMessage:
    return ChatMessage(role="user", content=text)


def _texts(value):
    if isinstance(value, list):
        return [_texts(v) for v in value]
    return value.content if isinstance(value, ChatMessage) else value


OPS = [
    ("get unknown", lambda s: s.get_messages("k")),
    ("delete_messages unknown", lambda s: s.delete_messages("k")),
    ("delete_last unknown", lambda s: s.delete_last_message("k")),
    ("delete_message unknown", lambda s: s.delete_message("k", -1)),
    ("add a", lambda s: s.add_message("k", _m("a"))),
    ("add b", lambda s: s.add_message("k", _m("b"))),
    ("add c at 0", lambda s: s.add_message("k", _m("c"), idx=0)),
    ("add d at 99", lambda s: s.add_message("k", _m("d"), idx=99)),
    ("add e at -1", lambda s: s.add_message("k", _m("e"), idx=-1)),
    ("add to another key", lambda s: s.add_message("other", _m("x"))),
    ("get", lambda s: s.get_messages("k")),
    ("delete_message -1", lambda s: s.delete_message("k", -1)),
    ("delete_message -2", lambda s: s.delete_message("k", -2)),
    ("delete_message 99", lambda s: s.delete_message("k", 99)),
    ("delete_last", lambda s: s.delete_last_message("k")),
    ("get after deletes", lambda s: s.get_messages("k")),
    ("delete_message 0", lambda s: s.delete_message("k", 0)),
    ("delete the last one", lambda s: s.delete_message("k", 0)),
    ("keys with an emptied key", lambda s: s.get_keys()),
    ("delete_message on an emptied key", lambda s: s.delete_message("k", 0)),
    ("set empty", lambda s: s.set_messages("k", [])),
    ("keys with an empty key", lambda s: s.get_keys()),
    ("delete_messages on an empty key", lambda s: s.delete_messages("k")),
    ("keys after", lambda s: s.get_keys()),
    ("set two", lambda s: s.set_messages("k", [_m("p"), _m("q")])),
    ("keys in insertion order", lambda s: s.get_keys()),
    ("async delete_message -1", lambda s: asyncio.run(s.adelete_message("k", -1))),
    ("async get", lambda s: asyncio.run(s.aget_messages("k"))),
]


def test_every_call_answers_as_simple_chat_store(tmp_path):
    simple = SimpleChatStore()
    with SQLiteChatStore(tmp_path / "c.db") as sqlite:
        for label, op in OPS:
            assert _texts(op(sqlite)) == _texts(op(simple)), label


def test_keys_and_empty_histories_survive_a_reopen(tmp_path):
    with SQLiteChatStore(tmp_path / "c.db") as store:
        store.add_message("b", _m("x"))
        store.set_messages("a", [])
    with SQLiteChatStore(tmp_path / "c.db") as again:
        assert again.get_keys() == ["b", "a"]
        assert again.delete_messages("a") == [] and again.get_keys() == ["b"]


def test_out_of_range_indexes_delete_nothing(tmp_path):
    """``SimpleChatStore`` raises ``IndexError`` below ``-len``; an index out of range either way is None here."""
    with SQLiteChatStore(tmp_path / "c.db") as store:
        store.set_messages("k", [_m("a")])
        assert store.delete_message("k", -2) is None and store.delete_message("k", 1) is None
        store.set_messages("k", [])
        assert store.delete_last_message("k") is None
        assert store.get_keys() == ["k"]


def test_a_closed_store_says_so(tmp_path):
    store = SQLiteChatStore(tmp_path / "c.db")
    store.close()
    store.close()                                                   # idempotent
    with pytest.raises(TarlError, match="chat_store=.*is closed"):
        store.get_messages("k")
    with pytest.raises(TarlError, match="is closed"):
        store.add_message("k", _m("a"))


def test_a_file_written_before_the_key_table_lists_its_keys(tmp_path):
    import sqlite3

    old = sqlite3.connect(tmp_path / "c.db")
    old.execute("create table chat_messages (session_id text not null, position integer not null, "
                "message text not null, primary key (session_id, position))")
    old.executemany("insert into chat_messages values (?, 0, ?)", [(k, _m(k).model_dump_json()) for k in "ba"])
    old.commit()
    old.close()
    with SQLiteChatStore(tmp_path / "c.db") as store:
        assert store.get_keys() == ["b", "a"] and _texts(store.delete_messages("b")) == ["b"]
