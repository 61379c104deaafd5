"""Reads served by a Chroma server: a namespace's nearest open entries as of the ledger's head, with no
namespace's vectors held in the process.

Why not the in-process cache (``cache.py``) here: a store on a Chroma server is shared by processes or
hosts, and a cache holding every vector of every namespace each process touches does not scale past one
machine (at 100k entries it took 46 s to load and ~1.9 GB per process in ``tarl bench scale``).

How the answer stays exact while the index lags (it is written behind, from the committed log): Chroma
answers for what it holds; the ledger's moves since the index watermark (the tail not indexed yet) are
scored here; every id is filtered through the ledger's current state. So a closed entry never
surfaces, even while Chroma still marks it accepted, and a process with nothing warm gets the answer
the writer gets. Search weighs its query by the namespace's document frequencies, shared through the
ledger (``terms.py``).

A write grounds its claim under the store's write lock, where a Chroma round trip would make every
writer wait for it: ``prefetch`` asks Chroma before the lock, and ``query(hint=...)`` under the lock only
folds in what committed since (asking Chroma again only when closures ate the margin).
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..schema import Entry, Ledger
from .behind import INDEXED_TX
from .embedders import HashingEmbedder
from .terms import SharedTerms

if TYPE_CHECKING:
    from ..ledgers import LedgerStore
    from .chroma import EntryIndex

log = logging.getLogger(__name__)


def _unreachable() -> tuple[type[BaseException], ...]:
    """What the Chroma client raises when no server answers (httpx is chromadb's HTTP library)."""
    import httpx

    return (httpx.TransportError, ConnectionError)

MARGIN = 8
"""Neighbours fetched beyond the k asked for, so that entries closed meanwhile rarely force a second
Chroma query."""
SMALL = 512
"""A namespace with at most this many open entries, which Chroma's best rows unfiltered did not
cover, is scored in the process from the ledger (see ``_from_ledger``)."""
KNOWN = 4096
"""Vectors of recently created or scored entries kept by id (entries are immutable)."""


@dataclass
class Snapshot:
    """The nearest open entries of ``namespace`` after transaction ``as_of``: ``scored`` holds every
    candidate that can be among the best ``k``; ``from_index`` of them came from Chroma, whose unfetched
    rows score no higher than any fetched one, unless ``complete`` (Chroma returned all it has)."""

    namespace: str
    query: np.ndarray
    k: int
    ledgers: tuple[Ledger, ...]
    as_of: int
    scored: dict[str, float]
    indexed: set[str]
    complete: bool

    def best(self) -> list[tuple[str, float]]:
        return sorted(self.scored.items(), key=lambda t: (-t[1], t[0]))[: self.k]


class ServedNeighbours:
    """The engine's reads on a Chroma server (see the module docstring); thread-safe."""

    def __init__(self, index: EntryIndex, store: LedgerStore) -> None:
        self.index, self.store = index, store
        embedder = index.embedder
        # Query weighting changes rankings only for sparse vectors (a dense embedder uses every slot in
        # every row: uniform weights), so only the hashing embedder pays for shared frequencies.
        self.terms = SharedTerms(store, self._embed, embedder.dim, f"{embedder.name}_{embedder.dim}") \
            if isinstance(embedder, HashingEmbedder) else None
        self._known: OrderedDict[str, np.ndarray] = OrderedDict()
        self._written: set[str] = set()
        self._lock = threading.Lock()

    @property
    def rows(self) -> LedgerStore:
        """Entries are read from the ledger itself (other processes write it between our reads)."""
        return self.store

    def refresh(self) -> None:
        """Nothing to fold: every read asks the ledger."""

    def prefetch(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger]) -> Snapshot:
        """Ask Chroma now (before the write lock) for what ``query(..., hint=)`` finishes under it."""
        return self._snapshot(np.asarray(vector, dtype=np.float32), namespace, k, tuple(ledgers))

    def query(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger], *,
              weigh: bool = False, hint: Snapshot | None = None) -> list[tuple[str, float]]:
        """Top-k (id, cosine) of the entries now open in ``ledgers``. ``weigh``: IDF-weight the query by
        the namespace's document frequencies (search); ``hint``: a ``prefetch`` of the same query."""
        if k <= 0:
            return []
        if hint is not None and hint.namespace == namespace and hint.k >= k and hint.ledgers == tuple(ledgers):
            return self._advance(hint)[:k]
        query = np.asarray(vector, dtype=np.float32)
        if weigh and self.terms is not None:
            query = self.terms.current(namespace).weigh(query[None])[0].astype(np.float32)
        return self._snapshot(query, namespace, k, tuple(ledgers)).best()

    reads_moved = False
    """``committed`` needs no moved entries (the engine reads none while it holds the write lock)."""

    def committed(self, namespace: str, touched: Sequence[Entry], vectors: dict[str, np.ndarray], tx: int) -> None:
        """Our own commit in ``namespace``: keep the vectors we hold (a caller's own embedding, which the
        text would not give)."""
        with self._lock:
            self._remember(vectors)
            self._written.add(namespace)

    def settle(self) -> None:
        """Leave a snapshot of the frequencies of every namespace this process wrote (at a flush or
        close, off the write path), so that the next process to search it starts near the head."""
        with self._lock:
            written, self._written = self._written, set()
        for namespace in written if self.terms is not None else ():
            self.terms.current(namespace, save=True)  # type: ignore[union-attr]

    def clear(self) -> None:
        with self._lock:
            self._known.clear()
        if self.terms is not None:
            self.terms.clear()

    def _snapshot(self, query: np.ndarray, namespace: str, k: int, ledgers: tuple[Ledger, ...]) -> Snapshot:
        """Ask Chroma unfiltered first (a filter costs the server 20-60x the query; when the namespace
        dominates the collection the best rows are its own), filtered by namespace when that left fewer
        than ``k``, then for more rows while closures and Pending rows eat the margin. Each step depends
        only on the index and the ledger, so two processes at one state take the same steps."""
        done = int(self.store.get_meta(INDEXED_TX) or 0)      # Chroma holds at least every move up to here
        fetch, scope = k + MARGIN, None
        while True:
            try:
                hits = self.index.query(query, scope, fetch, None)
            except _unreachable() as exc:                      # the ledger alone answers, slower but exact
                log.warning("Chroma server unreachable (%s): %s scored from the ledger", exc, namespace)
                answer = self._from_ledger(query, namespace, k, ledgers)
                assert answer is not None
                return answer
            moves = self.store.moves_since(done)               # read after Chroma: covers what it holds beyond
            tail = list(dict.fromkeys(m.entry_id for _, m in moves))
            current = {e.id: e for e in self.store.entries(list(dict.fromkeys([i for i, _ in hits] + tail)))}
            lagging = set(tail)
            scored = {i: s for i, s in hits if i not in lagging and (e := current.get(i)) is not None
                      and e.namespace == namespace and e.ledger in ledgers}
            snap = Snapshot(namespace, query, k, ledgers, max([done] + [tx for tx, _ in moves]), scored,
                            set(scored), len(hits) < fetch)
            self._score(snap, [current[i] for i in tail if i in current])
            if len(snap.indexed) >= k or snap.complete:
                return snap
            if scope is None:
                small = self._from_ledger(query, namespace, k, ledgers, SMALL)
                if small is not None:
                    return small
                scope = namespace
            else:
                fetch *= 4                                     # closures and Pending rows ate the margin

    def _from_ledger(self, query: np.ndarray, namespace: str, k: int, ledgers: tuple[Ledger, ...],
                     limit: int | None = None) -> Snapshot | None:
        """The namespace's open entries scored here from the ledger (None if more than ``limit``). Exact:
        for a small namespace that Chroma's unfiltered best rows did not cover (a filtered query is not
        exact: it returned 1 of the 3 rows of a namespace beside one of 300, as HNSW under a restrictive
        filter stops early), and while the server is unreachable (a write or search then costs an
        embedding of every open entry not seen yet, but no caller gets an error)."""
        head = self.store.head()
        if limit is not None and sum(self.store.count(namespace, lg) for lg in ledgers) > limit:
            return None
        snap = Snapshot(namespace, query, k, ledgers, head, {}, set(), True)
        self._score(snap, [e for lg in ledgers for e in self.store.ledger(namespace, lg)])
        return snap

    def _advance(self, snap: Snapshot) -> list[tuple[str, float]]:
        """Fold the moves committed since ``snap`` was taken into it (under the write lock: exact)."""
        moves = self.store.moves_since(snap.as_of)
        if moves:
            moved = list(dict.fromkeys(m.entry_id for _, m in moves))
            for i in moved:
                snap.scored.pop(i, None)
                snap.indexed.discard(i)
            if len(snap.indexed) < snap.k and not snap.complete:
                fresh = self._snapshot(snap.query, snap.namespace, snap.k, snap.ledgers)
                snap.__dict__.update(fresh.__dict__)
                return snap.best()
            snap.as_of = max(tx for tx, _ in moves)
            self._score(snap, self.store.entries(moved))
        return snap.best()

    def _score(self, snap: Snapshot, entries: Sequence[Entry]) -> None:
        """Score the open ones of ``entries`` (moved since the index watermark) here."""
        mine = [e for e in entries if e.namespace == snap.namespace and e.ledger in snap.ledgers]
        if mine:
            rows = self._vectors(mine)
            snap.scored.update((e.id, float(np.dot(r, snap.query))) for e, r in zip(mine, rows))

    def _vectors(self, entries: Sequence[Entry]) -> list[np.ndarray]:
        with self._lock:
            known = {e.id: self._known[e.id] for e in entries if e.id in self._known}
        missing = [e for e in entries if e.id not in known]
        if missing:
            fresh = dict(zip((e.id for e in missing), self._embed([e.text for e in missing])))
            with self._lock:
                self._remember(fresh)
            known.update(fresh)
        return [known[e.id] for e in entries]

    def _embed(self, texts: list[str]) -> np.ndarray:
        return self.index.embed(texts)

    def _remember(self, vectors: dict[str, np.ndarray]) -> None:
        for i, v in vectors.items():
            self._known[i] = np.asarray(v, dtype=np.float32)
            self._known.move_to_end(i)
        while len(self._known) > KNOWN:
            self._known.popitem(last=False)
