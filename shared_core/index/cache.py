"""In-process vectors of each namespace's open entries, for grounding and search in well under a millisecond.

Why beside Chroma: a Chroma query or upsert costs several milliseconds per call on this class of machine,
more than the whole write budget; brute-force cosine over a namespace's open entries costs well under
a millisecond at thousands of entries. Chroma stays the durable index (written behind, in batches);
this cache is loaded on first use (ids and ledgers from the ledger, vectors from the embedded store's
vector file, ``vectorfile.py``) and kept fresh from the ledger's log, so writes by other processes
become visible too. It is the accelerator of embedded stores (one process owns embedded Chroma); a
store on a Chroma server reads from the server instead (``served.py``), since every process holding
every vector of every namespace it touches does not scale past one machine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..schema import Entry, Ledger
from .blas import one_thread
from .embedders import QueryIDF
from .held import HeldEntries
from .vectorfile import open_rows

if TYPE_CHECKING:
    from ..ledgers import LedgerStore
    from .chroma import EntryIndex

Loader = Callable[[str], tuple[list[str], Any, list[Ledger]]]   # rows: dense array or scipy sparse


class _Rows:
    """Append-only row storage with a fast mat-vec.

    Hashing vectors are ~4% non-zero (a query's even fewer), so for them compacted rows live in sparse
    blocks kept column-major, columns last to first (see ``_columns_dot``): a query multiplies only the
    columns it uses (at 10k rows ~1/30 of the non-zeros a row-major mat-vec touches). The newest rows sit
    in a small dense tail; blocks merge like a binary counter, so there are O(log n) of them and each row
    is re-compacted O(log n) times. Dense embedders keep one growing dense buffer.
    """

    TAIL = 256
    SPARSE_BELOW = 0.1

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self.sparse: bool | None = None
        self.blocks: list[tuple[Any, Any]] = []      # (rows CSR for get, reversed columns CSC for dot), oldest first
        self.n_csr = 0
        self.buf = np.zeros((64, dim), dtype=np.float32)
        self.n_buf = 0

    def __len__(self) -> int:
        return self.n_csr + self.n_buf

    def append(self, vectors: Any) -> None:
        """Add rows: a dense array, or a scipy sparse matrix (a bulk load from the vector file)."""
        n = vectors.shape[0] if hasattr(vectors, "tocsr") else len(vectors)
        if self.sparse is None and n:
            nnz = vectors.nnz if hasattr(vectors, "tocsr") else np.count_nonzero(vectors)
            self.sparse = bool(nnz < self.SPARSE_BELOW * n * self.dim)
        if self.sparse and n >= self.TAIL and self.n_buf == 0:    # a bulk load: one block at once
            self._compact(vectors)
            return
        vectors = vectors.toarray() if hasattr(vectors, "tocsr") else vectors
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, self.dim)
        while self.n_buf + len(vectors) > len(self.buf):
            self.buf = np.resize(self.buf, (2 * len(self.buf), self.dim))
        self.buf[self.n_buf:self.n_buf + len(vectors)] = vectors
        self.n_buf += len(vectors)
        if self.sparse and self.n_buf >= self.TAIL:
            self._compact(self.buf[: self.n_buf])
            self.n_buf = 0

    def _compact(self, block: Any) -> None:
        from scipy import sparse

        rows = sparse.csr_matrix(block, dtype=np.float32)
        self.n_csr += rows.shape[0]
        while self.blocks and self.blocks[-1][0].shape[0] <= rows.shape[0]:
            rows = sparse.vstack([self.blocks.pop()[0], rows], format="csr")
        self.blocks.append((rows, _backwards(rows)))

    def get(self, i: int) -> np.ndarray:
        if i >= self.n_csr:
            return self.buf[i - self.n_csr]
        for rows, _ in self.blocks:
            if i < rows.shape[0]:
                lo, hi = rows.indptr[i], rows.indptr[i + 1]
                out = np.zeros(self.dim, dtype=np.float32)
                out[rows.indices[lo:hi]] = rows.data[lo:hi]
                return out
            i -= rows.shape[0]
        raise IndexError(i)

    def dot(self, query: np.ndarray) -> np.ndarray:
        with one_thread(self.n_buf * self.dim):       # see blas.py: threads spinning between writes
            tail = self.buf[: self.n_buf] @ query
        if not self.blocks:
            return tail
        used = np.flatnonzero(query)
        weights = query[used]
        return np.concatenate([_columns_dot(backwards, used, weights) for _, backwards in self.blocks] + [tail])


def _backwards(rows: Any) -> Any:
    """CSR ``rows`` column-major with the columns last to first (what ``_columns_dot`` reads): the column
    indices mirrored in place, the one transposition ``tocsc`` makes anyway, the indices put back. In
    place because a mirrored copy (one int a stored value) stayed in the process's memory after it was
    freed: +25 MB resident at 100k rows; a reversing slice after ``tocsc`` copied every stored value."""
    last = rows.shape[1] - 1
    np.subtract(last, rows.indices, out=rows.indices)
    try:
        return rows.tocsc()
    finally:
        np.subtract(last, rows.indices, out=rows.indices)


def _columns_dot(backwards: Any, used: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``cols[:, used] @ weights`` for a CSC block ``cols`` held with its columns last to first (``backwards``),
    every score the same float bit for bit: the very column-major mat-vec scipy runs for it, summing the used
    columns in ascending order, but on the stored columns in place instead of on a gathered copy of them.
    Why backwards: the kernel reads column ``j`` as ``pointers[j]:pointers[j + 1]``, so the used columns are
    handed to it as (start, end) pairs, and the stretch between one pair and the next, which must be empty,
    runs from a column's end back to the next used column's start: before it in storage. Called directly,
    because scipy's indexing layer around the kernels (index checks, dtype choice, a matrix object) cost as
    much as the arithmetic; the gather it skips copied ~290k stored values a query (10k rows of the bench's
    claims, ~80 of 2,048 columns used), then read them again."""
    kernels = _kernels()
    at = backwards.shape[1] - 1 - used          # the used columns' places in storage, descending
    if kernels is None or weights.dtype != backwards.data.dtype:      # the public path: the same result
        return backwards[:, at] @ weights
    out = np.zeros(backwards.shape[0], dtype=backwards.data.dtype)
    if not len(at):
        return out
    ptr = backwards.indptr
    at = at.astype(ptr.dtype, copy=False)
    pointers = np.empty(2 * len(at), dtype=ptr.dtype)
    pointers[0::2], pointers[1::2] = ptr[at], ptr[at + 1]
    x = np.zeros(len(pointers) - 1, dtype=weights.dtype)     # (the stretches between pairs weigh 0)
    x[0::2] = weights
    kernels.csc_matvec(backwards.shape[0], len(x), pointers, backwards.indices, backwards.data, x, out)
    return out


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` highest ``scores``, best first: ``argpartition`` then a stable ``argsort``.

    Why a shortcut first: at 10k rows the full ``argpartition`` cost ~0.11 ms of a write, as much as a
    third of the mat-vec. A strided sample gives a threshold that about ``8 * step`` scores pass; when
    more than ``k`` pass and the best ``k + 1`` of them are all different, the top ``k`` and their order
    are unique, so they are exactly what the full selection returns (which orders tied scores its own
    way: any tie, or too few or too many passing, falls back to it)."""
    step = len(scores) // 512
    if step >= 4 and k < 64:
        sample = scores[::step]
        threshold = np.partition(sample, len(sample) - 8)[len(sample) - 8]
        passing = np.flatnonzero(scores >= threshold) if np.isfinite(threshold) else ()
        if k < len(passing) <= len(scores) // 8:
            order = np.argsort(-scores[passing], kind="stable")[: k + 1]
            best = scores[passing[order]]
            if (best[:-1] > best[1:]).all():
                return passing[order[:k]]
    top = np.argpartition(-scores, k - 1)[:k]
    return top[np.argsort(-scores[top], kind="stable")]


@lru_cache(maxsize=1)
def _kernels() -> Any:
    """scipy's sparse kernels (imported on first use, as scipy is), or None where its private module moved."""
    try:
        from scipy.sparse import _sparsetools
    except ImportError:  # pragma: no cover
        return None
    return _sparsetools


class _Namespace:
    def __init__(self, dim: int) -> None:
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.vectors = _Rows(dim)
        self.ledgers = np.zeros(0, dtype=np.int8)
        self.size = 0
        self.idf = QueryIDF(dim)
        """Document frequencies of the live rows: search weighs queries by them (see QueryIDF)."""


_CODE = {Ledger.ACCEPTED: 1, Ledger.PENDING: 2}


class VectorCache:
    def __init__(self, dim: int, loader: Loader) -> None:
        self.dim = dim
        self._load = loader
        self._spaces: dict[str, _Namespace] = {}

    def _space(self, namespace: str) -> _Namespace:
        space = self._spaces.get(namespace)
        if space is None:
            space = self._spaces[namespace] = _Namespace(self.dim)
            ids, vectors, ledgers = self._load(namespace)
            self._put(space, ids, vectors, ledgers)
        return space

    def loaded(self, namespace: str) -> bool:
        return namespace in self._spaces

    def _put(self, space: _Namespace, ids: Sequence[str], vectors: np.ndarray, ledgers: Sequence[Ledger]) -> None:
        fresh: list[int] = []
        for k, (entry_id, ledger) in enumerate(zip(ids, ledgers)):
            i = space.row.get(entry_id)
            if i is None:                             # entries are immutable: a known row keeps its vector
                i = space.row[entry_id] = space.size + len(fresh)
                fresh.append(k)
                space.ids.append(entry_id)
            elif i < space.size:                      # (an id twice in one batch keeps its first row)
                space.ledgers[i] = _CODE[ledger]
        if not fresh:
            return
        need = space.size + len(fresh)
        if need > len(space.ledgers):
            space.ledgers = np.resize(space.ledgers, max(64, need, 2 * len(space.ledgers)))
        space.ledgers[space.size:need] = [_CODE[ledgers[k]] for k in fresh]
        rows = vectors[fresh] if len(fresh) < len(ids) else vectors       # dense or sparse rows
        space.vectors.append(rows)
        space.idf.add(rows)
        space.size = need

    def update(self, entries: Sequence[Entry], vectors: dict[str, np.ndarray], embed: Callable[[list[str]], np.ndarray]) -> None:
        """Reflect ``entries`` (their current ledger); vectors come from ``vectors`` or the cache itself,
        and only entries never seen are embedded."""
        by_ns: dict[str, list[Entry]] = {}
        for e in entries:
            if e.namespace in self._spaces:              # unloaded namespaces load fresh from Chroma later
                by_ns.setdefault(e.namespace, []).append(e)
        for ns, group in by_ns.items():
            space = self._spaces[ns]
            for e in group:
                i = space.row.get(e.id)
                if e.ledger is Ledger.HISTORY and i is not None and space.ledgers[i]:
                    space.ledgers[i] = 0
                    space.idf.remove(space.vectors.get(i)[None])
            live = [e for e in group if e.ledger is not Ledger.HISTORY]
            missing = [e for e in live if e.id not in vectors and e.id not in space.row]
            fresh = dict(zip((e.id for e in missing), embed([e.text for e in missing]))) if missing else {}
            rows = [vectors.get(e.id, fresh.get(e.id)) for e in live]
            known = [(e, r) for e, r in zip(live, rows) if r is not None]
            for e in live:
                if e.id in space.row and e.id not in vectors and e.id not in fresh:
                    space.ledgers[space.row[e.id]] = _CODE[e.ledger]
            if known:
                self._put(space, [e.id for e, _ in known], np.stack([r for _, r in known]), [e.ledger for e, _ in known])

    def query(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger], *,
              weigh: bool = False) -> list[tuple[str, float]]:
        """Top-k (id, cosine). ``weigh``: IDF-weight the query by this namespace's own statistics, which
        ranks retrieval far better with the hashing embedder; grounding leaves it off so that a restated
        claim still scores 1.0 against its twin."""
        space = self._space(namespace)
        if k <= 0 or space.size == 0:
            return []
        query = np.asarray(vector, dtype=np.float32)
        if weigh:
            query = space.idf.weigh(query[None])[0].astype(np.float32)
        scores = space.vectors.dot(query)
        codes = {_CODE[lg] for lg in ledgers}
        live = space.ledgers[: space.size]      # 0 closed, 1 Accepted, 2 Pending: "open" is > 0, 10x an isin
        allowed = live > 0 if codes == {1, 2} else np.isin(live, list(codes))
        scores = np.where(allowed, scores, -np.inf)
        n = int(allowed.sum())
        if n == 0:
            return []
        top = top_k(scores, min(k, n))
        return [(space.ids[i], float(scores[i])) for i in top]

    def clear(self) -> None:
        self._spaces.clear()


class CachedNeighbours:
    """The engine's reads through the cache: folded forward from the ledger's log before each read
    (``refresh``) and after each own commit (``committed``), loaded per namespace from the ledger and the
    vector file (``remember``: rows the file lacked, handed to the index writer to file)."""

    def __init__(self, index: EntryIndex, store: LedgerStore,
                 remember: Callable[[str, list[str], np.ndarray], None] = lambda ns, ids, rows: None) -> None:
        self.index, self.store, self.remember = index, store, remember
        self.cache = VectorCache(index.embedder.dim, self._load)
        self.rows = HeldEntries(store)
        """The ledger's entries as the engine's candidates read them, folded forward with the vectors."""
        self._seen = 0

    def refresh(self) -> None:
        """Fold transactions committed by other processes (or before a crash) into the cache."""
        head = self.store.head()
        if head != self._seen:
            ids = list(dict.fromkeys(m.entry_id for _, m in self.store.moves_since(min(self._seen, head))))
            entries = self.store.entries(ids)
            self.cache.update(entries, {}, self.index.embed)
            self.rows.moved(entries)
            self._seen = head

    def prefetch(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger]) -> None:
        """Nothing to fetch ahead: the cache answers in well under a millisecond under the write lock."""
        return None

    def query(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger], *,
              weigh: bool = False, hint: object = None) -> list[tuple[str, float]]:
        return self.cache.query(vector, namespace, k, ledgers, weigh=weigh)

    reads_moved = True
    """``committed`` takes the entries our transactions moved, as they now are (read under the write lock)."""

    def committed(self, namespace: str, touched: Sequence[Entry], vectors: dict[str, np.ndarray], tx: int) -> None:
        """Our own transactions up to ``tx`` committed (the cache was refreshed under the write lock)."""
        self.cache.update(touched, vectors, self.index.embed)
        self.rows.moved(touched)
        self._seen = max(self._seen, tx)

    def settle(self) -> None:
        """Nothing to leave behind: the cache is this process's own."""

    def clear(self) -> None:
        self.cache.clear()
        self.rows.clear()
        self._seen = self.store.head()

    def _load(self, namespace: str) -> tuple[list[str], Any, list[Ledger]]:
        return open_rows(namespace, self.store, self.index, getattr(self.index, "file", None), self.remember)
