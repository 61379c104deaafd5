"""``TarlMemoryBlock``: TARL long-term memory as a block of LlamaIndex's ``Memory``."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Annotated, Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms import LLM
from llama_index.core.memory import BaseMemoryBlock
from pydantic import AfterValidator, Field, PrivateAttr, ValidationError

from shared_core import Claim, Decision, Entry, Hit, MemoryEngine, TarlError, extraction

from .messages import query_of, role_of
from .statements import user_statements

ClaimLike = str | dict[str, Any] | Claim
Extractor = Callable[[list[ChatMessage]], Iterable[ClaimLike]]
"""Turns messages into claims (texts, dicts of ``Claim`` fields, or ``Claim``s); may be async."""

_BULLET = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s*")
log = logging.getLogger(__name__)


def _check_extractor(value: Any) -> Any:
    if value is not None and not (isinstance(value, LLM) or callable(value)):
        raise ValueError(f"extractor={value!r} must be a llama_index LLM or a callable")
    return value


class TarlMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory for ``llama_index.core.memory.Memory``: turns flushed out of the short-term
    history become claims that TARL accepts, revises, rejects or defers; each ``get`` brings back the
    Accepted memories relevant to the latest user message.

    >>> import asyncio
    >>> from llama_index.core.base.llms.types import ChatMessage
    >>> from llama_index.core.memory import Memory
    >>> from shared_core import MemoryEngine
    >>> block = TarlMemoryBlock(MemoryEngine.open(), namespace="user:ana", priority=1)
    >>> memory = Memory.from_defaults(session_id="s1", token_limit=24, token_flush_size=8,
    ...                               chat_history_token_ratio=0.5, tokenizer_fn=str.split, memory_blocks=[block])
    >>> for text in ["My order id is A-7731", "I live in Lisbon", "Thanks for the help"]:
    ...     asyncio.run(memory.aput_messages([ChatMessage(role="user", content=text),
    ...                                       ChatMessage(role="assistant", content="Noted.")]))
    >>> [d.action.value for d in block.last_decisions]        # the first two turns were flushed
    ['append', 'append']
    >>> print(asyncio.run(memory.aget())[0].content)
    <memory>
    <tarl_memory>
    - My order id is A-7731
    - I live in Lisbon
    </tarl_memory>
    </memory>

    Writes happen when ``Memory`` flushes (``_aput``), i.e. once the history outgrows its budget; call
    ``aremember`` to write right away. A flushed turn that cannot become claims (a failing extractor, a
    malformed reply) is skipped with a warning, never failing ``Memory``'s put (``remember_turn``). With
    ``extractor=`` (an ``LLM`` or a callable) claims are extracted from whole turns (an LLM gets the core's
    slot-naming prompt: each fact with a canonical ``subject.attribute`` slot and whether it holds several
    values, so a second value of one attribute is weighed against the first); otherwise each statement of a
    user message is one claim with ``source`` (``user_statements``: questions and requests to the assistant
    are left out). ``atruncate`` drops the least relevant memories first.
    """

    name: str = "tarl_memory"
    description: str | None = "Long-term facts about the user, kept by TARL (Accepted ledger only)."
    namespace: str = Field(default="default", pattern=r"\S")
    top_k: int = Field(default=5, ge=1)
    source: str = Field(default="user", pattern=r"\S")
    extractor: Annotated[Any, AfterValidator(_check_extractor)] = Field(default=None, exclude=True)
    _engine: MemoryEngine = PrivateAttr()
    _decisions: list[Decision] = PrivateAttr(default_factory=list)

    def __init__(self, engine: MemoryEngine, **data: Any) -> None:
        super().__init__(**data)
        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        engine.config.source(self.source)       # now: an unknown source would drop every turn, each with a warning
        self._engine = engine

    @property
    def engine(self) -> MemoryEngine:
        return self._engine

    @property
    def last_decisions(self) -> list[Decision]:
        """What TARL did with the claims of the last write (one decision per claim)."""
        return list(self._decisions)

    # -- writes: messages -> claims -> engine -------------------------------------------------
    def remember(self, messages: Sequence[ChatMessage]) -> list[Decision]:
        """Write ``messages`` as claims now; a TarlError (naming the extractor's bad item, or the extractor
        when it fails) means nothing was written."""
        if isinstance(self.extractor, LLM):
            prompt = _prompt(messages, self._known(messages))
            with _failing(self.extractor):
                reply = self.extractor.chat([prompt])
            raw: Any = _facts(reply.message.content)
        else:
            with _failing(extract := self.extractor or user_statements):
                raw = extract(list(messages))
            if inspect.isawaitable(raw):
                getattr(raw, "close", lambda: None)()          # never awaited: close it quietly
                raise TarlError("extractor", self.extractor, "is async; use the async path (aput/aremember)")
        self._decisions = self._engine.write_many(self._claims(raw))
        return self.last_decisions

    async def aremember(self, messages: Sequence[ChatMessage]) -> list[Decision]:
        if isinstance(self.extractor, LLM):
            prompt = _prompt(messages, await asyncio.to_thread(self._known, messages))
            with _failing(self.extractor):
                reply = await self.extractor.achat([prompt])
            raw: Any = _facts(reply.message.content)
        else:
            with _failing(extract := self.extractor or user_statements):
                raw = extract(list(messages))
                if inspect.isawaitable(raw):
                    raw = await raw
        self._decisions = await self._engine.awrite_many(self._claims(raw))
        return self.last_decisions

    def remember_turn(self, messages: Sequence[ChatMessage]) -> list[Decision]:
        """``remember`` for a turn the chat has already closed: a turn that cannot become claims is skipped
        with a warning, because a memory is a side effect of the chat and must never fail the user's turn
        (nor, failing, leave it open to be sent again with every later turn)."""
        try:
            return self.remember(messages)
        except TarlError as err:
            return self._skipped(err)

    async def aremember_turn(self, messages: Sequence[ChatMessage]) -> list[Decision]:
        try:
            return await self.aremember(messages)
        except TarlError as err:
            return self._skipped(err)

    def _skipped(self, err: TarlError) -> list[Decision]:
        log.warning("a closed turn was not written to long-term memory (namespace %r): %s", self.namespace,
                    brief(err))
        self._decisions = []
        return []

    def _known(self, messages: Sequence[ChatMessage]) -> list[Entry]:
        """Memories whose slots the extracting LLM is shown: the most similar to the turn, then the newest."""
        query = " ".join((m.content or "") for m in messages).strip()
        similar = [h.entry for h in self._engine.search(query, self.namespace, extraction.KNOWN_SLOTS)] if query else []
        newest = sorted(self._engine.accepted(self.namespace), key=lambda e: -e.created_tx)
        return similar + newest[:extraction.KNOWN_SLOTS]

    def _claims(self, raw: Any) -> list[Claim]:
        """Validate every extracted item before anything is written (one bad item writes nothing)."""
        if isinstance(raw, (str, bytes, dict)) or not isinstance(raw, Iterable):
            raise TarlError("extractor", raw, "must return a list of strings, dicts or Claims")
        claims: list[Claim] = []
        for i, item in enumerate(raw):
            try:
                if isinstance(item, str):
                    claims.append(Claim(text=item, namespace=self.namespace, source=self.source))
                elif isinstance(item, dict):
                    claims.append(Claim(**{"namespace": self.namespace, "source": self.source, **item}))
                elif isinstance(item, Claim):
                    claims.append(item)
                else:
                    raise TarlError(f"extractor[{i}]", item, "must be a string, a dict of Claim fields or a Claim")
            except ValidationError as exc:
                err = exc.errors()[0]
                field = ".".join(str(p) for p in err["loc"]) or "claim"
                raise TarlError(f"extractor[{i}].{field}", err.get("input"), err["msg"]) from None
        return claims

    # -- reads: engine -> text ----------------------------------------------------------------
    def recall(self, query: str | None) -> str:
        return render(self.hits(query))

    async def arecall(self, query: str | None) -> str:
        return render(await self.ahits(query))

    def hits(self, query: str | None) -> list[Hit]:
        """The ``top_k`` Accepted memories most relevant to ``query`` (none without a query)."""
        return self._engine.search(query, self.namespace, self.top_k) if query else []

    async def ahits(self, query: str | None) -> list[Hit]:
        return await self._engine.asearch(query, self.namespace, self.top_k) if query else []

    # -- BaseMemoryBlock ----------------------------------------------------------------------
    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        return await self.arecall(query_of(messages))

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """``Memory`` has already archived the flushed messages: a failure here would only fail its put."""
        await self.aremember_turn(messages)

    async def atruncate(self, content: Any, tokens_to_truncate: int) -> str | None:
        """Drop memories from the least relevant end, about ``tokens_to_truncate`` words' worth. Anything
        but this block's text (``Memory`` passes ``[]`` for a block that returned nothing) is dropped
        whole, as LlamaIndex's own blocks do."""
        if not isinstance(content, str):
            return await super().atruncate(content, tokens_to_truncate)
        lines = content.splitlines()
        while lines and tokens_to_truncate > 0:
            tokens_to_truncate -= len(lines.pop().split())
        return "\n".join(lines) or None


