"""``TarlMemoryMiddleware``: recall before each model call, remember/recall tools, optional extraction."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain.tools import ToolRuntime
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import BaseTool, StructuredTool
from langgraph.config import get_config
from langgraph.store.base import BaseStore, InvalidNamespaceError, SearchItem
from shared_core import Action, Decision, TarlError
from shared_core.escalation import CALLS_PER_MINUTE, TIMEOUT, attach, check_escalation
from shared_core.extraction import (EXTRACT_PROMPT, JSON_REPLY, KNOWN_SLOTS, ExtractedFact, ExtractedFacts, canonical_slot,
                                     line, parse_facts, spelled, store_key, with_known_slots)
from shared_core.judging import reply_object
from shared_core.trust import Attribution, attribute

from . import namespaces
from .forget import forget as forget_memory
from .judge import as_judge
from .messages import as_message, last_user_text, latest_turn, transcript
from .store import TarlStore
from .structured import Structured
from .values import text_of as _text

log = logging.getLogger(__name__)
Namespace = tuple[str, ...] | str | Callable[[Any], tuple[str, ...] | str]

OUTCOMES = {
    Action.APPEND: "remembered",
    Action.NOOP: "already known; nothing changed",
    Action.REVISE: "remembered; the memory it updates was moved to history",
    Action.REJECT_CONFLICT: "not remembered: it contradicts a memory that memory trusts more",
    Action.DEFER_VERIFY: "held for verification; not used until confirmed",
}
ExtractedClaim, ExtractedClaims = ExtractedFact, ExtractedFacts
"""Earlier names of the core's extraction schema (``shared_core.extraction``)."""


def describe(decision: Decision | None, attribution: Attribution | None = None) -> str:
    """What the remember tool tells the model (a plain store, returning None, just 'stored'), and as
    whose word the fact was recorded (see :mod:`shared_core.trust`)."""
    said = f"; recorded as {attribution.source}'s ({attribution.note})" if attribution is not None else ""
    if not isinstance(decision, Decision):
        return "stored" + said
    return f"{OUTCOMES.get(decision.action, decision.action.value)} ({decision.rationale}){said}"


MEMORY_TOOLS = frozenset({"remember", "recall", "forget"})


def conversation(state: Any) -> list[tuple[str, str]]:
    """The thread so far as ``(role, text)`` pairs: the evidence a relayed fact is checked against. The
    memory tools' own replies are not evidence: a fact recall returned is memory's word, and relaying it
    as a tool's would raise an assistant's note to a tool's reading."""
    messages = state.get("messages", []) if isinstance(state, dict) else getattr(state, "messages", [])
    return [(as_message(m)["role"], m.text) for m in messages if isinstance(m, BaseMessage)
            and not (isinstance(m, ToolMessage) and m.name in MEMORY_TOOLS)]


