"""The middleware's ``forget`` tool: "forget my address" through an agent.

Why its own module: what forgetting means on a LangGraph store (retract into History on a ``TarlStore``,
delete on any other) is a separate idea from what the middleware injects and extracts. The reading of
what the model passes (a slot, a text, a copied ``<memories>`` line) and the replies are the core's
(``shared_core.extraction``), shared with the LlamaIndex tool.
"""

from __future__ import annotations

from typing import Any

from langgraph.store.base import BaseStore
from shared_core.extraction import copied, forget_reply, same_text

from .store import TarlStore
from .values import text_of

FORGET_SCAN = 10_000
"""How many of a namespace's newest memories ``forget`` compares a text with."""


def forget(store: BaseStore, ns: tuple[str, ...], memory: Any) -> str:
    """Retract the memories whose text ``memory`` is (as the model copied it from a ``<memories>`` line
    or a recall: ``- text (slot: s)`` is read too; only that value of a many-valued slot), else every
    value of the slot it names (``store.delete``). A ``TarlStore`` moves them to History, reason
    ``retracted``: ``versions`` and as-of reads still show them."""
    if not isinstance(memory, str) or not memory.strip():
        return forget_reply(memory, [])
    text, named = copied(memory)
    items = [i for i in store.search(ns, limit=FORGET_SCAN) if same_text(text_of(i.value), text)]
    gone = [text_of(i.value) for i in items]
    if items and isinstance(store, TarlStore):
        for item in items:
            store.engine.retract(item.entry.id, note="forgotten (the forget tool)")
    elif items:
        for item in items:
            store.delete(ns, item.key)
    elif key := next((k for k in (named, text) if k and store.get(ns, k) is not None), None):
        gone = [text_of(i.value) for i in store.search(ns, limit=FORGET_SCAN) if i.key == key]
        store.delete(ns, key)
    return forget_reply(memory, gone)