def brief(err: TarlError, limit: int = 120) -> str:
    """``err`` on one line, its value cut to ``limit`` characters (a pasted document is not repeated)."""
    text = str(err)
    value = repr(err.value)
    if len(value) > limit and text.startswith(f"{err.field}={value}"):
        text = f"{err.field}={value[:limit]}...{text[len(err.field) + 1 + len(value):]}"
    return " ".join(line.strip() for line in text.splitlines())


@contextmanager
def _failing(extractor: Any) -> Iterator[None]:
    """An extractor's own failure (an LLM's timeout, a callable's bug) as a TarlError naming the extractor."""
    try:
        yield
    except TarlError:
        raise
    except Exception as exc:
        name = getattr(extractor, "__qualname__", None) or type(extractor).__name__
        raise TarlError("extractor", name, f"failed: {type(exc).__name__}: {exc}") from exc


def render(hits: Sequence[Hit]) -> str:
    """Memories as the LLM sees them: one line each, most relevant first."""
    return "\n".join(extraction.line(h.entry.text, h.entry.slot) for h in hits)


def _prompt(messages: Sequence[ChatMessage], known: Sequence[Entry]) -> ChatMessage:
    """The core's one slot-naming extraction prompt, asked in plain chat (any LLM; JSON reply), with the
    slots already in memory (``extraction.with_known_slots``)."""
    transcript = "\n".join(f"{role_of(m)}: {m.content}" for m in messages if m.content)
    slotted = [(e.slot, e.metadata.get("many"), e.text) for e in known]
    prompt = extraction.with_known_slots(extraction.EXTRACT_PROMPT, slotted) + extraction.JSON_REPLY
    return ChatMessage(role="user", content=f"{prompt}\n\nConversation:\n{transcript}")


def _facts(reply: str | None) -> list[dict[str, Any]]:
    """The LLM's reply (JSON facts with slots, or plain lines) as dicts of Claim fields; a fact whose
    slot is missing or not a canonical ``subject.attribute`` is kept as free text (no slot)."""
    try:
        facts = extraction.parse_facts(reply or "")
    except ValueError as err:
        raise TarlError("extractor", reply, f"reply does not parse: {err}") from None
    out = []
    for f in facts:
        item: dict[str, Any] = {"text": f.text, "source": f.source, "confidence": f.confidence}
        if f.slot is not None:
            item.update(slot=f.slot, many=f.many)
        out.append(item)
    return out


def _lines(reply: str | None) -> list[str]:
    lines = [_BULLET.sub("", line).strip() for line in (reply or "").splitlines()]
    return [line for line in lines if line and line.upper() != "NONE"]