class TarlMemoryMiddleware(AgentMiddleware):
    """Long-term memory for ``create_agent``: recall into the prompt, tools to remember and recall.

    .. code-block:: python

        from dataclasses import dataclass
        from langchain.agents import create_agent
        from langchain_tarl import TarlMemoryMiddleware, TarlStore

        @dataclass
        class Ctx:
            user_id: str

        memory = TarlMemoryMiddleware(namespace=lambda rt: ("memories", rt.context.user_id), k=4)
        agent = create_agent(model, middleware=[memory], store=TarlStore.open(), context_schema=Ctx)
        agent.invoke({"messages": [("user", "I moved to Porto")]}, context=Ctx("alice"))
        # the model may call remember(fact="The user lives in Porto", source="user") -> "remembered (...)";
        # "user" is granted because the user said so in this thread (shared_core.trust)
        await agent.ainvoke(...)                  # async: awrap_model_call, aput/asearch

    - Before every model call (sync and async) the Accepted memories most similar to the latest user
      message are appended to the system message inside ``<memories>`` (``request.override``).
    - Tools ``remember(fact, source, slot, many)``, ``recall(query)`` and ``forget(memory)`` (a slot or a
      memory's text: ``store.delete``, so it is retracted into History, never erased) write and read through the store;
      with a :class:`TarlStore` each remember is a TARL decision, and the tool reports it to the model.
      Whose word the fact is follows the core's trust rule (:mod:`shared_core.trust`): the model may
      lower trust freely, and relay the user's or a tool's fact only if this thread holds it. The
      model names the fact's ``slot`` (canonical ``subject.attribute``, e.g. ``user.manager``) and
      whether the attribute holds ``many`` values; a fact with a slot is put under it, so a second
      manager revises the first, while a further liked food is kept beside the others. A fact without
      a (valid) slot is grounded against the whole namespace; a random id is never a key.
    - With ``extractor`` (a chat model: its structured output, else JSON asked for in plain chat), after each
      run the latest turn becomes facts with slots by the core's one extraction prompt (``shared_core.extraction``),
      each put through the store (TARL decides). Best effort: a provider error or a reply the schema refuses is
      logged as a warning naming it and that turn stores nothing, but the run still returns its reply; facts
      sent as JSON text are read, prose is not.
    - With ``judge`` (a chat model, or a ``ChatModelJudge``), a ``TarlStore``'s engine asks it about the
      writes its policy is unsure of (``shared_core.escalation``; the store's engine is changed), with
      ``share``, ``calls_per_minute`` and ``judge_timeout`` as ``TarlStore.open`` takes them (replacing the
      store's own escalation; attached once, so the gate's count carries on); any other store refuses a judge.

    ``namespace`` is a fixed tuple or a function of the runtime (``Runtime`` or ``ToolRuntime``; both
    have ``context`` and ``config``, the run's config: ``lambda rt: ("memories",
    rt.config["configurable"]["user_id"])``) returning one. A string, fixed or returned, is one namespace, never split into
    characters: ``"alice"`` is ``("alice",)`` as in langmem, ``"memories.alice"`` is
    ``("memories", "alice")`` as in :class:`TarlRetriever` (:func:`langchain_tarl.namespaces.labels`).
    The store is ``store=`` or else the agent's (``create_agent(..., store=...)``).
    """

    def __init__(self, namespace: Namespace = ("memories",), *, store: BaseStore | None = None, k: int = 4,
                 extractor: BaseChatModel | None = None, with_tools: bool = True, judge: Any = None,
                 share: float | None = None, calls_per_minute: int | None = CALLS_PER_MINUTE,
                 judge_timeout: float = TIMEOUT) -> None:
        super().__init__()
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise TarlError("k", k, "must be a non-negative integer")
        self.namespace = namespace if callable(namespace) else _labels(namespace)
        self.store, self.k = store, k
        self.extractor = Structured(extractor, ExtractedFacts, JSON_REPLY) if extractor is not None else None
        self.judge = as_judge(judge)
        self.escalation = {"share": share, "calls_per_minute": calls_per_minute, "judge_timeout": judge_timeout}
        check_escalation(self.judge, **self.escalation)     # now, not at the first call
        if store is not None:
            self._consulted(store)                          # a judge is refused now, not at the first call
        self.tools: list[BaseTool] = self._tools() if with_tools else []

    # -- resolution ---------------------------------------------------------------------------
    def _ns(self, runtime: Any) -> tuple[str, ...]:
        return _labels(self.namespace(_with_config(runtime))) if callable(self.namespace) else self.namespace

    def _store(self, runtime: Any) -> BaseStore:
        store = self.store if self.store is not None else getattr(runtime, "store", None)
        if store is None:
            raise TarlError("store", None, "TarlMemoryMiddleware needs a store: pass store= or "
                                           "create_agent(..., store=TarlStore.open())")
        if self._consulted(store):
            attach(store.engine, self.judge, **self.escalation)
        return store

    def _consulted(self, store: BaseStore) -> bool:
        """Whether ``store`` takes the judge; a store other than a ``TarlStore`` refuses one, never leaves it unasked."""
        if self.judge is not None and not isinstance(store, TarlStore):
            raise TarlError("judge", self.judge, f"needs a TarlStore to consult; the store is a {type(store).__name__}")
        return self.judge is not None

    # -- recall into the prompt ---------------------------------------------------------------
    def _with_memories(self, request: ModelRequest, hits: list[SearchItem]) -> ModelRequest:
        """The application's system message with the block added, as a text block after its content
        blocks or as text after its string: its blocks (Anthropic ``cache_control``), kwargs and id are
        the application's, and a rebuilt message would lose the prompt cache and provider options."""
        if not hits:
            return request
        block, system = f"<memories>\n{_lines(hits)}\n</memories>", request.system_message
        if system is None:
            return request.override(system_message=SystemMessage(block))
        if isinstance(system.content, str):
            content: Any = f"{system.content}\n\n{block}" if system.content.strip() else block
        else:
            content = [*system.content, {"type": "text", "text": f"\n\n{block}" if system.content else block}]
        return request.override(system_message=system.model_copy(update={"content": content}))

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        query = last_user_text(request.messages)
        if not query or self.k == 0:
            return handler(request)
        hits = self._store(request.runtime).search(self._ns(request.runtime), query=query, limit=self.k)
        return handler(self._with_memories(request, hits))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
        query = last_user_text(request.messages)
        if not query or self.k == 0:
            return await handler(request)
        hits = await self._store(request.runtime).asearch(self._ns(request.runtime), query=query, limit=self.k)
        return await handler(self._with_memories(request, hits))

    # -- tools --------------------------------------------------------------------------------
    def _tools(self) -> list[BaseTool]:
        mw = self

        def remember(fact: str, runtime: ToolRuntime[Any, Any], source: str | None = None,
                     slot: str | None = None, many: bool | None = False) -> str:
            """Store a durable fact in long-term memory; memory decides whether it is kept.

            Args:
                fact: One self-contained sentence, e.g. "The user lives in Porto".
                source: Whose fact it is. "user" or "tool" when you pass on what the user said or what
                    a tool returned in this conversation (checked against the conversation; otherwise
                    it is recorded as yours); "assistant" for your own inference; "third_party" for
                    hearsay; "document" or "web". Omit it (or pass null) to let memory find who said it.
                slot: The attribute the fact is about, as "subject.attribute" in snake_case, e.g.
                    "user.home_city", "user.manager", "order_zx4410.status"; always the same slot for
                    the same attribute of the same subject, so a new value is weighed against the old.
                many: True if the attribute holds several values at once (likes, allergies, team
                    members); False (the default) if a new value replaces the old one (city, employer,
                    manager).
            """
            return mw._remember(runtime, fact, source, slot, many)

        async def aremember(fact: str, runtime: ToolRuntime[Any, Any], source: str | None = None,
                            slot: str | None = None, many: bool | None = False) -> str:
            return await asyncio.to_thread(mw._remember, runtime, fact, source, slot, many)

        def recall(query: str, runtime: ToolRuntime[Any, Any]) -> str:
            """Search long-term memory for facts relevant to the query.

            Args:
                query: What to look for, e.g. "where does the user live".
            """
            return _lines(mw._store(runtime).search(mw._ns(runtime), query=query, limit=max(mw.k, 1)))

        async def arecall(query: str, runtime: ToolRuntime[Any, Any]) -> str:
            return _lines(await mw._store(runtime).asearch(mw._ns(runtime), query=query, limit=max(mw.k, 1)))

        def forget(memory: str, runtime: ToolRuntime[Any, Any]) -> str:
            """Forget a memory the user asks you to forget or says is wrong: it is no longer recalled (it is
            kept in memory's history, not erased). Call it once per memory.

            Args:
                memory: The memory's slot as shown in <memories> or by recall, e.g. "user.address", or
                    its exact text, e.g. "The user's address is 14 Larch Rd".
            """
            return forget_memory(mw._store(runtime), mw._ns(runtime), memory)

        async def aforget(memory: str, runtime: ToolRuntime[Any, Any]) -> str:
            return await asyncio.to_thread(forget_memory, mw._store(runtime), mw._ns(runtime), memory)

        return [StructuredTool.from_function(remember, coroutine=aremember, parse_docstring=True),
                StructuredTool.from_function(recall, coroutine=arecall, parse_docstring=True),
                StructuredTool.from_function(forget, coroutine=aforget, parse_docstring=True)]

    def _remember(self, runtime: Any, fact: str, source: str | None, slot: str | None, many: bool | None) -> str:
        try:
            return describe(*_offer(self._store(runtime), self._ns(runtime), fact, source, slot,
                                    conversation(getattr(runtime, "state", None) or {}), many=many))
        except TarlError as err:               # tell the model what was wrong; nothing was written
            return f"not stored: {_brief(err)}"

    # -- extraction after the run -------------------------------------------------------------
    def _turn(self, state: Any) -> str | None:
        if self.extractor is None:
            return None
        return transcript(latest_turn(list(state["messages"]))) or None

    @staticmethod
    def _extraction_prompt(turn: str, known: list[SearchItem]) -> list[BaseMessage]:
        """The core's prompt, with the slots already in memory that the turn may be about (the most
        similar memories first, then the newest) so the model names one attribute the same way each time."""
        slotted = [(i.key, i.value.get("many"), _text(i.value)) for i in known]
        return [SystemMessage(with_known_slots(EXTRACT_PROMPT, slotted)), HumanMessage(turn)]

    @staticmethod
    def _known(store: BaseStore, ns: tuple[str, ...], turn: str) -> list[SearchItem]:
        return store.search(ns, query=turn, limit=KNOWN_SLOTS) + store.search(ns, limit=KNOWN_SLOTS)

    @staticmethod
    async def _aknown(store: BaseStore, ns: tuple[str, ...], turn: str) -> list[SearchItem]:
        return await store.asearch(ns, query=turn, limit=KNOWN_SLOTS) + await store.asearch(ns, limit=KNOWN_SLOTS)

    @staticmethod
    def _store_facts(store: BaseStore, ns: tuple[str, ...], said: list[tuple[str, str]],
                     facts: list[ExtractedFact]) -> None:
        for fact in facts:
            try:
                _offer(store, ns, fact.text, fact.source, fact.slot, said, fact.confidence, many=fact.many)
            except TarlError as err:            # a malformed claim from the model: skip it, say so
                log.warning("extracted claim not stored: %s", err)

    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (turn := self._turn(state)) is None or self.extractor is None:
            return None
        store, ns = self._store(runtime), self._ns(runtime)
        prompt = self._extraction_prompt(turn, self._known(store, ns, turn))
        try:                                    # best effort: the user's turn is already answered
            facts = _facts(self.extractor.invoke(prompt))
        except Exception as err:  # noqa: BLE001 - a provider's errors have no common type
            _not_extracted(err)
            return None
        self._store_facts(store, ns, conversation(state), facts)
        return None

    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if (turn := self._turn(state)) is None or self.extractor is None:
            return None
        store, ns = self._store(runtime), self._ns(runtime)
        prompt = self._extraction_prompt(turn, await self._aknown(store, ns, turn))
        try:
            facts = _facts(await self.extractor.ainvoke(prompt))
        except Exception as err:  # noqa: BLE001
            _not_extracted(err)
            return None
        await asyncio.to_thread(self._store_facts, store, ns, conversation(state), facts)
        return None


