"""langmem's manage-memory tool, replying with what memory actually did.

langmem's ``manage_memory`` answers "created memory <id>" / "updated memory <id>" whatever the store did
with the value. On a :class:`~langchain_tarl.TarlStore` a put may be held for verification or rejected,
and then that answer would be false and the model would believe a memory it does not have. This wraps
the tool (same name, description and arguments) and reports the store's decision when the value did not
become current. langmem itself is not a dependency: it is imported when the tool is built.

.. code-block:: python

    from langchain_tarl import TarlStore
    from langchain_tarl.langmem_tools import manage_memory_tool

    store = TarlStore.open()
    manage = manage_memory_tool(("memories", "alice"), store=store)
    manage.invoke({"content": "The user lives in Porto"})       # 'created memory 1f0e... (remembered ...)'
"""

from __future__ import annotations

from typing import Any

from langchain_core.tools import StructuredTool
from shared_core import Action, Decision

from .memory_middleware import describe
from .store import LAST_DECISION

CURRENT = (Action.APPEND, Action.REVISE, Action.NOOP)
"""Outcomes after which the value the tool was given is what memory holds under the id."""


def report(said: str, decision: Decision | None) -> str:
    """langmem's reply when it is true, else what happened instead (a delete, or a non-TARL store: as is)."""
    if decision is None:
        return said
    if decision.action in CURRENT:
        return f"{said} ({describe(decision)})"
    key = said.rsplit(" ", 1)[-1]
    return f"memory {key} was {describe(decision)}"


def manage_memory_tool(namespace: tuple[str, ...] | str, **kwargs: Any) -> StructuredTool:
    """``langmem.create_manage_memory_tool(namespace, **kwargs)`` whose reply is true on a TarlStore."""
    from langmem import create_manage_memory_tool

    inner = create_manage_memory_tool(namespace, **kwargs)

    def run(**args: Any) -> str:
        token = LAST_DECISION.set(None)
        try:
            said = inner.func(**args)
            return report(said, LAST_DECISION.get())
        finally:
            LAST_DECISION.reset(token)

    async def arun(**args: Any) -> str:
        token = LAST_DECISION.set(None)
        try:
            said = await inner.coroutine(**args)
            return report(said, LAST_DECISION.get())
        finally:
            LAST_DECISION.reset(token)

    return StructuredTool(name=inner.name, description=inner.description, args_schema=inner.args_schema,
                          func=run, coroutine=arun)
