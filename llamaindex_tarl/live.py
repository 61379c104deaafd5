"""The open ``TarlMemory`` objects of this process, so a saved workflow ``Context`` can be restored onto one.

LlamaIndex's workflow agents keep the memory in the context state (``ctx.store["memory"]``), and
``ctx.to_dict()`` saves it as a component (``to_dict``), which ``Context.from_dict`` rebuilds with
``from_dict`` when the state is first read (``workflows.context.serializers.JsonSerializer``). Why restore
onto an open memory instead of rebuilding one from the snapshot: a ``TarlMemory`` stands on an open engine
(a database connection, an index and its writer thread), maybe an LLM extractor and judge, none of which a
JSON snapshot can carry, nor a deserializer own and close. What the memory holds lives outside the object
anyway (the namespace's long-term memory, the session's history in its chat store), so the snapshot says
where, and the restored memory is a view onto the open memory there.
"""

from __future__ import annotations

import itertools
import os
import weakref
from typing import Any

from shared_core import TarlError

LIMITS = ("token_limit", "keep_last", "chat_history_token_ratio", "token_flush_size", "insert_method")
"""What a restored view takes from the snapshot (else from the open memory)."""
_OPEN: weakref.WeakValueDictionary[int, Any] = weakref.WeakValueDictionary()
_ORDER = itertools.count()


def register(memory: Any) -> None:
    """Remember ``memory`` while it lives (a weak reference: this never keeps a memory open)."""
    _OPEN[next(_ORDER)] = memory


def find(saved: dict[str, Any]) -> Any:
    """The open memory a snapshot (``TarlMemory.to_dict``) means: the same object if it is still open in
    this process, else the newest open one on the same namespace, session and chat-store file (a new
    process that opened its memory before the context's state is read)."""
    namespace, session = saved.get("namespace"), saved.get("chat_store_key")
    store = _file((saved.get("chat_store") or {}).get("path"))
    open_now = [m for _, m in sorted(_OPEN.items()) if not m.closed]
    same = [m for m in open_now if m.memory_id == saved.get("memory_id")]
    same = same or [m for m in open_now if m.namespace == namespace and m.session_id == session
                    and _file(getattr(m.chat_store, "path", None)) == store]
    if not same:
        raise TarlError("memory", f"namespace={namespace!r}, session_id={session!r}",
                        "no open TarlMemory in this process holds this saved state: a workflow Context saves "
                        "where a TarlMemory lives, not its open store; open it (TarlMemory.from_defaults(path, "
                        "namespace=..., session_id=...)) before the restored Context is used")
    return same[-1]


def _file(path: Any) -> str | None:
    return os.path.abspath(path) if isinstance(path, str) else None