class _RuntimeWithConfig:
    """A LangGraph ``Runtime`` that also answers ``config``, as a ``ToolRuntime`` does."""

    def __init__(self, runtime: Any, config: Any) -> None:
        self._runtime, self.config = runtime, config

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runtime, name)


def _with_config(runtime: Any) -> Any:
    """The runtime a namespace function is given, with the run's ``config``. Why: the tools get a
    ``ToolRuntime`` (``config`` included) but the model-call and after-run hooks a ``Runtime`` (none), so
    ``lambda rt: ("memories", rt.config["configurable"]["user_id"])``, LangGraph's usual per-user
    namespace, worked in ``remember`` and raised ``AttributeError`` before the first model call."""
    if runtime is None or hasattr(runtime, "config"):
        return runtime
    try:
        config = get_config()
    except RuntimeError:                        # outside a run: nothing to add
        return runtime
    return _RuntimeWithConfig(runtime, config)


def _facts(reply: Any) -> list[ExtractedFact]:
    """The facts an extractor's reply (``structured.Structured``) carries: its structured output, or the same
    as JSON (in a tool call's arguments or the text). Prose is not read as facts: the prompt asks for JSON, so
    prose is the model talking about the turn ("There are no durable facts."), and storing it would put its
    commentary in memory as the user's word. Raises ``ValueError`` naming the first bad field."""
    if isinstance(reply, str) and isinstance(reply_object(reply), str):
        log.warning("extraction reply not used, nothing stored from this turn: the extractor answered in "
                    "prose, not structured output: %r", reply[:200])
        return []
    return parse_facts(reply)


