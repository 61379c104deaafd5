"""Write-behind for the Chroma index: the index follows the ledger's committed log, never a caller's word.

Why behind: a Chroma upsert costs several milliseconds (tens over HTTP), more than a whole decision.
Why from the log: a writer that indexes "what I just did" can be overtaken (process A upserts an entry
as Accepted after process B removed it as closed, and the index lies until someone notices). So a
catch-up reads, under the store's index-writer lock, every entry moved since the watermark in its
*current* committed state, writes that to Chroma, and only then moves the watermark. Whoever catches up
last wrote the latest state; a crash before the watermark moved is repaired by the next catch-up.

The worker is a plain (non-daemon) thread: ``close`` drains it, and so does the end of the program
when nobody called ``close`` (the worker sees the main thread finish), so nothing is lost at exit. When the
latest catch-up failed (the index is behind the ledger, e.g. the Chroma server is down), the next
``flush`` / ``close`` raises it rather than leaving it in a log nobody reads; a later catch-up that
succeeds repairs the index (the watermark did not move) and clears it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import numpy as np

from ..errors import IndexUnavailable
from ..schema import Entry

if TYPE_CHECKING:
    from ..ledgers import LedgerStore
    from .chroma import EntryIndex
    from .vectorfile import VectorFile

log = logging.getLogger(__name__)

IDLE_S = 0.1
"""A catch-up starts once commits pause this long (unless someone flushes)."""

LAG_S = 2.0
"""... or once the oldest commit not yet indexed is this old, or ``BATCH`` commits wait: the bound on
how far the index trails the ledger under continuous writes. Why so lazy: on embedded Chroma 1.5 (dim
2048, 10k rows) an upsert costs 7-9 ms CPU for one row and ~1.4 ms per row in batches of 1,000 (a
delete 4.5 ms for one id, 0.1-0.3 ms per id in batches), and the call holds the interpreter lock
throughout, so every catch-up stalls the writing thread (checked again on Chroma 1.5.9: during an upsert of
300 rows, 0.64 s, a Python loop in another thread ran at 2-3% of its rate alone and got 12-19 ms of CPU).
Catching up in the pauses between bursts keeps that stall out of the writes; reads never wait for the index
(they are served from the ledger and the in-process vectors)."""

BATCH = 2000
"""Commits after which a catch-up starts without waiting (bounds the size of one stall)."""

SERVED_LINGER_S = 0.5
"""Quiet period and lag bound on a Chroma server, where reads cover the unindexed tail of the log
themselves (``served.py``) and one upsert costs the server ~0.1 s of CPU whatever its size (measured
with four writer processes on two cores): the server's CPU is what several writers share, so fewer,
larger upserts, at most half a second behind."""

INDEXED_TX = "indexed_tx"
"""Ledger meta key: every transaction up to this one is in the index."""


class IndexWriter:
    def __init__(self, index: EntryIndex, store: LedgerStore, serialise: Callable[[], AbstractContextManager[object]],
                 *, linger: float = IDLE_S, lag: float = LAG_S, file: VectorFile | None = None) -> None:
        """``linger``: the pause in commits after which a catch-up starts; ``lag``: the longest the
        index trails a commit; ``file``: the embedded store's vector file."""
        self.index, self.store, self.file = index, store, file
        self.linger, self.lag = linger, lag
        self._serialise = serialise
        self._vectors: dict[str, np.ndarray] = {}     # vectors the engine already holds (saves re-embedding)
        self._unfiled: dict[str, tuple[list[str], list[np.ndarray]]] = {}   # rows the file lacked, by namespace
        self._wake = threading.Condition()
        self._asked = self._answered = 0
        self._since: float | None = None              # when the oldest unanswered request came
        self._last = 0.0                              # when the newest one came
        self._mine = 0                                # the newest transaction this engine committed
        self._urgent = 0                              # the newest request someone waits for (flush / close)
        self._closing = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="tarl-index-writer")
        self._thread.start()

    def submit(self, vectors: dict[str, np.ndarray], tx: int = 0) -> None:
        """Transaction ``tx`` committed: catch up soon. ``vectors``: embeddings of new entries, by id."""
        with self._wake:
            self._vectors.update(vectors)
            self._mine = max(self._mine, tx)
            self._request()

    def _request(self) -> None:
        """(Holding ``_wake``.) Ask for a catch-up at the next pause. The worker is woken only when it must act:
        the first request since it last took a batch, or a full batch. A request in between only moves the
        pause's end (``_last``), which the worker reads again when the wait it is in ends: woken at every
        write, it took the interpreter lock from the writing thread at every write, to wait again."""
        self._last = time.monotonic()
        first = self._since is None
        if first:
            self._since = self._last
        self._asked += 1
        if first or self._asked - self._answered >= BATCH:
            self._wake.notify_all()

    def flush(self) -> None:
        """Wait until the index holds every transaction committed before this call; raise if it failed."""
        with self._wake:
            self._asked += 1
            target = self._urgent = self._asked
            self._wake.notify_all()
            while self._answered < target and self._thread.is_alive():
                self._wake.wait()
            self._raise()

    def close(self) -> None:
        """Drain, stop the worker, and raise a failure it kept."""
        with self._wake:
            self._closing = True
            self._wake.notify_all()
        self._thread.join()
        with self._wake:
            self._raise()

    def start(self) -> None:
        """At open: trust the watermark and catch up only the log after it. A watermark the index cannot
        match (beyond the ledger's head: an index built from another ledger; a collection that did not
        exist until now: a lost or moved-aside index) means a rebuild. Nothing else of the index is
        read: the first access to an embedded collection loads all its vectors (~1 s and ~900 MB at
        100k rows of width 2048), which the engine's reads never need; ``repair`` (``reconcile``)
        compares every row by id and state."""
        with self._serialise():
            mark = int(self.store.get_meta(INDEXED_TX) or 0)
            if mark > self.store.head() or (mark and getattr(self.index, "created", False)):
                self._rebuild()
            else:
                self._catch_up({})

    def remember(self, namespace: str, ids: Sequence[str], vectors: np.ndarray) -> None:
        """Rows a reader had to take from Chroma or embed because the vector file lacked them: filed at
        the next catch-up, so the next process reads them from the file."""
        if self.file is None or not len(ids):
            return
        with self._wake:
            got = self._unfiled.setdefault(namespace, ([], []))
            got[0].extend(ids)
            got[1].extend(np.asarray(vectors, dtype=np.float32))
            self._request()

    def catch_up(self, vectors: dict[str, np.ndarray] | None = None, *, covering: int | None = None) -> None:
        """Bring the index up to the ledger's head now; ``covering``: unless it already holds every
        transaction up to this one. With several writer processes, whoever catches up first indexes
        everyone's commits: the others then find theirs covered and leave the server alone (each
        upsert costs a Chroma server ~0.05-0.1 s of CPU whatever its size)."""
        with self._serialise():
            if covering is not None and int(self.store.get_meta(INDEXED_TX) or 0) >= covering:
                return
            self._catch_up(vectors or {})

    def repair(self) -> None:
        """Catch up, then compare every indexed id and the ledger its row names with the ledger's open
        entries and fix what differs: reconciliation by ids and states, not counts. A watermark beyond
        the ledger's head means the index was built from another ledger: rebuilt."""
        with self._serialise():
            if int(self.store.get_meta(INDEXED_TX) or 0) > self.store.head():
                self._rebuild()
                return
            self._catch_up({})
            truth = dict(self.store.open_ids())
            indexed = self.index.states()
            self.index.remove(i for i in indexed if i not in truth)
            self.index.write(self.store.entries([i for i, lg in truth.items() if indexed.get(i) is not lg]), {})

    def rebuild(self) -> None:
        """Empty the index and fill it again from the ledger."""
        with self._serialise():
            self._rebuild()

    def _rebuild(self) -> None:
        self.index.remove(self.index.ids())
        if self.file is not None:
            self.file.clear()
        self.store.set_meta(INDEXED_TX, "0")
        self._catch_up({})

    def _catch_up(self, vectors: dict[str, np.ndarray]) -> None:
        done = int(self.store.get_meta(INDEXED_TX) or 0)
        head = self.store.head()                      # read first: moves after it are caught up next time
        if head > done:
            moves = self.store.moves_since(done)
            entries = self.store.entries(list(dict.fromkeys(m.entry_id for _, m in moves)))
            written = self.index.write(entries, vectors)
            born = {m.entry_id for _, m in moves if m.from_ledger is None}
            self._file([e for e in entries if e.id in born and e.id in written], written)
            self.store.set_meta(INDEXED_TX, str(head))
        else:
            self._file([], {})

    def _file(self, created: list[Entry], vectors: dict[str, np.ndarray]) -> None:
        """Append the vectors of entries created since the watermark (and rows readers lacked) to the
        vector file: after the Chroma write, before the watermark moves (a crash between the two
        appends them again; a reader keeps the last copy of an id)."""
        if self.file is None:
            return
        with self._wake:
            unfiled, self._unfiled = self._unfiled, {}
        by_ns: dict[str, tuple[list[str], list[np.ndarray]]] = {}
        for e in created:
            got = by_ns.setdefault(e.namespace, ([], []))
            got[0].append(e.id)
            got[1].append(vectors[e.id])
        for ns, (ids, rows) in [*unfiled.items(), *by_ns.items()]:
            self.file.append(ns, ids, np.stack(rows))

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise IndexUnavailable("index", self.index.where, f"the index update failed ({error}); the ledger is "
                                   "intact and the next open repairs the index from it") from error

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._answered == self._asked and not self._closing:
                    self._wake.wait(0.5)
                    if not threading.main_thread().is_alive():     # the program ended without close():
                        self._closing = True                       # drain, then let the interpreter exit
                if self._answered == self._asked and self._closing:
                    return
                while self._urgent <= self._answered and not self._closing and self._asked - self._answered < BATCH:
                    due = min(self._last + self.linger, (self._since or self._last) + self.lag) - time.monotonic()
                    if due <= 0:
                        break
                    self._wake.wait(due)
                target, vectors, self._vectors, self._since = self._asked, self._vectors, {}, None
                covering = None if self._urgent > self._answered or self._closing or self._unfiled else self._mine
            try:
                self.catch_up(vectors, covering=covering)
                failed: BaseException | None = None
            except Exception as exc:  # noqa: BLE001 - kept and raised by flush() / close()
                log.exception("index catch-up failed")
                failed = exc
            with self._wake:
                self._error = failed                  # a later successful catch-up repaired an earlier failure
                self._answered = max(self._answered, target)
                self._wake.notify_all()
