"""MemoryEngine: the one facade the adapters and the CLI call.

A write flows one way: embed (outside the lock) -> under the ledger's write lock: ground, compare
reliability, let the policy decide, execute -> commit -> update the derived index. Reads go to the
index for ids and to the ledger for the entries, so a stale index can never surface a closed entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, TypeVar

import numpy as np

from . import decision as deciding
from . import executor, keys, pending
from .beliefs.api import BeliefsAPI
from .config import PolicyConfig
from .errors import TarlError, UnknownEntry
from .executor import MemoryState, Runner, Step
from .index import Embedder, default_embedder
from .index.behind import INDEXED_TX, SERVED_LINGER_S, IndexWriter
from .index.cache import CachedNeighbours
from .index.served import ServedNeighbours
from .ledgers import LedgerStore
from .policy import LearnedPolicy, Policy
from .schema import Action, Claim, Decision, Entry, Hit, Ledger, Reason, Transaction, checked_vector, utcnow

_T = TypeVar("_T")
_OPEN = (Ledger.ACCEPTED, Ledger.PENDING)
log = logging.getLogger(__name__)


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
        served = bool(getattr(index, "served", False))
        self.writer = IndexWriter(index, store, store.upkeep_lock, file=getattr(index, "file", None),
                                  **({"linger": SERVED_LINGER_S, "lag": SERVED_LINGER_S} if served else {}))
        # Nearest open entries: from the Chroma server when processes share one (nothing held per
        # namespace), else from the in-process cache, the measured faster accelerator of one process.
        self.vectors: CachedNeighbours | ServedNeighbours = \
            ServedNeighbours(index, store) if served else CachedNeighbours(index, store, self.writer.remember)
        self.policy: Policy = policy or LearnedPolicy()
        self.config = PolicyConfig.coerce(config)
        self.clock = clock
        self._lock = threading.RLock()          # the vector cache is shared by threads (async adapters)
        self._closers: list[Callable[[], None]] = []
        try:
            self.writer.start()                 # the watermark is trusted: only the log's tail is caught up
            self.vectors.clear()
        except BaseException:
            with contextlib.suppress(Exception):       # the reconcile failure is the one to report
                self.writer.close()
            raise

    @classmethod
    def open(cls, path: str | Path | None = None, *, embedder: Embedder | None = None, policy: Policy | None = None,
             config: PolicyConfig | dict[str, Any] | None = None, chroma_url: str | None = None,
             clock: Callable[[], datetime] = utcnow, reindex: bool = False) -> MemoryEngine:
        """``path`` None (or ``":memory:"``): private in-memory store and index; a directory: ``path/ledger.db`` and
        ``path/chroma``; a ``postgresql://`` URL: a PostgreSQL ledger (needs ``chroma_url``).
        ``chroma_url`` uses a Chroma server for the index instead of the embedded one (needed when several
        processes share a store: embedded Chroma serves one process). ``config``: source trust,
        source-name aliases and thresholds (``PolicyConfig``; default: shipped with the weights).
        ``reindex``: rebuild the index from the ledger (what ``tarl reindex PATH`` does); a damaged
        embedded ``chroma/`` is moved aside, never deleted. See ``connect``.

        Raises ``IndexUnavailable`` (naming the path and the fix) when ``ledger.db`` is missing beside an
        existing index, when the embedded index is damaged or open in another process."""
        from . import connect

        opened = connect.open_store(path, embedder or default_embedder(), chroma_url, reindex)
        try:
            engine = cls(opened.store, opened.index, policy=policy, config=config, clock=clock)
        except BaseException as exc:
            error = opened.failed(exc)
            if error is exc:
                raise
            raise error from exc
        engine._closers = opened.closers
        return engine

    # -- writes -------------------------------------------------------------------------------
    def write(self, claim: Claim | dict[str, Any], *, vector: np.ndarray | None = None,
              keyed: bool = False, scope: Literal["key", "namespace"] = "key") -> Decision:
        """Decide how ``claim`` changes memory and apply it atomically; returns the decision taken.

        ``vector``: the claim's embedding when the caller already has it (skips the embedder).
        ``keyed``: the claim's slot is a key of a key-value view (see :mod:`shared_core.keys`): its whole
        content decides whether it changes the key, and a change is never dropped; with ``scope="key"``
        it is weighed only against that key's open entries, with ``"namespace"`` against the namespace.
        A policy that may ask an LLM (``asks_judge``, e.g. ``escalation.EscalatingPolicy``), and any write
        on a Chroma server, decides before the write lock is taken; under the lock that decision is
        executed only if the candidates it saw are unchanged, else the decision is made again there."""
        claim = _claim(claim)
        if keyed and claim.slot is None:
            raise TarlError("claim.slot", None, "a keyed write needs the key as the claim's slot")
        if scope not in ("key", "namespace"):
            raise TarlError("scope", scope, "must be 'key' or 'namespace'")
        self.config.source(claim.source)            # an unknown source is refused before anything else
        vector = self.index.embed([claim.text])[0] if vector is None else checked_vector(vector, self.index.embedder.dim)
        only_key = keyed and scope == "key"
        hint = None if only_key else self.vectors.prefetch(vector, claim.namespace, self.config.neighbours, _OPEN)

        def candidates() -> tuple[list[tuple[Entry, float]], list[Entry]]:   # (before any step of the unit)
            return self.candidates(claim, vector, only_key=only_key, hint=hint, keyed=keyed)

        early, seen, seen_at = None, None, -1
        if getattr(self.policy, "asks_judge", False) or hint is not None:
            # Decide before the write lock when deciding may wait (an LLM may be asked; a served read is
            # a round trip that would hold every writer): under the lock, the decision is executed only
            # if what it saw is unchanged (decide is a function of its inputs), else it is made again.
            with self._lock:
                seen_at = self.store.head()          # read first: everything below sees this state or later
                self._refresh()
                seen = candidates()
            early = deciding.decide(claim, *seen, self.policy, self.config)

        def body(run: Runner) -> tuple[Decision, list[Transaction]]:
            # Nothing committed since ``seen_at`` (commits are in tx order): what was seen is what is, not read
            # again while every writer waits (3.7 of the 6.7 ms a write held the PostgreSQL lock, at 10k entries)
            found = seen if early is not None and run.head == seen_at else candidates()
            outcome = early if early is not None and found == seen else \
                deciding.decide(claim, *found, self.policy, self.config)   # THE decision function
            decision, steps = outcome.decision, outcome.steps
            if keyed and len(steps) == 1:            # a key's change is never dropped
                held = next((e for e in found[1] if e.ledger is Ledger.ACCEPTED), None)     # the key's current value
                decision = keys.keep_change(claim, outcome.grounding.target, decision, held)
                steps = [Step(decision.action, claim, decision.target_id, decision=decision)]
            elif keyed:                              # noop + promote: the claim vouches for a Pending value
                decision, steps = keys.after_promotion(claim, decision, steps, found[1])
            return decision, [run(step) for step in steps]   # one step, noop + promote (+ the change kept)

        decision, done = self.transact(claim.namespace, body, vector=vector, decided=claim)
        created = next((t.created[0].id for t in done if t.created), None)
        return decision.model_copy(update={"tx": done[-1].tx, "entry_id": created})

    def candidates(self, claim: Claim, vector: np.ndarray, *, only_key: bool = False, hint: Any = None,
                   keyed: bool = False) -> tuple[list[tuple[Entry, float]], list[Entry]]:
        """What the decision function sees of ``claim``'s namespace: the open entries nearest ``vector`` (with
        cosine) and the open entries holding the claim's slot (``only_key``: the only candidates, a keyed write;
        ``keyed``: a key no entry holds may be the id of a keyless entry, the key a store reads it under).
        Not inside a unit after its first step: it folds the log's tail (then uncommitted) into the reads' caches."""
        with self._lock:
            self._refresh()         # an embedded store's entries are held, folded forward from the log: index/held.py
            rows = self.vectors.rows
            slot = rows.slot(claim.namespace, claim.slot, open_only=True) if claim.slot else []
            if keyed and not slot:      # a put on an added memory's id is about that memory, as the key says
                slot = [e.model_copy(update={"slot": claim.slot, "metadata": {**e.metadata, "many": claim.many}})
                        for e in rows.entries([claim.slot]) if e.namespace == claim.namespace and e.slot is None
                        and e.ledger is not Ledger.HISTORY]
            if only_key:
                return [(e, 0.0) for e in slot], slot
            near = self.vectors.query(vector, claim.namespace, self.config.neighbours, _OPEN, hint=hint)
            found = {e.id: e for e in rows.entries([i for i, _ in near])}
        return [(found[i], s) for i, s in near if i in found and found[i].ledger is not Ledger.HISTORY], slot

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

    def transact(self, namespace: str, body: Callable[..., _T], *, vector: np.ndarray | None = None,
                 decided: Claim | None = None) -> _T:
        """Run ``body(run)`` as one atomic unit: each ``run(step)`` executes and records a transaction that
        later steps can read (e.g. close an entry a previous step created); all commit together or none
        does. ``write``, ``apply`` and every lifecycle convenience are built on this. ``vector``: the
        embedding of the claim the created entries carry, when the caller has it (else they are embedded);
        ``decided``: the claim a decision just prepared (an entry with its text, slot and cardinality is ready)."""
        done: list[Transaction] = []
        with self._lock:
            with self.store.writer(namespace) as w:
                self._refresh()
                w.known = getattr(self.vectors.rows, "held", None)      # exact now: refreshed under the lock

                def call(step: Step) -> Transaction:
                    done.append(executor.execute(w, step, namespace=namespace, tx=w.next_tx(), at=self.clock()))
                    w.record(done[-1])
                    return done[-1]

                out = body(Runner(call, w.head()))
                moved = dict.fromkeys(m.entry_id for t in done for m in t.moves) if self.vectors.reads_moved else ()
                touched = [e for i in moved if (e := w.entry(i))]   # (served reads: none, no round trip held)
            if not done:
                return out
            # Committed: only now does derived state change (a failed COMMIT leaves search as it was).
            vectors = {e.id: vector for t in done for e in t.created} if vector is not None else {}
            self.vectors.committed(namespace, touched, vectors, done[-1].tx)   # exact: refreshed under the lock
        self.writer.submit(vectors, done[-1].tx)
        ready = (decided.text, decided.slot, decided.many) if decided is not None else None   # (~40 us of cache hits)
        for e in (e for t in done for e in t.created if (e.text, e.slot, e.metadata.get("many")) != ready):
            try:                # per-text features every later write that meets them reads: once, now
                deciding.prepare(e)
            except Exception:  # noqa: BLE001 - committed already: a speed-up must not fail the write
                log.exception("features of entry %s not prepared", e.id)
        return out

    def verify(self, entry_id: str, accept: bool, note: str | None = None) -> Transaction:
        """Resolve a Pending entry by hand: accept promotes it, reject closes it into History.

        Raises ``TarlError`` when ``accept`` is not a bool (``"false"`` is truthy: refusing it is safer
        than guessing), ``UnknownEntry`` for an unknown id."""
        if not isinstance(accept, bool):
            raise TarlError("accept", accept, "must be True or False")
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
        """Accepted entries most similar to ``query``; with ``valid_at``, only those valid then; without,
        none whose ``valid_to`` has passed (see ``accepted``)."""
        if not isinstance(query, str) or not query.strip():
            raise TarlError("query", query, "must be a non-empty string")
        _check_namespace(namespace)
        if not isinstance(k, int) or isinstance(k, bool) or k < 0:
            raise TarlError("k", k, "must be a non-negative integer")
        if k == 0:
            return []
        vector, fetch, now = self.index.embed([query])[0], k, self.clock()
        while True:
            with self._lock:
                self._refresh()
                scored = self.vectors.query(vector, namespace, fetch, (Ledger.ACCEPTED,), weigh=True)
            entries = {e.id: e for e in self.store.entries([i for i, _ in scored])}
            hits = [Hit(entries[i], s) for i, s in scored if i in entries and entries[i].ledger is Ledger.ACCEPTED]
            kept = [h for h in hits if (h.entry.is_valid_at(valid_at) if valid_at else not h.entry.expired(now))]
            if len(kept) >= k or len(scored) < fetch:           # enough, or nothing more to fetch
                return kept[:k]
            fetch *= 4

    def get(self, entry_id: str) -> Entry | None:
        return self.store.entry(entry_id)

    def by_slot(self, namespace: str, slot: str, ledger: Ledger = Ledger.ACCEPTED, *,
                expired: bool = False) -> list[Entry]:
        """Entries of ``ledger`` holding ``slot`` (a key-value view: adapters map keys to slots); Accepted
        ones past their ``valid_to`` only with ``expired`` (see ``accepted``)."""
        found = [e for e in self.store.slot(_check_namespace(namespace), slot) if e.ledger is ledger]
        return found if ledger is not Ledger.ACCEPTED or expired else [e for e in found if not e.expired(self.clock())]

    def accepted(self, namespace: str) -> list[Entry]:
        """The Accepted entries still valid: one whose ``valid_to`` has passed is no longer served, even
        before ``sweep`` moves it to History (``valid_to`` is how a value expires, as a TTL would)."""
        return [e for e in self.store.ledger(_check_namespace(namespace), Ledger.ACCEPTED) if not e.expired(self.clock())]

    def newest(self, namespace: str, k: int, *, valid_at: datetime | None = None) -> list[Entry]:
        """The ``k`` newest Accepted entries (valid at ``valid_at``): what the adapters' retrievers answer a
        blank query with, since ``search`` refuses one (see ``langchain_tarl.TarlRetriever``)."""
        entries = sorted(self.accepted(namespace), key=lambda e: -e.created_tx)
        return [e for e in entries if valid_at is None or e.is_valid_at(valid_at)][:k]

    def pending(self, namespace: str) -> list[Entry]:
        return self.store.ledger(_check_namespace(namespace), Ledger.PENDING)

    def history(self, namespace: str) -> list[Entry]:
        return self.store.ledger(_check_namespace(namespace), Ledger.HISTORY)

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState:
        """The three ledgers now, or exactly as they were after transaction ``as_of``.

        Raises ``TarlError`` when ``as_of`` is not a transaction number of this store (0 .. head)."""
        if as_of is not None:
            head = self.store.head()
            if not isinstance(as_of, int) or isinstance(as_of, bool) or not 0 <= as_of <= head:
                raise TarlError("as_of", as_of, f"must be a transaction number from 0 to {head}")
        return self.store.state(_check_namespace(namespace), as_of)

    def log(self, namespace: str | None = None, *, after: int = 0) -> list[Transaction]:
        return list(self.store.log(namespace, after=after))

    def namespaces(self) -> list[str]:
        return self.store.namespaces()

    # -- index upkeep -------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Fold transactions committed by other processes (or before a crash) into the reads' state."""
        self.vectors.refresh()

    def flush(self) -> None:
        """Wait until the Chroma index has every committed change (reads never need this).

        Raises ``IndexUnavailable`` if a background index update failed since the last flush."""
        self.writer.flush()
        self.vectors.settle()

    def reconcile(self) -> None:
        """Bring the index to the ledger: catch up from the watermark, then compare every indexed id and
        its ledger with the ledger's open entries and repair what differs (an index with the right
        count and the wrong rows is repaired too). A watermark beyond the ledger's head means the index
        belongs to another ledger: rebuilt."""
        self.flush()
        self.writer.repair()
        with self._lock:
            self.vectors.clear()

    def reindex(self) -> None:
        """Rebuild the index from the ledger: the ledger is the source of truth."""
        self.flush()
        self.writer.rebuild()

    def _entry(self, entry_id: str) -> Entry:
        entry = self.store.entry(entry_id)
        if entry is None:
            raise UnknownEntry("entry_id", entry_id, "no such entry")
        return entry

    def close(self) -> None:
        """Drain the index writer, release the index (lock, private collection, client) and the ledger.

        Raises ``IndexUnavailable`` if the last index update failed (after closing everything)."""
        try:
            self.writer.close()
            self.vectors.settle()
        finally:
            for release in self._closers:
                release()
            self._closers = []
            self.store.close()

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- async twins (the adapters' async paths); SQLite and Chroma calls run in a worker thread --
    async def awrite(self, claim: Claim | dict[str, Any], *, keyed: bool = False,
                     scope: Literal["key", "namespace"] = "key") -> Decision:
        return await asyncio.to_thread(self.write, claim, keyed=keyed, scope=scope)

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


def _check_namespace(namespace: str) -> str:
    if not isinstance(namespace, str) or not namespace.strip():
        raise TarlError("namespace", namespace, "must be a non-empty string")
    return namespace
