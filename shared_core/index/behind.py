"""Write-behind for the Chroma index: the write path hands over what changed and returns at once.

A Chroma upsert costs tens of milliseconds here, several times a whole decision, and reads are served
from the in-process vector cache anyway. One worker thread drains the queue, folds it to the last state
per entry, and writes one batch. The ledger stays the source of truth: the watermark (``on_done``) moves
only after Chroma has the batch, so a crash with work still queued is repaired by reconciliation on the
next open.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..schema import Entry, Ledger

if TYPE_CHECKING:
    from .chroma import EntryIndex

log = logging.getLogger(__name__)

Batch = tuple[list[Entry], dict[str, np.ndarray], int]


class IndexWriter:
    def __init__(self, index: EntryIndex, on_done: Callable[[int], None]) -> None:
        self.index = index
        self._on_done = on_done
        self._queue: queue.Queue[Batch | None] = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="tarl-index-writer", daemon=True)
        self._thread.start()

    def submit(self, entries: Sequence[Entry], vectors: dict[str, np.ndarray], tx: int) -> None:
        """``entries`` in their current ledger; History rows are removed from the index, open rows upserted."""
        self._queue.put((list(entries), dict(vectors), tx))

    def flush(self) -> None:
        """Wait until Chroma has everything submitted; re-raise the worker's failure, if any."""
        self._queue.join()
        if self._error is not None:
            error, self._error = self._error, None
            raise RuntimeError("the Chroma index update failed; it is repaired from the ledger on reopen") from error

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            batch = [item]
            while item is not None and not self._queue.empty():
                item = self._queue.get()
                batch.append(item)
            try:
                self._write([b for b in batch if b is not None])
            except BaseException as exc:  # noqa: BLE001 - kept and re-raised by flush()
                log.exception("index write failed")
                self._error = exc
            finally:
                for _ in batch:
                    self._queue.task_done()
            if batch[-1] is None:
                return

    def _write(self, batches: list[Batch]) -> None:
        if not batches:
            return
        latest: dict[str, Entry] = {}
        vectors: dict[str, np.ndarray] = {}
        for entries, vecs, _ in batches:
            vectors.update(vecs)
            for e in entries:
                latest.pop(e.id, None)
                latest[e.id] = e
        self.index.remove([i for i, e in latest.items() if e.ledger is Ledger.HISTORY])
        live = [e for e in latest.values() if e.ledger is not Ledger.HISTORY]
        known = [e for e in live if e.id in vectors]
        if known:
            self.index.upsert(known, np.stack([vectors[e.id] for e in known]))
        self.index.upsert([e for e in live if e.id not in vectors])
        self._on_done(max(tx for _, _, tx in batches))