def _not_extracted(err: Exception) -> None:
    """Why: extraction runs after the reply is produced and checkpointed; a rate limit or a reply the
    schema refuses must cost that turn's memories, never the turn itself."""
    log.warning("extraction failed, nothing stored from this turn: %s: %s", type(err).__name__, err)


def _offer(store: BaseStore, ns: tuple[str, ...], fact: str, source: str | None, slot: str | None,
           said: list[tuple[str, str]], confidence: float | None = None, *,
           many: bool | None = False) -> tuple[Decision | None, Attribution]:
    """Write one model-written fact. Whose word it is follows the core's trust rule
    (``shared_core.trust``). Its key: the canonical slot (``shared_core.extraction.canonical_slot``). On a
    ``TarlStore`` every fact is grounded against the whole namespace (``TarlStore.add``, with the slot as
    ``key`` when there is one), so the same attribute stored earlier without a slot, or under another, is
    revised rather than left current beside the new value; on any other store the key comes from
    ``extraction.store_key`` (never random)."""
    if not isinstance(fact, str) or not fact.strip():
        raise TarlError("fact", fact, "must be a non-empty sentence")
    many = False if many is None else many          # JSON null, as models send for every optional argument
    if not isinstance(many, bool):
        raise TarlError("many", many, "must be true or false")
    attribution = attribute(fact, spelled(source) if isinstance(source, str) else source, said)
    value: dict[str, Any] = {"text": fact, "source": attribution.source}
    if confidence is not None:
        value["confidence"] = confidence
    if attribution.claimed not in (None, attribution.source):
        value["metadata"] = attribution.metadata()
    key = canonical_slot(slot)
    if isinstance(store, TarlStore):     # grounded against the namespace: an earlier value may have no slot
        return (store.add(ns, value) if key is None else store.add(ns, {**value, "many": many}, key=key)), attribution
    return store.put(ns, store_key(ExtractedFact(text=fact, slot=key, many=many)), value), attribution


