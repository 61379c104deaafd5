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
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import numpy as np

from ..errors import IndexUnavailable
from ..schema import Ledger

if TYPE_CHECKING:
    from ..ledgers import LedgerStore
    from .chroma import EntryIndex

log = logging.getLogger(__name__)

LINGER_S = 0.05
"""How long a catch-up waits for more commits before writing (unless someone flushes): under continuous
writes one Chroma call then carries dozens of entries instead of one (each call costs milliseconds of
CPU whatever its size); an idle store is indexed within 50 ms."""
SERVED_LINGER_S = 0.5
"""The same on a Chroma server, where reads cover the unindexed tail of the log themselves (``served.py``)
and one upsert costs the server ~0.1 s of CPU whatever its size (measured with four writer processes
on two cores): the server's CPU is what several writers share, so fewer, larger upserts."""

INDEXED_TX = "indexed_tx"
"""Ledger meta key: every transaction up to this one is in the index."""


class IndexWriter:
    def __init__(self, index: EntryIndex, store: LedgerStore,
                 serialise: Callable[[], AbstractContextManager[object]], linger: float = LINGER_S) -> None:
        self.index, self.store = index, store
        self.linger = linger
        self._serialise = serialise
        self._vectors: dict[str, np.ndarray] = {}     # vectors the engine already holds (saves re-embedding)
        self._wake = threading.Condition()
        self._asked = self._answered = 0
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
            self._asked += 1
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
            truth = {e.id: e for ns in self.store.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
                     for e in self.store.ledger(ns, lg)}
            indexed = self.index.states()
            self.index.remove(i for i in indexed if i not in truth)
            self.index.write([e for i, e in truth.items() if indexed.get(i) is not e.ledger], {})

    def rebuild(self) -> None:
        """Empty the index and fill it again from the ledger."""
        with self._serialise():
            self._rebuild()

    def _rebuild(self) -> None:
        self.index.remove(self.index.ids())
        self.store.set_meta(INDEXED_TX, "0")
        self._catch_up({})

    def _catch_up(self, vectors: dict[str, np.ndarray]) -> None:
        done = int(self.store.get_meta(INDEXED_TX) or 0)
        head = self.store.head()                      # read first: moves after it are caught up next time
        if head > done:
            ids = list(dict.fromkeys(m.entry_id for _, m in self.store.moves_since(done)))
            self.index.write(self.store.entries(ids), vectors)
            self.store.set_meta(INDEXED_TX, str(head))

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
                deadline = time.monotonic() + self.linger
                while self._urgent <= self._answered and not self._closing and time.monotonic() < deadline:
                    self._wake.wait(deadline - time.monotonic())
                target, vectors, self._vectors = self._asked, self._vectors, {}
                covering = None if self._urgent > self._answered or self._closing else self._mine
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
