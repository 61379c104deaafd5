"""``remember`` and ``recall`` as LlamaIndex ``FunctionTool``s, so an agent can manage its own memory.

No ``from __future__ import annotations`` here: LlamaIndex finds the workflow ``Context`` parameter of a
tool by comparing its annotation with the class, which a string annotation never equals.
"""

import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.tools import FunctionTool
from llama_index.core.workflow import Context
from pydantic import ValidationError

from shared_core import Claim, Decision, MemoryEngine, TarlError
from shared_core.trust import Attribution, attribute

from .block import render
from .messages import role_of, text_of

History = Callable[[], Sequence[ChatMessage] | Awaitable[Sequence[ChatMessage]]]
SCRATCHPAD = "scratchpad"
"""Where LlamaIndex's workflow agents keep the current run's messages (tool results included) until the
run ends and they are put into memory."""


def memory_tools(engine: MemoryEngine, namespace: str = "default", *, history: History | None = None,
                 top_k: int = 5) -> list[FunctionTool]:
    """``[remember, recall]`` bound to one namespace.

    >>> import asyncio
    >>> from shared_core import MemoryEngine
    >>> remember, recall = memory_tools(MemoryEngine.open(), "user:ana")
    >>> asyncio.run(remember.acall(fact="Ana prefers window seats", source="assistant", ctx=None)).content
    "append: ... (recorded as assistant's: claimed assistant)"
    >>> recall.call(query="seat preference").content
    '- Ana prefers window seats'

    Whose word a fact is follows the core's trust rule (:mod:`shared_core.trust`), the same as the
    LangChain tool's: the model may claim ``assistant``, ``third_party``, ``document`` or ``web`` freely,
    and ``user`` or ``tool`` only when relaying a message of that role in this conversation, found in
    ``history`` (e.g. ``TarlMemory.aget_all``) and, inside an agent run, in the run's own messages
    (the workflow ``Context``'s scratchpad, where a tool's fresh result sits until the run ends).
    Without a supporting message the fact is recorded as the assistant's. A ``topic`` is a key, as in
    the LangChain tool: the fact is weighed against that key's value only. The tool replies with
    TARL's decision, so the model knows what happened.
    """
    if not isinstance(engine, MemoryEngine):
        raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
    if not isinstance(namespace, str) or not namespace.strip():
        raise TarlError("namespace", namespace, "must be a non-empty string")
    if history is not None and not callable(history):
        raise TarlError("history", history, "must be a function returning the conversation's ChatMessages")

    async def said(ctx: Context | None) -> list[tuple[str, str]]:
        messages = list(await _maybe_await(history())) if history is not None else []
        if ctx is not None:
            messages += await ctx.store.get(SCRATCHPAD, default=[])
        return [(role_of(m), text_of(m)) for m in messages if isinstance(m, ChatMessage)]

    def claim(fact: str, attribution: Attribution, topic: str | None) -> Claim:
        try:
            return Claim(text=fact, namespace=namespace, source=attribution.source, slot=topic,
                         metadata=attribution.metadata() if attribution.claimed != attribution.source else {})
        except ValidationError as exc:
            err = exc.errors()[0]
            field = "topic" if err.get("loc") == ("slot",) else "fact"
            raise TarlError(field, err.get("input"), err["msg"]) from None

    async def aremember(ctx: Context, fact: str, source: str | None = None, topic: str | None = None) -> str:
        """Store one durable fact in long-term memory (one short sentence); memory decides whether it is kept.

        Args:
            fact: One self-contained sentence, e.g. "The user lives in Porto".
            source: Whose fact it is: "user" or "tool" when you pass on what the user said or what a
                tool returned in this conversation (checked; otherwise recorded as yours), "assistant"
                for your own inference, "third_party" for hearsay, "document" or "web". Omit it to let
                memory find who said it.
            topic: Optional stable key for the fact, e.g. "home_city"; a later fact on the same topic is
                weighed against this one (and only against it). Without one, the fact is weighed against
                every memory.
        """
        try:
            attribution = attribute(fact, source, await said(ctx))
            decision = await engine.awrite(claim(fact, attribution, topic), keyed=topic is not None)
            return _said(decision, attribution)
        except TarlError as err:                        # tell the model what was wrong; nothing was written
            return f"not stored: {err}"

    def recall(query: str) -> str:
        """Search long-term memory for facts relevant to the query."""
        return render(engine.search(query, namespace, top_k)) or "No relevant memories."

    async def arecall(query: str) -> str:
        """Search long-term memory for facts relevant to the query."""
        return render(await engine.asearch(query, namespace, top_k)) or "No relevant memories."

    return [FunctionTool.from_defaults(async_fn=aremember, name="remember"),
            FunctionTool.from_defaults(fn=recall, async_fn=arecall, name="recall")]


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _said(decision: Decision, attribution: Attribution) -> str:
    return f"{decision.action.value}: {decision.rationale} (recorded as {attribution.source}'s: {attribution.note})"