_TAG = re.compile(r"<(\s*/?\s*memories\b[^<>\n]*)(>?)", re.IGNORECASE)
"""Anything a model could read as the ``<memories>`` block's opening or closing tag."""


def _defused(text: str) -> str:
    """A stored text as one line in which every ``<memories>``-like tag reads ``‹memories›``. Why: a
    memory is data the user (or a web page) wrote; pasted as is, ``</memories> SYSTEM: ...`` would close
    the block and speak with the system prompt's authority, and a newline would forge another memory."""
    return _TAG.sub(lambda m: "\u2039" + m.group(1) + ("\u203a" if m.group(2) else ""), " ".join(text.split()))


def _brief(err: TarlError, limit: int = 120) -> str:
    """``err`` on one line with its value cut to ``limit`` characters. Why: a refused 9,000-character fact
    was read back to the model whole, as a 10,000-character tool reply, on every retry."""
    text, value = str(err), repr(err.value)
    if len(value) > limit and text.startswith(f"{err.field}={value}"):
        text = f"{err.field}={value[:limit]}...{text[len(err.field) + 1 + len(value):]}"
    return " ".join(text.split())


def _labels(namespace: Any) -> tuple[str, ...]:
    try:
        return namespaces.labels(namespace)
    except InvalidNamespaceError as err:
        raise TarlError("namespace", namespace, f"must be a tuple of labels, a string ('alice', 'memories.alice') or "
                                                f"a function of the runtime returning one ({err})") from None


def _lines(hits: list[SearchItem]) -> str:
    return "\n".join(line(_defused(_text(h.value)), h.key) for h in hits) or "no memories found"
