"""``TarlMemory``: chat memory whose history is trimmed by LRE and which remembers across sessions.

Why a ``BaseMemory`` subclass and not a pinned-turns block inside ``Memory``: ``Memory`` flushes its
history strictly FIFO and offers no hook to choose what leaves, so a block could only re-insert turns
*after* FIFO dropped them, out of order and ahead of the history, under ``Memory``'s inverted block
priorities. LRE needs to see the whole history and choose once. ``SimpleChatEngine``, the context chat
engines and ``FunctionAgent`` all type memory as ``BaseMemory``, so this is a drop-in replacement for
``ChatMemoryBuffer`` (same chat-store layout: one key per session) with LRE instead of FIFO. State is
external: the history lives in a LlamaIndex chat store under ``session_id`` and long-term memory in the
``MemoryEngine`` under ``namespace``, so copies of this object share one state. With a ``path`` the chat
store is a :class:`~llamaindex_tarl.chat_store.SQLiteChatStore` in the same directory as the ledger
(``path/chat.db``), so a new process with the same path and ``session_id`` resumes the conversation. A
workflow ``Context`` saved with ``to_dict`` keeps where the memory lives (namespace, session, chat store),
and ``Context.from_dict`` restores it onto the open ``TarlMemory`` holding that state (``live``): in a new
process, open the memory before the restored context is used.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from llama_index.core.base.embeddings.base import BaseEmbedding
from llama_index.core.async_utils import asyncio_run
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import BaseMemoryBlock, InsertMethod
from llama_index.core.memory.types import BaseChatStoreMemory
from llama_index.core.storage.chat_store.base_db import MessageStatus
from llama_index.core.storage.chat_store import BaseChatStore, SimpleChatStore
from llama_index.core.tools import FunctionTool
from pydantic import AfterValidator, Field, PrivateAttr

from shared_core import Hit, MemoryEngine, TarlError
from shared_core.config import default_config
from shared_core.escalation import CALLS_PER_MINUTE, TIMEOUT, attach, check_escalation
from shared_core.lre import MESSAGE_OVERHEAD, Scorer, StreamingScorer, count_tokens, trim
from shared_core.policy import Policy

from . import compose, live
from .compose import MEMORY_HEADER, trim_history  # noqa: F401  (public: re-exported by the package)
from .block import TarlMemoryBlock, render
from .chat_store import CHAT_FILE, SQLiteChatStore
from .engine import check_fields, open_engine
from .judge import as_judge
from .messages import archived, as_message, check_message, check_messages, ends_turn, last_turn, query_of, text_of
from .retriever import TarlRetriever
from .tools import memory_tools


class TarlMemory(BaseChatStoreMemory):
    """Chat memory for LlamaIndex chat engines and agents: LRE-trimmed history plus TARL long-term memory.

    >>> from llama_index.core.chat_engine import SimpleChatEngine
    >>> from llama_index.core.llms import MockLLM
    >>> memory = TarlMemory.from_defaults(namespace="user:ana", session_id="monday", token_limit=2048)
    >>> engine = SimpleChatEngine.from_defaults(llm=MockLLM(), memory=memory)
    >>> _ = engine.chat("My order id is A-7731")
    >>> tuesday = TarlMemory.from_defaults(engine=memory.engine, namespace="user:ana", session_id="tuesday")
    >>> [m.content for m in tuesday.get(input="what is my order id?")]
    ['Long-term memory about the user (most relevant first):\\n- My order id is A-7731']

    Each finished turn (a user message up to the assistant answer that calls no tool) goes to TARL as
    claims, through ``extractor`` when given (see ``TarlMemoryBlock``). ``get`` returns one system message
    with the memories relevant to the latest user message (or ``input``), then the history: the LRE units
    chosen by LRE to fit ``token_limit`` minus the memories and the caller's ``initial_token_count``,
    the last ``keep_last`` LRE units always included, in their original order. ``reset`` clears this
    session's history only; long-term memory is changed through the engine (``retract``/``verify``).

    ``close()`` (or ``with TarlMemory.from_defaults(path=...) as memory:``) releases the engine and
    chat store that ``from_defaults`` opened; an engine or chat store passed in stays the caller's. A
    closed memory raises ``TarlError`` saying so on every use. ``session_id`` can be set, as on LlamaIndex's
    ``Memory``: the memory then reads and writes that session's history.
    """

    token_limit: int = Field(default=3000, gt=0)
    keep_last: int = Field(default=4, ge=0)
    chat_history_token_ratio: float = Field(default=1.0, gt=0, le=1)
    """The share of ``token_limit`` the history may take at most (``Memory``'s default is 0.7)."""
    token_flush_size: int = Field(default=3000, gt=0)
    """Accepted as on ``Memory``, without effect: LRE trims at read time, nothing is flushed."""
    memory_blocks: Annotated[list[BaseMemoryBlock], AfterValidator(compose.unique_names)] = Field(
        default_factory=list, exclude=True)
    """Other LlamaIndex memory blocks, read and inserted as ``Memory`` does; each gets every closed turn."""
    insert_method: InsertMethod = InsertMethod.SYSTEM
    token_counter: Callable[[str], int] = Field(default=count_tokens, exclude=True)
    scorer: Any = Field(default=None, exclude=True)
    """An LRE ``Scorer`` (None: the shipped default weights)."""
    _block: TarlMemoryBlock = PrivateAttr()
    _owned: list[Any] = PrivateAttr(default_factory=list)
    _stream: Any = PrivateAttr(default=None)
    _stream_lock: Any = PrivateAttr(default_factory=threading.Lock)
    _put_lock: Any = PrivateAttr(default_factory=threading.Lock)
    _closed: bool = PrivateAttr(default=False)
    _memory_id: str = PrivateAttr(default_factory=lambda: uuid.uuid4().hex)
    _origin: TarlMemory | None = PrivateAttr(default=None)

    def __init__(self, block: TarlMemoryBlock, **data: Any) -> None:
        super().__init__(**data)
        if not isinstance(block, TarlMemoryBlock):
            raise TarlError("block", block, "must be a TarlMemoryBlock")
        self._block = block
        live.register(self)

    @classmethod
    def class_name(cls) -> str:
        return "TarlMemory"

    @classmethod
    def from_defaults(  # type: ignore[override]
        cls,
        path: str | Path | None = None,
        *,
        engine: MemoryEngine | None = None,
        namespace: str = "default",
        session_id: str | None = None,
        token_limit: int = 3000,
        keep_last: int = 4,
        top_k: int = 5,
        extractor: Any = None,
        embed_model: BaseEmbedding | None = None,
        token_counter: Callable[[str], int] | None = None,
        tokenizer_fn: Callable[[str], Sequence[Any]] | None = None,
        chat_store: BaseChatStore | None = None,
        chat_history: Sequence[ChatMessage] | None = None,
        source: str = "user",
        policy: Policy | None = None,
        judge: Any = None,
        share: float | None = None,
        calls_per_minute: int | None = CALLS_PER_MINUTE,
        judge_timeout: float = TIMEOUT,
        chat_history_token_ratio: float = 1.0,
        token_flush_size: int = 3000,
        memory_blocks: Sequence[BaseMemoryBlock] | None = None,
        insert_method: InsertMethod = InsertMethod.SYSTEM,
    ) -> TarlMemory:
        """One call for the common case: a store at ``path`` (None: in memory) or an open ``engine``;
        ``session_id`` (default: a new one) keys the chat history, ``namespace`` the long-term memory;
        with ``path`` and no ``chat_store`` the history is kept in ``path/chat.db`` (it survives a restart);
        ``policy`` (for a new store) picks the decision policy (None: the engine's default);
        ``judge`` (an ``LLM``, e.g. the agent's own, or an :class:`~llamaindex_tarl.LLMJudge`) is asked
        about the writes the policy is unsure of (``shared_core.escalation``; an ``engine`` given is changed),
        with ``share`` (the fraction of writes sent, the most doubtful; None: the doubt model's threshold),
        ``calls_per_minute`` per namespace (None: no cap) and ``judge_timeout`` seconds; an invalid option,
        or one without a ``judge``, raises ``TarlError`` naming it before anything is opened.
        Token counting: ``token_counter`` (text -> int) or a LlamaIndex-style ``tokenizer_fn`` (text ->
        tokens); the default is LRE's offline approximation, so nothing is downloaded. ``Memory``'s
        ``chat_history_token_ratio``, ``token_flush_size`` (no effect), ``memory_blocks`` and
        ``insert_method`` are taken as ``Memory.from_defaults`` takes them."""
        if token_counter is not None and tokenizer_fn is not None:
            raise TarlError("tokenizer_fn", tokenizer_fn, "pass token_counter or tokenizer_fn, not both")
        if tokenizer_fn is not None:
            fn = tokenizer_fn
            token_counter = lambda text: len(fn(text))  # noqa: E731
        block_fields = {"namespace": namespace, "top_k": top_k, "extractor": extractor, "source": source}
        fields = {"token_limit": token_limit, "keep_last": keep_last, "token_counter": token_counter or count_tokens,
                  "chat_store": chat_store or SimpleChatStore(), "chat_store_key": session_id or uuid.uuid4().hex,
                  "chat_history_token_ratio": chat_history_token_ratio, "insert_method": insert_method,
                  "token_flush_size": token_flush_size, "memory_blocks": list(memory_blocks or [])}
        judge = as_judge(judge)
        escalation = {"share": share, "calls_per_minute": calls_per_minute, "judge_timeout": judge_timeout}
        check_escalation(judge, **escalation)
        check_fields(TarlMemoryBlock, block_fields)     # validate everything before opening a store:
        check_fields(cls, fields)                       # opening one at a path creates files
        (engine.config if isinstance(engine, MemoryEngine) else default_config()).source(source)
        if token_flush_size > token_limit:              # as Memory.from_defaults
            fields["token_flush_size"] = max(int(token_limit * 0.7), 1)
        history = check_messages(chat_history) if chat_history is not None else []
        options = {"policy": policy} if policy is not None else {}
        opened = open_engine(engine, path, embed_model, **options)
        owned: list[Any] = [] if engine is not None else [opened]
        if chat_store is None and path is not None:
            fields["chat_store"] = SQLiteChatStore(Path(path) / CHAT_FILE)
            owned.append(fields["chat_store"])
        memory = cls(TarlMemoryBlock(opened, **block_fields), **fields)
        memory._owned = owned
        attach(memory.engine, judge, **escalation)
        if history:
            memory.set(history)
        return memory

    def close(self) -> None:
        """Close what ``from_defaults`` opened (the engine at ``path``, the chat store beside it); this
        object is then done with, whoever owns the engine."""
        self._closed = True
        while self._owned:
            self._owned.pop().close()

    @property
    def closed(self) -> bool:
        """Closed, or restored from a saved context onto a memory that is now closed."""
        return self._closed or (self._origin is not None and self._origin.closed)

    @property
    def memory_id(self) -> str:
        """This memory's identity in this process, shared by the copies a workflow ``Context`` restores."""
        return self._memory_id

    def to_dict(self, **kwargs: Any) -> dict[str, Any]:
        """What a workflow ``Context`` saves: where this memory's state lives (namespace, session, the chat
        store's kind and file), never the state, which stays in its stores (``live``). So a chat store's
        messages are not dumped (a ``SimpleChatStore`` holding messages fails to dump under LlamaIndex 0.14
        and pydantic 2, and the workflow then drops the memory with a warning); ``kwargs`` are ignored."""
        store = {"class_name": self.chat_store.class_name(), "path": getattr(self.chat_store, "path", None)}
        return {**super().to_dict(exclude={"chat_store"}), "chat_store": store, "namespace": self.namespace,
                "memory_id": self.memory_id, "insert_method": InsertMethod(self.insert_method).value}

    @classmethod
    def from_dict(cls, data: dict[str, Any], **kwargs: Any) -> TarlMemory:  # type: ignore[override]
        """A memory saved by ``to_dict`` (a workflow ``Context`` restoring its state): a view sharing the
        engine, extractor and chat store of the open memory holding that state (``live.find``; none open is
        a ``TarlError`` naming the fix), with the saved session and limits; closing it closes only the view."""
        saved = {**data, **kwargs}
        origin = live.find(saved)
        limits = {k: saved.get(k, getattr(origin, k)) for k in live.LIMITS}
        view = cls(origin.block, chat_store=origin.chat_store, token_counter=origin.token_counter,
                   scorer=origin.scorer, chat_store_key=saved.get("chat_store_key", origin.session_id),
                   memory_blocks=origin.memory_blocks, **limits)
        view._memory_id, view._origin = origin.memory_id, origin
        view._put_lock = origin._put_lock          # one session's puts, one lock (see _append)
        return view

    def _check_open(self) -> None:
        """One clear error instead of whatever a closed chat store or engine raises first."""
        if self.closed:
            raise TarlError("session_id", self.session_id, "this TarlMemory is closed (close() was called); "
                            "open it again with TarlMemory.from_defaults")

    def __enter__(self) -> TarlMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the adapters and tests reach through ----------------------------------------------
    @property
    def engine(self) -> MemoryEngine:
        return self._block.engine

    @property
    def block(self) -> TarlMemoryBlock:
        return self._block

    @property
    def session_id(self) -> str:
        return self.chat_store_key

    @session_id.setter
    def session_id(self, value: str) -> None:
        if not isinstance(value, str) or not value.strip():
            raise TarlError("session_id", value, "must be a non-empty string")
        with self._stream_lock:
            self.chat_store_key = value
            self._stream = None                     # the streaming scorer's cache is the old session's

    @property
    def namespace(self) -> str:
        return self._block.namespace

    @property
    def tokenizer_fn(self) -> Callable[[str], Sequence[int]]:
        """LlamaIndex engines size their prompt with ``len(memory.tokenizer_fn(text))``."""
        return lambda text: range(self.token_counter(text))

    def as_retriever(self, **kwargs: Any) -> TarlRetriever:
        self._check_open()      # the memory's own top_k unless given (``top_k`` or ``similarity_top_k``)
        top = {} if {"top_k", "similarity_top_k"} & kwargs.keys() else {"top_k": self._block.top_k}
        return TarlRetriever(self.engine, namespace=self.namespace, **top, **kwargs)

    def tools(self, **kwargs: Any) -> list[FunctionTool]:
        """``remember``/``recall`` on this memory's namespace; ``remember`` checks relayed facts against
        this session's history (and, inside an agent run, the run's own tool results)."""
        self._check_open()
        return memory_tools(self.engine, namespace=self.namespace, history=self.aget_all, **kwargs)

    # -- BaseMemory -------------------------------------------------------------------------------
    def get_all(self, status: MessageStatus | None = None) -> list[ChatMessage]:
        """This session's history. ``status`` as on ``Memory``: nothing is ever archived here (LRE trims at
        read time), so every message is ``ACTIVE`` and ``ARCHIVED`` lists none."""
        self._check_open()
        return [] if archived(status) else super().get_all()

    async def aget_all(self, status: MessageStatus | None = None) -> list[ChatMessage]:
        self._check_open()
        return [] if archived(status) else await super().aget_all()

    def reset(self, status: MessageStatus | None = None) -> None:
        self._check_open()
        if not archived(status):
            super().reset()

    async def areset(self, status: MessageStatus | None = None) -> None:
        self._check_open()
        if not archived(status):
            await super().areset()

    def get(self, input: str | None = None, initial_token_count: int = 0, **kwargs: Any) -> list[ChatMessage]:
        if self.memory_blocks:                      # blocks are async: one path for both
            return asyncio_run(self.aget(input, initial_token_count, **kwargs))
        history = self.get_all()
        return self._compose(history, self._block.hits(query_of(history, input)), initial_token_count)[0]

    async def aget(self, input: str | None = None, initial_token_count: int = 0, **kwargs: Any) -> list[ChatMessage]:
        """As ``get``; the LRE trim (CPU-bound) runs in a worker thread, off the event loop. Other
        ``memory_blocks`` get ``kwargs`` and ``session_id`` (as from ``Memory``), are cut to fit
        ``token_limit`` as ``Memory`` cuts them, then inserted by ``insert_method``."""
        history = await self.aget_all()
        hits = await self._block.ahits(query_of(history, input))
        contents = await compose.block_contents(self.memory_blocks, history, input, self.session_id, **kwargs)
        kept, used = await asyncio.to_thread(self._compose, history, hits, initial_token_count)
        if not contents:
            return kept
        contents = await compose.truncate(self.memory_blocks, contents, used - self.token_limit, self.token_counter)
        return compose.insert(kept, self.memory_blocks, contents, self.insert_method)

    def put(self, message: ChatMessage) -> None:
        """Store the message; when it closes a turn, hand the turn to TARL after: a turn that cannot become
        memories (a pasted document, a failing extractor) is skipped as a memory with a warning, so the
        chat never fails on it and the turn stays closed (``TarlMemoryBlock.remember_turn``)."""
        check_message(message)
        self._check_open()
        if (turn := self._append(message)) is not None:
            self._block.remember_turn(turn)
            if self.memory_blocks:
                asyncio_run(compose.feed(self.memory_blocks, turn, self.session_id))

    async def aput(self, message: ChatMessage) -> None:
        check_message(message)
        self._check_open()
        if (turn := await asyncio.to_thread(self._append, message)) is not None:
            await self._block.aremember_turn(turn)
            await compose.feed(self.memory_blocks, turn, self.session_id)

    def _append(self, message: ChatMessage) -> list[ChatMessage] | None:
        """Store ``message`` and return the turn it closes (None: none), the history read with the put under
        one lock. Why: read after the put, concurrent puts to one session (u1 u2 a1 a2) made each answer's
        turn the last answer alone, and neither user message became memory."""
        with self._put_lock:
            before = list(super().get_all()) if ends_turn(message) else None   # a copy: stores share theirs
            super().put(message)
        return None if before is None else last_turn([*before, message])

    def put_messages(self, messages: list[ChatMessage]) -> None:
        for m in check_messages(messages):
            self.put(m)

    async def aput_messages(self, messages: list[ChatMessage]) -> None:
        for m in check_messages(messages):
            await self.aput(m)

    def set(self, messages: list[ChatMessage]) -> None:
        """Replace this session's history (no claims are written: it is restored, not said anew)."""
        self._check_open()
        super().set(check_messages(messages))

    async def aset(self, messages: list[ChatMessage]) -> None:
        self._check_open()
        await super().aset(check_messages(messages))

    # -- composition (pure) -------------------------------------------------------------------------
    def _compose(self, history: list[ChatMessage], hits: list[Hit], initial_token_count: int
                 ) -> tuple[list[ChatMessage], int]:
        """The memories and the history kept (``compose.keep_within``: LRE, the latest turn whole), and the
        tokens they take with ``initial_token_count``. The memories take what ``initial_token_count`` and the
        latest turn leave (``compose.most_relevant_within``), the history what the memories leave, at most
        ``chat_history_token_ratio`` of ``token_limit``; a memory the kept history already shows word for
        word is left out (it would only repeat it)."""
        compose.check_initial(initial_token_count, self.token_limit)
        room = self.token_limit - initial_token_count
        hits, cost = compose.most_relevant_within(hits, history, room, self.token_counter)
        budget = min(room - cost, int(self.token_limit * self.chat_history_token_ratio))
        with self._stream_lock:                     # a StreamingScorer is stateful: one trim at a time
            kept = compose.keep_within(history, max(budget, 0), self.keep_last, self._trim)
        shown = [text_of(m) for m in kept]
        memories = render([h for h in hits if not any(h.entry.text in text for text in shown)])
        used = initial_token_count + sum(self.token_counter(text_of(m)) + MESSAGE_OVERHEAD for m in kept)
        if not memories:
            return kept, used
        used += compose.memories_cost(memories, self.token_counter)
        if InsertMethod(self.insert_method) == InsertMethod.SYSTEM:
            return [ChatMessage(role="system", content=f"{MEMORY_HEADER}\n{memories}"), *kept], used
        return compose.prepend_to_user(kept, f"{MEMORY_HEADER}\n{memories}"), used

    def _trim(self, history: list[ChatMessage], budget: int, **options: Any) -> list[ChatMessage]:
        return trim(list(history), budget, token_counter=self.token_counter, scorer=self._unit_scorer(),
                    as_message=as_message, **options)

    def _unit_scorer(self) -> Any:
        """A ``StreamingScorer`` kept for this session around ``scorer`` (an LRE ``Scorer`` or None), so
        each turn is scored once across ``get`` calls; any other unit scorer is used as given."""
        if self.scorer is not None and not isinstance(self.scorer, Scorer):
            return self.scorer
        if self._stream is None or (self.scorer is not None and self._stream.scorer is not self.scorer):
            self._stream = StreamingScorer(self.scorer)
        return self._stream
