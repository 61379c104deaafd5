"""``remember`` and ``recall`` as LlamaIndex ``FunctionTool``s, so an agent can manage its own memory.

No ``from __future__ import annotations`` here: LlamaIndex finds the workflow ``Context`` parameter of a
tool by comparing its annotation with the class, which a string annotation never equals.
"""

import asyncio
import inspect
import re
import textwrap
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.utils import create_schema_from_function
from llama_index.core.workflow import Context
from pydantic import ValidationError

from shared_core import Claim, Decision, MemoryEngine, TarlError
from shared_core.extraction import canonical_slot, copied, forget_reply, same_text
from shared_core.trust import Attribution, attribute

from .block import brief, render
from .messages import role_of, text_of

History = Callable[[], Sequence[ChatMessage] | Awaitable[Sequence[ChatMessage]]]
SCRATCHPAD = "scratchpad"
"""Where LlamaIndex's workflow agents keep the current run's messages (tool results included) until the
run ends and they are put into memory."""


MEMORY_TOOLS = ("remember", "recall", "forget")


def memory_tools(engine: MemoryEngine, namespace: str = "default", *, history: History | None = None,
                 top_k: int = 5, forget: bool = False) -> list[FunctionTool]:
    """``[remember, recall]`` bound to one namespace; with ``forget=True`` also ``forget``, so an agent can
    serve "forget my address": it takes a memory's slot (``user.address``: every value of it), its text, or
    a line copied from the memories shown (``- text (slot: s)``: that value only), and retracts it
    (History, reason ``retracted``; never erased). Opt-in, so ``remember, recall = memory_tools(...)`` holds.

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
    Without a supporting message the fact is recorded as the assistant's. A ``slot`` (canonical
    ``subject.attribute``, as in the LangChain tool) is a key: a second manager on it revises the first, and
    the fact is also weighed against the namespace's other memories, so the same attribute stored without a
    slot (each user turn is, by ``TarlMemory``) is revised or restated, not left current beside it; ``many`` says the attribute holds several
    values (a further liked food is kept beside the others). A slot that is not ``subject.attribute``
    or holds a random id is dropped (``shared_core.extraction.canonical_slot``): the fact is then
    weighed against every memory. The tool replies with TARL's decision, so the model knows what happened;
    bad arguments (a null fact, an empty query) get a one-line answer naming the argument ("not stored: ...",
    "not searched: ..."), never an exception, so the model can correct itself.
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
        out, called = [], {}
        for m in (m for m in messages if isinstance(m, ChatMessage)):
            if role_of(m) == "assistant":           # the calls a tool result answers: the latest assistant's
                called = {b.tool_call_id: b.tool_name for b in m.blocks if isinstance(b, ToolCallBlock)}
            elif role_of(m) == "tool" and called.get(m.additional_kwargs.get("tool_call_id")) in MEMORY_TOOLS:
                continue                            # memory's own reply (recall's facts) is no evidence
            out.append((role_of(m), text_of(m)))
        return out

    def claim(fact: str, attribution: Attribution, slot: str | None, many: bool) -> Claim:
        try:
            return Claim(text=fact, namespace=namespace, source=attribution.source, slot=slot,
                         many=many if slot is not None else None,
                         metadata=attribution.metadata() if attribution.claimed != attribution.source else {})
        except ValidationError as exc:
            err = exc.errors()[0]
            field = str(err["loc"][0]) if err.get("loc") and err["loc"][0] in ("slot", "many") else "fact"
            raise TarlError(field, err.get("input"), err["msg"]) from None

    async def aremember(ctx: Context, fact: str, source: str | None = None, slot: str | None = None,
                        many: bool = False) -> str:
        """Store one durable fact in long-term memory (one short sentence); memory decides whether it is kept.

        Args:
            fact: One self-contained sentence, e.g. "The user lives in Porto".
            source: Whose fact it is: "user" or "tool" when you pass on what the user said or what a
                tool returned in this conversation (checked; otherwise recorded as yours), "assistant"
                for your own inference, "third_party" for hearsay, "document" or "web". Omit it to let
                memory find who said it.
            slot: The attribute the fact is about, as "subject.attribute" in snake_case, e.g.
                "user.home_city", "user.manager", "order_zx4410.status"; the same slot every time for the
                same attribute of the same subject. Without one, the fact is weighed against every memory.
            many: True if the attribute holds several values at once (likes, allergies, team members);
                False if a new value replaces the old one (city, employer, manager).
        """
        try:
            if not isinstance(fact, str):               # a model may send null: the schema is not enforced
                raise TarlError("fact", fact, "must be a string (one short sentence)")
            key = canonical_slot(slot)
            attribution = attribute(fact, source, await said(ctx))
            decision = await engine.awrite(claim(fact, attribution, key, many), keyed=key is not None,
                                           scope="namespace")      # earlier turns were stored without a slot
            return _said(decision, attribution)
        except TarlError as err:                        # tell the model what was wrong; nothing was written
            return f"not stored: {brief(err)}"

    def recall(query: str) -> str:
        """Search long-term memory for facts relevant to the query."""
        try:
            return render(engine.search(query, namespace, top_k)) or "No relevant memories."
        except TarlError as err:                        # as remember: the model reads what was wrong
            return f"not searched: {brief(err)}"

    async def arecall(query: str) -> str:
        """Search long-term memory for facts relevant to the query.

        Args:
            query: What to look for, e.g. "where does the user live".
        """
        try:
            return render(await engine.asearch(query, namespace, top_k)) or "No relevant memories."
        except TarlError as err:
            return f"not searched: {brief(err)}"

    def forget_(memory: str) -> str:
        """Forget a memory the user asks you to forget or says is wrong: it is no longer recalled (kept in
        memory's history, not erased). Call it once per memory.

        Args:
            memory: The memory's slot as shown in the memories or by recall, e.g. "user.address", or its
                exact text, e.g. "The user's address is 14 Larch Rd".
        """
        return _forget(engine, namespace, memory)

    async def aforget(memory: str) -> str:
        """Forget a memory the user asks you to forget or says is wrong: it is no longer recalled (kept in
        memory's history, not erased). Call it once per memory.

        Args:
            memory: The memory's slot as shown in the memories or by recall, e.g. "user.address", or its
                exact text, e.g. "The user's address is 14 Larch Rd".
        """
        return await asyncio.to_thread(_forget, engine, namespace, memory)

    if not isinstance(forget, bool):
        raise TarlError("forget", forget, "must be True or False")
    tools = [tool("remember", async_fn=aremember), tool("recall", fn=recall, async_fn=arecall)]
    if forget:
        tools.append(tool("forget", fn=forget_, async_fn=aforget))
    return tools


def tool(name: str, *, fn: Callable[..., Any] | None = None, async_fn: Callable[..., Any] | None = None) -> FunctionTool:
    """A ``FunctionTool`` described by its docstring's summary, with each argument's ``Args:`` entry in its
    JSON schema (as LangChain's ``parse_docstring`` puts them). Why: LlamaIndex puts the whole docstring in
    the description (it reads only one-line ``name (type): ...`` entries as argument docs), so remember's
    description was 1,135 characters and ``ToolMetadata.to_openai_tool()``, which LLM integrations call to
    send the tools, raised its 1,024-character ``ValueError``; the model saw no argument descriptions either."""
    documented = async_fn or fn
    assert documented is not None
    summary, _, args = inspect.getdoc(documented).partition("\nArgs:\n")      # type: ignore[union-attr]
    signature = inspect.signature(documented)
    hidden = [p.name for p in signature.parameters.values() if p.annotation is Context]
    shown = signature.replace(parameters=[p for p in signature.parameters.values() if p.name not in hidden])
    schema = create_schema_from_function(name, documented, ignore_fields=hidden, param_descriptions=_arg_docs(args))
    return FunctionTool.from_defaults(fn=fn, async_fn=async_fn, name=name, fn_schema=schema,
                                      description=f"{name}{shown}\n{' '.join(summary.split())}")


def _arg_docs(args: str) -> dict[str, str]:
    """``{argument: description}`` from a Google-style ``Args:`` section (entries may run over several lines)."""
    docs: dict[str, str] = {}
    for entry in re.split(r"\n(?=\S)", textwrap.dedent(args)):
        name, sep, text = entry.partition(":")
        if sep and name.strip().isidentifier():
            docs[name.strip()] = " ".join(text.split())
    return docs


def _forget(engine: MemoryEngine, namespace: str, memory: Any) -> str:
    """Retract the Accepted and Pending memories whose text ``memory`` is (a copied line's text), else those
    of the slot it names; the same reading as the LangChain middleware's forget tool."""
    if not isinstance(memory, str) or not memory.strip():
        return forget_reply(memory, [])
    text, named = copied(memory)
    live = engine.accepted(namespace) + engine.pending(namespace)
    entries = [e for e in live if same_text(e.text, text)]
    if not entries:
        slot = next((s for s in (named, text) if s and any(e.slot == s for e in live)), None)
        entries = [e for e in live if slot is not None and e.slot == slot]
    for entry in entries:
        engine.retract(entry.id, note="forgotten (the forget tool)")
    return forget_reply(memory, [e.text for e in entries])


async def _maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _said(decision: Decision, attribution: Attribution) -> str:
    return f"{decision.action.value}: {decision.rationale} (recorded as {attribution.source}'s: {attribution.note})"
