"""MemoryEngine: the one facade the adapters and the CLI call.

A write flows one way: embed (outside the lock) -> under the ledger's write lock: ground, compare
reliability, let the policy decide, execute -> commit -> update the derived index. Reads go to the
index for ids and to the ledger for the entries, so a stale index can never surface a closed entry.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from . import decision as deciding
from . import executor, pending
from .beliefs.api import BeliefsAPI
from .config import PolicyConfig
from .errors import TarlError, UnknownEntry
from .executor import MemoryState, Step
from .index import Embedder, default_embedder
from .index.behind import IndexWriter
from .index.cache import VectorCache
from .ledgers import LedgerStore, SQLiteLedgerStore
from .policy import LearnedPolicy, Policy
from .schema import Action, Claim, Decision, Entry, Ledger, Reason, Transaction, utcnow

INDEXED_TX = "indexed_tx"
_T = TypeVar("_T")


@dataclass(frozen=True)
class Hit:
    entry: Entry
    score: float


class MemoryEngine(BeliefsAPI):
    """Long-term memory over three TARL ledgers.

    >>> engine = MemoryEngine.open()                       # in-memory SQLite + ephemeral Chroma
    >>> engine.write(Claim(text="Alice lives in Lisbon", namespace="alice")).action.value
    'append'
    >>> [h.entry.text for h in engine.search("where does Alice live?", "alice")]
    ['Alice lives in Lisbon']
    >>> engine.close()
    """

    def __init__(self, store: LedgerStore, index: Any, *, policy: Policy | None = None,
                 config: PolicyConfig | dict[str, Any] | None = None, clock: Callable[[], datetime] = utcnow) -> None:
        self.store = store
        self.index = index
        self.vectors = VectorCache(index.embedder.dim, self._load_vectors)
        self.policy: Policy = policy or LearnedPolicy()
        self.config = PolicyConfig.coerce(config)
        self.clock = clock
        self._seen = 0
        self._lock = threading.RLock()          # the vector cache is shared by threads (async adapters)
        self.writer = IndexWriter(index, lambda tx: self.store.set_meta(INDEXED_TX, str(tx)))
        self.reconcile()

    @classmethod
    def open(cls, path: str | Path | None = None, *, embedder: Embedder | None = None, policy: Policy | None = None,
             config: PolicyConfig | dict[str, Any] | None = None, chroma_url: str | None = None,
             clock: Callable[[], datetime] = utcnow) -> MemoryEngine:
        """``path`` None: private in-memory store and index; else ``path/ledger.db`` and ``path/chroma``.
        ``chroma_url`` uses a Chroma server for the index instead of the embedded one. ``config``: source
        trust, source-name aliases and thresholds (``PolicyConfig``; default: shipped with the weights)."""
        from .index import chroma

        embedder = embedder or default_embedder()
        if path is None:
            store = SQLiteLedgerStore(":memory:")
            client = chroma.http_client(chroma_url) if chroma_url else chroma.ephemeral_client()
            prefix = "tarl_" + uuid.uuid4().hex[:8]      # ephemeral clients share one process-wide system
        else:
            root = Path(path)
            store = SQLiteLedgerStore(root / "ledger.db")
            client = chroma.http_client(chroma_url) if chroma_url else chroma.persistent_client(root / "chroma")
            prefix = "tarl"
        return cls(store, chroma.EntryIndex(client, embedder, prefix=prefix), policy=policy, config=config, clock=clock)

    # -- writes -------------------------------------------------------------------------------
    def write(self, claim: Claim | dict[str, Any], *, vector: np.ndarray | None = None) -> Decision:
        """Decide how ``claim`` changes memory and apply it atomically; returns the decision taken.

        ``vector``: the claim's embedding when the caller already has it (skips the embedder)."""
        claim = _claim(claim)
        self.config.source(claim.source)            # an unknown source is refused before anything else
        vector = self.index.embed([claim.text])[0] if vector is None else _vector(vector, self.index.embedder.dim)

        def body(run: Callable[[Step], Transaction]) -> tuple[Decision, list[Transaction]]:
            neighbours = self.vectors.query(vector, claim.namespace, self.config.neighbours, (Ledger.ACCEPTED, Ledger.PENDING))
            found = {e.id: e for e in self.store.entries([i for i, _ in neighbours])}
            near = [(found[i], s) for i, s in neighbours if i in found and found[i].ledger is not Ledger.HISTORY]
            slot = [e for e in self.store.slot(claim.namespace, claim.slot) if e.ledger is not Ledger.HISTORY] \
                if claim.slot else []
            outcome = deciding.decide(claim, near, slot, self.policy, self.config)   # THE decision function
            return outcome.decision, [run(step) for step in outcome.steps]   # one step, or noop + promote

        decision, done = self.transact(claim.namespace, body, vector=vector)
        created = done[0].created[0].id if done[0].created else None
        return decision.model_copy(update={"tx": done[-1].tx, "entry_id": created})

    def write_many(self, claims: Iterable[Claim | dict[str, Any]]) -> list[Decision]:
        """Validates every claim first, so one bad claim writes nothing; then writes them in order."""
        checked = [_claim(c) for c in claims]
        for c in checked:
            self.config.source(c.source)
        vectors = self.index.embed([c.text for c in checked]) if checked else []
        return [self.write(c, vector=v) for c, v in zip(checked, vectors)]

    def apply(self, namespace: str, steps: Sequence[Step]) -> list[Transaction]:
        """Execute explicit steps (lifecycle moves, Janus commits) atomically: all of them or none."""
        return self.transact(namespace, lambda run: [run(step) for step in steps])

    def transact(self, namespace: str, body: Callable[..., _T], *, vector: np.ndarray | None = None) -> _T:
        """Run ``body(run)`` as one atomic unit: each ``run(step)`` executes and records a transaction that
        later steps can read (e.g. close an entry a previous step created); all commit together or none
        does. ``write``, ``apply`` and every lifecycle convenience are built on this. ``vector``: the
        embedding of the claim the created entries carry, when the caller has it (else they are embedded)."""
        done: list[Transaction] = []
        with self._lock, self.store.writer() as w:
            self._refresh()

            def run(step: Step) -> Transaction:
                done.append(executor.execute(w, step, namespace=namespace, tx=w.next_tx(), at=self.clock()))
                w.record(done[-1])
                return done[-1]

            out = body(run)
            vectors = {e.id: vector for t in done for e in t.created} if vector is not None else {}
            touched = self._cache(done, vectors)
        if done:                                    # Chroma only hears of what committed
            self.writer.submit(touched, vectors, done[-1].tx)
        return out

    def verify(self, entry_id: str, accept: bool, note: str | None = None) -> Transaction:
        """Resolve a Pending entry by hand: accept promotes it, reject closes it into History."""
        entry = self._entry(entry_id)
        if accept:
            step = Step(Action.PROMOTE, target_id=entry_id, note=note or "verified")
        else:
            step = Step(Action.CLOSE, target_id=entry_id, reason=Reason.REJECTED, note=note or "rejected on verification")
        return self.apply(entry.namespace, [step])[0]

    def sweep_pending(self, namespace: str, *, now: datetime | None = None,
                      max_age: timedelta = pending.DEFAULT_MAX_AGE) -> list[Transaction]:
        """Expire Pending entries left unverified longer than ``max_age`` (or past their validity) into
        History, reason ``expired``; one logged transaction per entry."""
        steps = pending.expiry_steps(self.pending(_check_namespace(namespace)), now or self.clock(), max_age)

        def body(run: Callable[[Step], Transaction]) -> list[Transaction]:    # a close may prune a later target
            return [run(s) for s in steps if (e := self.store.entry(s.target_id or "")) and e.ledger is Ledger.PENDING]

        return self.transact(namespace, body) if steps else []

    def retract(self, entry_id: str, note: str | None = None) -> Transaction:
        entry = self._entry(entry_id)
        return self.apply(entry.namespace, [Step(Action.CLOSE, target_id=entry_id, reason=Reason.RETRACTED, note=note)])[0]

    # -- reads --------------------------------------------------------------------------------
    def search(self, query: str, namespace: str, k: int = 5, *, valid_at: datetime | None = None) -> list[Hit]:
        """Accepted entries most similar to ``query``; with ``valid_at``, only those valid then."""
        if not isinstance(query, str) or not query.strip():
            raise TarlError("query", query, "must be a non-empty string")
        _check_namespace(namespace)
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise TarlError("k", k, "must be a non-negative integer")
        if k == 0:
            return []
        vector = self.index.embed([query])[0]
        fetch = k if valid_at is None else 4 * k
        with self._lock:
            self._refresh()
            scored = self.vectors.query(vector, namespace, fetch, (Ledger.ACCEPTED,), weigh=True)
        entries = {e.id: e for e in self.store.entries([i for i, _ in scored])}
        hits = [Hit(entries[i], s) for i, s in scored if i in entries and entries[i].ledger is Ledger.ACCEPTED]
        if valid_at is not None:
            hits = [h for h in hits if h.entry.is_valid_at(valid_at)]
        return hits[:k]

    def get(self, entry_id: str) -> Entry | None:
        return self.store.entry(entry_id)

    def by_slot(self, namespace: str, slot: str, ledger: Ledger = Ledger.ACCEPTED) -> list[Entry]:
        """Entries of ``ledger`` holding ``slot`` (a key-value view: adapters map keys to slots)."""
        return [e for e in self.store.slot(_check_namespace(namespace), slot) if e.ledger is ledger]

    def accepted(self, namespace: str) -> list[Entry]:
        return self.store.ledger(_check_namespace(namespace), Ledger.ACCEPTED)

    def pending(self, namespace: str) -> list[Entry]:
        return self.store.ledger(_check_namespace(namespace), Ledger.PENDING)

    def history(self, namespace: str) -> list[Entry]:
        return self.store.ledger(_check_namespace(namespace), Ledger.HISTORY)

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState:
        """The three ledgers now, or exactly as they were after transaction ``as_of``."""
        return self.store.state(_check_namespace(namespace), as_of)

    def log(self, namespace: str | None = None, *, after: int = 0) -> list[Transaction]:
        return list(self.store.log(namespace, after=after))

    def namespaces(self) -> list[str]:
        return self.store.namespaces()

    # -- index upkeep -------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Fold transactions committed by other processes (or before a crash) into the vector cache."""
        head = self.store.head()
        if head != self._seen:
            ids = list(dict.fromkeys(m.entry_id for _, m in self.store.moves_since(min(self._seen, head))))
            self.vectors.update(self.store.entries(ids), {}, self.index.embed)
            self._seen = head

    def _load_vectors(self, namespace: str) -> tuple[list[str], np.ndarray, list[Ledger]]:
        """A namespace's open entries (from the ledger) with their vectors: stored ones from Chroma,
        the rest (not yet written behind, or lost in a crash) embedded again."""
        entries = [e for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in self.store.ledger(namespace, lg)]
        ids, stored, _ = self.index.load(namespace)
        vectors = dict(zip(ids, stored))
        missing = [e for e in entries if e.id not in vectors]
        if missing:
            vectors.update(zip((e.id for e in missing), self.index.embed([e.text for e in missing])))
        matrix = np.stack([vectors[e.id] for e in entries]) if entries else np.zeros((0, self.index.embedder.dim), np.float32)
        return [e.id for e in entries], matrix, [e.ledger for e in entries]

    def _cache(self, transactions: Sequence[Transaction], vectors: dict[str, np.ndarray]) -> list[Entry]:
        """Fold our own transactions into the vector cache under the write lock (so ``_seen`` is exact);
        returns the touched entries, read once for the cache and the Chroma writer."""
        if not transactions:
            return []
        touched = self.store.entries(list(dict.fromkeys(m.entry_id for t in transactions for m in t.moves)))
        self.vectors.update(touched, vectors, self.index.embed)
        self._seen = max(self._seen, transactions[-1].tx)
        return touched

    def flush(self) -> None:
        """Wait until the Chroma index has every committed change (reads never need this)."""
        self.writer.flush()

    def reconcile(self) -> None:
        """Bring the index up to the ledger, e.g. after a crash between commit and index update."""
        self.flush()
        head = self.store.head()
        done = int(self.store.get_meta(INDEXED_TX) or 0)
        if done < head:
            ids = list(dict.fromkeys(m.entry_id for _, m in self.store.moves_since(done)))
            self.writer.submit(self.store.entries(ids), {}, head)
            self.flush()
        open_count = sum(self.store.count(ledger=lg) for lg in (Ledger.ACCEPTED, Ledger.PENDING))
        if done > head or self.index.count() != open_count:
            self.reindex()
        self.vectors.clear()
        self._seen = head

    def reindex(self) -> None:
        """Rebuild the index from the ledger: the ledger is the source of truth."""
        self.flush()
        self.index.remove(self.index.ids())
        for ns in self.store.namespaces():
            for lg in (Ledger.ACCEPTED, Ledger.PENDING):
                entries = self.store.ledger(ns, lg)
                for i in range(0, len(entries), 512):
                    self.index.upsert(entries[i:i + 512])
        self.store.set_meta(INDEXED_TX, str(self.store.head()))

    def _entry(self, entry_id: str) -> Entry:
        entry = self.store.entry(entry_id)
        if entry is None:
            raise UnknownEntry("entry_id", entry_id, "no such entry")
        return entry

    def close(self) -> None:
        self.writer.close()
        self.store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- async twins (the adapters' async paths); SQLite and Chroma calls run in a worker thread --
    async def awrite(self, claim: Claim | dict[str, Any]) -> Decision:
        return await asyncio.to_thread(self.write, claim)

    async def awrite_many(self, claims: Iterable[Claim | dict[str, Any]]) -> list[Decision]:
        return await asyncio.to_thread(self.write_many, list(claims))

    async def asearch(self, query: str, namespace: str, k: int = 5, *, valid_at: datetime | None = None) -> list[Hit]:
        return await asyncio.to_thread(self.search, query, namespace, k, valid_at=valid_at)

    async def aget(self, entry_id: str) -> Entry | None:
        return await asyncio.to_thread(self.get, entry_id)

    async def aretract(self, entry_id: str, note: str | None = None) -> Transaction:
        return await asyncio.to_thread(self.retract, entry_id, note)



def _claim(value: Claim | dict[str, Any]) -> Claim:
    if isinstance(value, Claim):
        return value
    if isinstance(value, dict):
        return Claim.model_validate(value)
    raise TarlError("claim", value, "expected a Claim or a dict of Claim fields")


def _vector(value: Any, dim: int) -> np.ndarray:
    v = np.asarray(value, dtype=np.float32).reshape(-1)
    if v.shape != (dim,) or not np.all(np.isfinite(v)):
        raise TarlError("vector", f"array of shape {np.shape(value)}", f"expected {dim} finite numbers")
    return v


def _check_namespace(namespace: str) -> str:
    if not isinstance(namespace, str) or not namespace.strip():
        raise TarlError("namespace", namespace, "must be a non-empty string")
    return namespace
