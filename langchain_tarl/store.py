"""``TarlStore``: a LangGraph ``BaseStore`` whose writes are TARL decisions."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    NotProvided,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

# The reference store's own namespace matching, so match conditions mean exactly what they
# mean for InMemoryStore (a private helper: pinned by the contract tests in tests/langchain/).
from langgraph.store.memory import _does_match
from shared_core import Action, Claim, Decision, Entry, Ledger, MemoryEngine, Reason, Step, TarlError
from shared_core.config import default_config
from shared_core.escalation import CALLS_PER_MINUTE, TIMEOUT, with_judge

from . import namespaces
from .judge import as_judge
from .filters import matches
from .values import claim_from_value, index_fields, is_indexed, key_of, value_of

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from shared_core.policy import Policy

    from .retriever import TarlRetriever


TIE = 1e-9     # scores closer than this are a tie (one query against equal texts gives bit-equal cosines)

LAST_DECISION: ContextVar[Decision | None] = ContextVar("tarl_last_decision", default=None)
"""The decision of the latest ``put``/``aput`` in this context, for wrappers around tools that call
``put`` but return their own message (langmem's manage tool: see :mod:`langchain_tarl.langmem_tools`)."""


class TarlItem(Item):
    """An ``Item`` that also carries the Accepted ``entry`` behind it (id, source, confidence,
    validity), so callers can see *why* memory holds this value without a second lookup."""

    __slots__ = ("entry",)

    def __init__(self, entry: Entry) -> None:
        super().__init__(value=value_of(entry), key=key_of(entry), namespace=namespaces.from_engine(entry.namespace),
                         created_at=entry.observed_at, updated_at=entry.observed_at)
        self.entry = entry


class TarlSearchItem(SearchItem):
    __slots__ = ("entry",)

    def __init__(self, entry: Entry, score: float | None) -> None:
        super().__init__(namespaces.from_engine(entry.namespace), key_of(entry), value_of(entry),
                         entry.observed_at, entry.observed_at, score)
        self.entry = entry


class TarlStore(BaseStore):
    """Long-term memory for LangGraph agents where every ``put`` is a TARL-gated write.

    .. code-block:: python

        from langchain_tarl import TarlStore

        store = TarlStore.open()                  # in-memory; TarlStore.open("mem/") persists
        ns = ("memories", "alice")
        store.put(ns, "home", {"text": "The user lives in Lisbon", "source": "user"})
        d = store.put(ns, "home", {"text": "The user lives in Porto", "source": "user"})
        d.action                                  # Action.REVISE: Lisbon went to History (superseded)
        d = store.put(ns, "home", {"text": "The user lives in Madrid", "source": "third_party"})
        d.action                                  # Action.REJECT_CONFLICT: hearsay, kept out with its reason
        store.get(ns, "home").value               # {'text': 'The user lives in Porto', 'source': 'user'}
        [i.entry.ledger for i in store.versions(ns, "home")]   # every value the key was ever given
        store.delete(ns, "home")                  # retracted into History, never erased

    The contract (the README's store table has every row and its reason):

    - **Keys are independent.** A ``put`` is weighed only against what its own key holds (distinct keys
      are distinct things: nine orders "o1".."o9" stay nine). ``ground_across_keys=True`` opts in to
      grounding each put against the whole namespace, for callers whose keys are random ids (langmem's uuid
      keys): a rumour under a fresh key is weighed against the fact it contradicts; two keys stay two slots
      (the same or a changed value under another key is kept beside the first; ``add`` grounds a keyless fact).
    - **The whole value decides whether a put changed anything.** The same value again is ``noop``; any
      other value on the key (``{"text": "Buy milk", "done": True}`` after ``"done": False``) is never
      dropped: it becomes current (``revise``), waits in Pending (``defer_verify``) or is kept in History
      as rejected (``reject_conflict``). ``put`` returns that :class:`~shared_core.Decision`; the
      transaction log records it (``store.engine.log(...)``) and :meth:`versions` shows it.
    - ``get``/``search`` see Accepted entries only, as :class:`TarlItem`/:class:`TarlSearchItem` whose
      ``value`` is exactly what was put and whose ``entry`` is the ledger row. ``search`` without a query
      lists newest first; with one, ranks by similarity across the namespaces under the prefix.
    - Keys are stored exactly (``" padded "`` is its own key). ``delete`` retracts the key's open entries
      into History (reason ``retracted``). ``index=`` (and ``open(index=...)``'s ``fields``) name the
      fields whose text is the claim's; ``index=False`` items are found by a query with score None,
      after the scored ones (every claim is still embedded: TARL grounds on it). TTL is not supported
      (``supports_ttl = False``).
    - A batch is validated whole before anything runs (one bad op and nothing is written), then run in
      order, so a ``GetOp`` after a ``PutOp`` on the same key sees the put's outcome.
    """

    index_config: IndexConfig | None = None
    """The ``index`` given to :meth:`open` (LangGraph stores expose theirs under this name)."""
    embeddings: Embeddings | None = None
    """The LangChain ``Embeddings`` given to :meth:`open` (``embeddings`` or ``index["embed"]``)."""
    _fields: list[str] | None = None

    def __init__(self, engine: MemoryEngine, *, default_source: str = "user", ground_across_keys: bool = False,
                 owns_engine: bool = False) -> None:
        if not isinstance(ground_across_keys, bool):
            raise TarlError("ground_across_keys", ground_across_keys, "must be True or False")
        _known_source(engine.config, default_source)
        self.engine = engine
        self.default_source = default_source
        self.ground_across_keys = ground_across_keys
        self._owns_engine = owns_engine

    @classmethod
    def open(cls, path: str | Path | None = None, *, embeddings: Embeddings | None = None,
             index: IndexConfig | None = None, ttl: TTLConfig | None = None, policy: Policy | None = None, chroma_url: str | None = None, default_source: str = "user",
             ground_across_keys: bool = False, judge: Any = None, share: float | None = None,
             calls_per_minute: int | None = CALLS_PER_MINUTE, judge_timeout: float = TIMEOUT) -> TarlStore:
        """Open an engine (``path`` None: in-memory) and a store that closes it; ``embeddings`` may be
        any LangChain ``Embeddings`` (default: the core's offline embedder). ``judge``: a chat model (or
        a :class:`~langchain_tarl.ChatModelJudge`) asked about the writes the policy is unsure of
        (``shared_core.escalation``), with ``share`` (the fraction of writes sent, the most doubtful;
        None: the doubt model's own threshold), ``calls_per_minute`` per namespace (None: no cap) and
        ``judge_timeout`` seconds, as ``EscalatingPolicy`` takes them.

        ``index``: LangGraph's ``IndexConfig`` (``{"dims": ..., "embed": ..., "fields": [...]}``, as
        ``InMemoryStore(index=...)`` takes it, or ``"text_fields"`` as ``SqliteStore`` does; ``embed`` an
        ``Embeddings``, a function or a ``"provider:model"`` string), instead of ``embeddings``.

        ``ttl``: LangGraph's ``TTLConfig`` is not supported (``NotImplementedError``, as ``put(ttl=...)``):
        a value expires by its ``valid_to``.

        Raises ``TarlError`` naming the field, before any file is created, for an invalid option or one
        given without a ``judge``."""
        if ttl is not None:
            raise NotImplementedError("TTL is not supported by TarlStore (ttl=...): use valid_to in the value instead")
        if not isinstance(ground_across_keys, bool):      # checked before a path creates files
            raise TarlError("ground_across_keys", ground_across_keys, "must be True or False")
        _known_source(default_config(), default_source)
        from .embeddings import embedder_from_index, embedder_from_langchain

        if index is not None and embeddings is not None:
            raise TarlError("index", index, "give either embeddings or index (its 'embed'), not both")
        embedder = embedder_from_langchain(embeddings) if embeddings is not None else None
        if index is not None:
            embedder, embeddings = embedder_from_index(index)
        policy = with_judge(policy, as_judge(judge), share=share, calls_per_minute=calls_per_minute,
                            judge_timeout=judge_timeout)
        engine = MemoryEngine.open(path, embedder=embedder, policy=policy, chroma_url=chroma_url)
        store = cls(engine, default_source=default_source, ground_across_keys=ground_across_keys, owns_engine=True)
        store.index_config = dict(index) if index is not None else None
        store.embeddings = embeddings
        if index is not None:    # "text_fields": LangGraph's SQLite store spells the paths so
            store._fields = index_fields(index["fields"] if index.get("fields") is not None else index.get("text_fields"))
        return store

    def as_retriever(self, namespace: Sequence[str], *, k: int = 4) -> TarlRetriever:
        from .retriever import TarlRetriever

        return TarlRetriever(engine=self.engine, namespace=tuple(namespace), k=k)

    def close(self) -> None:
        if self._owns_engine:
            self.engine.close()

    def __enter__(self) -> TarlStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the narrow waist ---------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        return [None if isinstance(r, Decision) else r for r in self._run(list(ops))]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    def put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any],  # type: ignore[override]
            index: Literal[False] | list[str] | None = None, *,
            ttl: float | None | NotProvided = NOT_PROVIDED) -> Decision | None:
        """As ``BaseStore.put``, but returns the TARL decision (``None`` for ``value=None``, a delete)."""
        self._check_ttl(ttl)
        if isinstance(namespace, tuple) and namespace and namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"namespace={namespace!r}: root label 'langgraph' is reserved")
        result = self._run([PutOp(namespace, str(key), value, index=index)])[0]
        decision = result if isinstance(result, Decision) else None
        LAST_DECISION.set(decision)
        return decision

    async def aput(self, namespace: tuple[str, ...], key: str, value: dict[str, Any],  # type: ignore[override]
                   index: Literal[False] | list[str] | None = None, *,
                   ttl: float | None | NotProvided = NOT_PROVIDED) -> Decision | None:
        decision = await asyncio.to_thread(self.put, namespace, key, value, index, ttl=ttl)
        LAST_DECISION.set(decision)                 # the worker thread's context does not come back
        return decision

    def add(self, namespace: tuple[str, ...], value: dict[str, Any], *, key: str | None = None) -> Decision:
        """Offer a fact from a conversation (a tool's or an extractor's): it is grounded against the whole
        namespace, so it may revise, restate or contradict any memory there. Without ``key`` it has no
        key of its own: if it is stored, its key is its entry id (``decision.entry_id``), usable with
        ``get`` and ``delete``; one that revises a keyed memory takes that key too (the new value of the
        key). With ``key`` (the memory tools' slot) it is stored under that key, whose changed value is
        never dropped, as a ``put``'s; unlike a ``put``, a value the namespace already holds under no key
        or another key is revised or restated, never left current beside it ("I live in Lisbon", said
        without a slot, then "The user lives in Berlin" on ``user.home_city``).

        The fact is ``value["text"]`` (or langmem's ``value["content"]``): a value without one, or with a
        blank one, is a ``TarlError`` naming it and writes nothing. Why, unlike ``put`` (whose key says what
        the value is about, so ``{}`` is a value): a free fact has nothing else to be weighed on, and its
        JSON (``{"text": ""}``) would be grounded against every memory, noop-ing or appending a non-fact."""
        if isinstance(value, dict) and not any(isinstance(value.get(f), str) and value[f].strip()
                                               for f in ("text", "content")):
            field = "content" if "content" in value and "text" not in value else "text"
            raise TarlError(f"value.{field}", value.get(field), "a free fact needs its text: a non-empty string")
        claim = claim_from_value(namespaces.to_engine(namespace), key, value, default_source=self.default_source,
                                 paths=self._fields)
        if namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"namespace={namespace!r}: root label 'langgraph' is reserved")
        if key is None:
            return self.engine.write(claim)
        return self.engine.write(claim, keyed=True, scope="namespace")

    async def aadd(self, namespace: tuple[str, ...], value: dict[str, Any], *, key: str | None = None) -> Decision:
        return await asyncio.to_thread(self.add, namespace, value, key=key)

    def _check_ttl(self, ttl: float | None | NotProvided) -> None:
        if ttl not in (NOT_PROVIDED, None):
            raise NotImplementedError("TTL is not supported by TarlStore: use valid_to in the value instead")

    def _run(self, ops: list[Op]) -> list[Result | Decision]:
        claims = [self._check(op) for op in ops]          # validate everything before any write
        return [self._apply(op, claim) for op, claim in zip(ops, claims)]

    def _check(self, op: Op) -> Claim | None:
        validate_op_namespace(op)
        if isinstance(op, PutOp):
            ns = namespaces.to_engine(op.namespace)
            if op.value is not None:     # the root label "langgraph" is LangGraph's own: put refuses it, batch not
                paths = self._fields if op.index is None or op.index is False else index_fields(op.index)
                return claim_from_value(ns, op.key, op.value, default_source=self.default_source,
                                        paths=paths, indexed=op.index is not False)
        elif isinstance(op, GetOp):
            namespaces.to_engine(op.namespace)
        elif isinstance(op, (SearchOp, ListNamespacesOp)):
            _non_negative("limit", op.limit)
            _non_negative("offset", op.offset)
            if isinstance(op, SearchOp) and op.query is not None and not isinstance(op.query, str):
                raise TarlError("query", op.query, "must be a string or None")
            if isinstance(op, ListNamespacesOp) and op.max_depth is not None:
                _non_negative("max_depth", op.max_depth)
        else:
            raise TarlError("op", op, "unknown store operation")
        return None

    def _apply(self, op: Op, claim: Claim | None) -> Result | Decision:
        if isinstance(op, GetOp):
            found = self._open_entries(namespaces.to_engine(op.namespace), op.key, (Ledger.ACCEPTED,))
            return TarlItem(found[-1]) if found else None
        if isinstance(op, PutOp):
            if claim is not None:
                return self.engine.write(claim, keyed=True, scope="namespace" if self.ground_across_keys else "key")
            self._retract(namespaces.to_engine(op.namespace), op.key)
            return None
        if isinstance(op, SearchOp):
            return self._search(op)
        assert isinstance(op, ListNamespacesOp)
        return self._list_namespaces(op)

    def versions(self, namespace: tuple[str, ...], key: str) -> list[TarlItem]:
        """Every value ``key`` was ever given, newest first, whatever became of it: ``item.entry.ledger``
        is Accepted (current), Pending (awaiting verification) or History, with ``entry.reason``
        (superseded, rejected, retracted, expired) and ``entry.note``. A put that did not become
        current is visible here."""
        ns = namespaces.to_engine(namespace)
        if not isinstance(key, str):
            raise TarlError("key", key, "must be a string")
        found = self._open_entries(ns, key, (Ledger.ACCEPTED, Ledger.PENDING, Ledger.HISTORY), expired=True)
        return [TarlItem(e) for e in reversed(found)]

    async def aversions(self, namespace: tuple[str, ...], key: str) -> list[TarlItem]:
        return await asyncio.to_thread(self.versions, namespace, key)

    # -- operations ---------------------------------------------------------------------------
    def _open_entries(self, ns: str, key: str, ledgers: tuple[Ledger, ...], expired: bool = False) -> list[Entry]:
        """Entries stored under ``key``, oldest first: those holding it as their slot, and the entry whose
        id it is (``add`` and engine writes: an entry's key is its id, still when it took a keyed memory's
        key by revising it). Both, not the first
        found: once a value was put on an added memory's key, a ``delete`` that retracted only the put
        brought the added value back. Accepted ones past their ``valid_to`` only with ``expired``."""
        found = [e for lg in ledgers for e in self.engine.by_slot(ns, key, lg, expired=expired)]
        entry = self.engine.get(key)
        if entry is not None and entry.namespace == ns and entry.slot != key and entry.ledger in ledgers \
                and (expired or not entry.expired(self.engine.clock())):
            found.append(entry)
        return sorted(found, key=lambda e: e.created_tx)

    def _retract(self, ns: str, key: str) -> None:
        found = self._open_entries(ns, key, (Ledger.ACCEPTED, Ledger.PENDING))
        if found:
            steps = [Step(Action.CLOSE, target_id=e.id, reason=Reason.RETRACTED, note="deleted through the store")
                     for e in found]
            self.engine.apply(ns, steps)

    def _namespaces(self, prefix: tuple[str, ...]) -> list[str]:
        return [n for n in self.engine.namespaces() if namespaces.from_engine(n)[:len(prefix)] == prefix]

    def _search(self, op: SearchOp) -> list[SearchItem]:
        want, query = op.offset + op.limit, (op.query or "").strip()    # a blank query lists, as no query
        if want == 0 or op.limit == 0:
            return []
        scored: list[tuple[Entry, float | None]] = []
        for ns in self._namespaces(tuple(op.namespace_prefix)):
            scored += self._ranked(ns, query, want, bool(op.filter)) if query else \
                [(e, None) for e in self.engine.accepted(ns)]
        # scored items best first, then the unscored (index=False) ones; each group newest first
        scored.sort(key=lambda p: (p[1] is None, -(p[1] or 0.0), -p[0].created_tx))
        if op.filter:
            scored = [(e, s) for e, s in scored if matches(value_of(e), op.filter)]
        return [TarlSearchItem(e, s) for e, s in scored[op.offset:want]]

    def _ranked(self, ns: str, query: str, want: int, filtered: bool) -> list[tuple[Entry, float | None]]:
        """The namespace's Accepted entries ranked for ``query``, at least ``want`` of them when there are:
        the indexed ones by score, then (as LangGraph fills a short page) those put with ``index=False``,
        score None. Every entry is in the engine's index (TARL grounds on it); the unindexed are skipped. Items
        tied with the page's last one are all fetched: the index returns an arbitrary few of a tie (a query
        sharing no word with several memories scores them 0.0), so pages repeated one and never showed another."""
        fetch = want if not filtered else max(want, len(self.engine.accepted(ns)))
        while True:
            hits = self.engine.search(query, ns, fetch)
            found: list[tuple[Entry, float | None]] = [(h.entry, h.score) for h in hits if is_indexed(h.entry)]
            if len(hits) < fetch or (len(found) >= want and hits[-1].score < (found[want - 1][1] or 0.0) - TIE):
                break
            fetch *= 4
        if len(found) < want or filtered:
            found += [(e, None) for e in self.engine.accepted(ns) if not is_indexed(e)]
        return found

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        spaces = [namespaces.from_engine(n) for n in self.engine.namespaces() if self.engine.accepted(n)]
        if op.match_conditions:
            spaces = [s for s in spaces if all(_does_match(c, s) for c in op.match_conditions)]
        if op.max_depth is not None:
            spaces = [s[:op.max_depth] for s in spaces]
        ordered = sorted(set(spaces))
        return ordered[op.offset:op.offset + op.limit]


def _known_source(config: Any, source: Any) -> None:
    """``default_source`` refused when the store opens, not at the first put that omits a source."""
    if not isinstance(source, str):
        raise TarlError("default_source", source, "must be a source name, e.g. 'user'")
    try:
        config.source(source)
    except TarlError as err:
        raise TarlError("default_source", source, str(err).split(": ", 1)[1]) from None


def _non_negative(field: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise TarlError(field, value, "must be a non-negative integer")
