"""``SQLiteChatStore``: LlamaIndex chat history in a SQLite file beside the ledger, so a session survives
its process.

LlamaIndex's ``SimpleChatStore`` lives in the process (persisting it means rewriting one JSON file, which
two processes would overwrite); its SQL store is async-only and is not a ``BaseChatStore``. This one is a
``BaseChatStore`` (what ``ChatMemoryBuffer`` and :class:`~llamaindex_tarl.TarlMemory` take) over one
table a user can read with the ``sqlite3`` shell::

    sqlite3 mem/chat.db 'select session_id, position, message from chat_messages'

Each row is one ``ChatMessage`` as pydantic JSON (tool-call blocks included), ordered by ``position``;
``chat_sessions`` lists the keys in the order they were first written, since ``SimpleChatStore`` keeps a
key whose history is empty (``get_keys`` lists it, ``delete_messages`` returns ``[]`` for it). Every change
is one SQLite transaction, so another process opening the same file never sees half of one. Unlike
``SimpleChatStore``, an empty key is refused (``TarlError``): a session id must name a session.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.storage.chat_store import BaseChatStore
from pydantic import PrivateAttr

from shared_core import TarlError

CHAT_FILE = "chat.db"
"""The file name of the chat history inside a store directory (beside ``ledger.db``)."""
_SCHEMA = """
create table if not exists chat_messages (
    session_id text not null,
    position   integer not null,
    message    text not null,            -- one llama_index ChatMessage as JSON
    primary key (session_id, position)
);
create table if not exists chat_sessions (session_id text primary key)   -- rowid: first-written order
"""


def _backfill(conn: sqlite3.Connection) -> None:
    """List the keys of a file written before ``chat_sessions`` existed (once: the table is then never empty
    while messages exist)."""
    if conn.execute("select 1 from chat_sessions limit 1").fetchone() is None:
        conn.execute("insert into chat_sessions (session_id) select session_id from chat_messages "
                     "group by session_id order by min(rowid)")


class SQLiteChatStore(BaseChatStore):
    """Chat history per key (a session id) in a SQLite file.

    >>> import tempfile
    >>> from llama_index.core.base.llms.types import ChatMessage
    >>> path = tempfile.mkdtemp() + "/chat.db"
    >>> with SQLiteChatStore(path) as store:
    ...     store.add_message("monday", ChatMessage(role="user", content="My order id is A-7731"))
    >>> with SQLiteChatStore(path) as again:                 # another process would see the same
    ...     [m.content for m in again.get_messages("monday")]
    ['My order id is A-7731']
    """

    path: str
    _conn: sqlite3.Connection = PrivateAttr()
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)
    _closed: bool = PrivateAttr(default=False)

    def __init__(self, path: str | Path, **data: Any) -> None:
        if not isinstance(path, (str, Path)) or not str(path).strip():
            raise TarlError("path", path, "must be a file path")
        super().__init__(path=str(path), **data)
        Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._conn.execute("pragma journal_mode=wal")
        self._conn.executescript(_SCHEMA)
        self._run(_backfill)

    @classmethod
    def class_name(cls) -> str:
        return "SQLiteChatStore"

    def _run(self, body: Any) -> Any:
        """``body(conn)`` inside one write transaction (threads serialised by a lock, processes by SQLite)."""
        with self._lock:
            self._check_open()
            self._conn.execute("begin immediate")
            try:
                out = body(self._conn)
            except BaseException:
                self._conn.execute("rollback")
                raise
            self._conn.execute("commit")
            return out

    def _check_open(self) -> None:
        if self._closed:
            raise TarlError("chat_store", self.path, "is closed (close() was called); open the file again")

    @staticmethod
    def _known(conn: sqlite3.Connection, key: str) -> bool:
        return conn.execute("select 1 from chat_sessions where session_id = ?", (key,)).fetchone() is not None

    @staticmethod
    def _load(conn: sqlite3.Connection, key: str) -> list[ChatMessage]:
        rows = conn.execute("select message from chat_messages where session_id = ? order by position", (key,))
        return [ChatMessage.model_validate_json(r[0]) for r in rows]

    @staticmethod
    def _listed(conn: sqlite3.Connection, key: str) -> None:
        conn.execute("insert or ignore into chat_sessions (session_id) values (?)", (key,))

    @staticmethod
    def _write(conn: sqlite3.Connection, key: str, messages: list[ChatMessage]) -> None:
        SQLiteChatStore._listed(conn, key)
        conn.execute("delete from chat_messages where session_id = ?", (key,))
        conn.executemany("insert into chat_messages (session_id, position, message) values (?, ?, ?)",
                         [(key, i, m.model_dump_json()) for i, m in enumerate(messages)])

    def set_messages(self, key: str, messages: list[ChatMessage]) -> None:
        self._run(lambda c: self._write(c, _key(key), list(messages)))

    def get_messages(self, key: str) -> list[ChatMessage]:
        with self._lock:
            self._check_open()
            return self._load(self._conn, _key(key))

    def add_message(self, key: str, message: ChatMessage, idx: int | None = None) -> None:
        def body(c: sqlite3.Connection) -> None:
            if idx is None:                      # the common case: append one row
                self._listed(c, _key(key))
                c.execute("insert into chat_messages (session_id, position, message) select ?, "
                          "coalesce(max(position) + 1, 0), ? from chat_messages where session_id = ?",
                          (_key(key), message.model_dump_json(), _key(key)))
                return
            messages = self._load(c, _key(key))
            messages.insert(idx, message)
            self._write(c, _key(key), messages)
        self._run(body)

    def delete_messages(self, key: str) -> list[ChatMessage] | None:
        def body(c: sqlite3.Connection) -> list[ChatMessage] | None:
            if not self._known(c, _key(key)):
                return None
            messages = self._load(c, key)
            c.execute("delete from chat_messages where session_id = ?", (key,))
            c.execute("delete from chat_sessions where session_id = ?", (key,))
            return messages
        return self._run(body)

    def delete_message(self, key: str, idx: int) -> ChatMessage | None:
        """As ``list.pop(idx)`` (``-1`` is the last message); None for an unknown key or an index out of
        range, either way (``SimpleChatStore`` raises ``IndexError`` below ``-len``: a chat history that
        shrank under a caller is not an error worth a crash)."""
        def body(c: sqlite3.Connection) -> ChatMessage | None:
            messages = self._load(c, _key(key))
            if not -len(messages) <= idx < len(messages):
                return None
            gone = messages.pop(idx)
            self._write(c, key, messages)
            return gone
        return self._run(body)

    def delete_last_message(self, key: str) -> ChatMessage | None:
        return self.delete_message(key, -1)

    def get_keys(self) -> list[str]:
        with self._lock:
            self._check_open()
            return [r[0] for r in self._conn.execute("select session_id from chat_sessions order by rowid")]

    # async twins: SQLite calls run in a worker thread, never on the event loop
    async def aset_messages(self, key: str, messages: list[ChatMessage]) -> None:
        await asyncio.to_thread(self.set_messages, key, messages)

    async def aget_messages(self, key: str) -> list[ChatMessage]:
        return await asyncio.to_thread(self.get_messages, key)

    async def async_add_message(self, key: str, message: ChatMessage, idx: int | None = None) -> None:
        await asyncio.to_thread(self.add_message, key, message, idx)

    async def adelete_messages(self, key: str) -> list[ChatMessage] | None:
        return await asyncio.to_thread(self.delete_messages, key)

    async def adelete_message(self, key: str, idx: int) -> ChatMessage | None:
        return await asyncio.to_thread(self.delete_message, key, idx)

    async def adelete_last_message(self, key: str) -> ChatMessage | None:
        return await asyncio.to_thread(self.delete_last_message, key)

    async def aget_keys(self) -> list[str]:
        return await asyncio.to_thread(self.get_keys)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._conn.close()

    def __enter__(self) -> SQLiteChatStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _key(key: Any) -> str:
    if not isinstance(key, str) or not key:
        raise TarlError("key", key, "must be a non-empty session id")
    return key
