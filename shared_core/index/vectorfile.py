"""The vectors of an embedded store's entries, in an append-only file beside the ledger.

Why: the in-process vector cache needs every open entry of a namespace at its first read, and reading
them back from embedded Chroma costs over a minute at 100k entries of width 2048 (dense rows, read in
pages, under the interpreter lock). Entries are immutable and the embedder is deterministic, so an
entry's vector never changes: a plain log of (id, vector) records needs no invalidation, no watermark
and no compaction, and reading 100k sparse rows from it takes a fraction of a second.

It is a cache, never a source of truth: which entries are open comes from the ledger, and a vector
the file lacks (the process died before it was appended, a torn last frame, a deleted file) is taken
from Chroma or embedded again. Frames are appended by the index writer under the store's upkeep lock
after the Chroma write they mirror; each frame carries a CRC, and a reader stops at the first frame
that does not check out.
"""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..schema import Ledger

if TYPE_CHECKING:
    from ..ledgers import LedgerStore
    from .chroma import EntryIndex

MAGIC = b"TVF1"
_HEAD = struct.Struct("<4sIIIII")     # magic, rows, non-zeros, width, bytes of the id list, CRC of the payload


class VectorFile:
    """``path``: one file per vector space (the name carries the store, embedder and width)."""

    def __init__(self, path: str | Path, dim: int) -> None:
        self.path = Path(path)
        self.dim = dim
        self._checked = False

    def append(self, namespace: str, ids: Sequence[str], vectors: np.ndarray) -> None:
        """One frame of rows (call under the store's upkeep lock: frames from two writers must not interleave)."""
        if not len(ids):
            return
        from scipy import sparse

        if not self._checked:                     # a torn frame from a killed writer: cut before appending
            self._truncate_to_good()
            self._checked = True
        rows = sparse.csr_matrix(np.asarray(vectors, dtype=np.float32).reshape(len(ids), self.dim))
        names = json.dumps({"ns": namespace, "ids": list(ids)}).encode()
        payload = b"".join([names, rows.indptr.astype("<u4").tobytes(), rows.indices.astype("<u4").tobytes(),
                            rows.data.astype("<f4").tobytes()])
        frame = _HEAD.pack(MAGIC, len(ids), rows.nnz, self.dim, len(names), zlib.crc32(payload)) + payload
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, frame)
        finally:
            os.close(fd)

    def read(self, namespace: str) -> tuple[list[str], Any]:
        """(ids, CSR rows) of ``namespace`` as far as the file holds good frames; later frames win."""
        from scipy import sparse

        ids: list[str] = []
        blocks = []
        for ns, frame_ids, rows in self._frames():
            if ns == namespace:
                ids += frame_ids
                blocks.append(rows)
        if not blocks:
            return [], sparse.csr_matrix((0, self.dim), dtype=np.float32)
        return ids, sparse.vstack(blocks, format="csr") if len(blocks) > 1 else blocks[0]

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)
        self._checked = True

    def _frames(self, good: list[int] | None = None) -> Any:
        from scipy import sparse

        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        at = 0
        while at + _HEAD.size <= len(data):
            magic, n, nnz, dim, names_len, crc = _HEAD.unpack_from(data, at)
            end = at + _HEAD.size + names_len + 4 * (n + 1) + 8 * nnz
            if magic != MAGIC or dim != self.dim or end > len(data):
                return
            payload = memoryview(data)[at + _HEAD.size:end]
            if zlib.crc32(payload) != crc:
                return
            names = json.loads(bytes(payload[:names_len]))
            o = names_len
            indptr = np.frombuffer(payload, "<u4", n + 1, o).astype(np.int32)
            indices = np.frombuffer(payload, "<u4", nnz, o + 4 * (n + 1)).astype(np.int32)
            values = np.frombuffer(payload, "<f4", nnz, o + 4 * (n + 1) + 4 * nnz).copy()
            at = end
            if good is not None:
                good.append(at)
            yield names["ns"], names["ids"], sparse.csr_matrix((values, indices, indptr), shape=(n, dim))

    def _truncate_to_good(self) -> None:
        ends = [0]
        for _ in self._frames(ends):
            pass
        if self.path.exists() and self.path.stat().st_size > ends[-1]:
            os.truncate(self.path, ends[-1])


def open_rows(namespace: str, store: LedgerStore, index: EntryIndex, file: VectorFile | None,
              remember: Callable[[str, list[str], np.ndarray], None]) -> tuple[list[str], Any, list[Ledger]]:
    """A namespace's open entries (ids and ledgers from the ledger) with their vectors: from the file,
    else from Chroma by id, else embedded again; rows the file lacked are handed to ``remember``."""
    from scipy import sparse

    wanted = dict(store.open_ids(namespace))
    filed_ids, filed = file.read(namespace) if file is not None else ([], None)
    at = {i: k for k, i in enumerate(filed_ids) if i in wanted}          # a later copy of an id wins
    missing = [i for i in wanted if i not in at]
    found = index.vectors_of(missing) if missing else {}
    unknown = [e for e in store.entries([i for i in missing if i not in found])]
    if unknown:
        found.update(zip((e.id for e in unknown), index.embed([e.text for e in unknown])))
    extra = [i for i in missing if i in found]
    if extra:
        remember(namespace, extra, np.stack([found[i] for i in extra]))
    ids = [*at, *extra]
    rows = [*at.values()]
    blocks = ([filed if rows == list(range(filed.shape[0])) else filed[rows]] if at else []) + \
        ([sparse.csr_matrix(np.stack([found[i] for i in extra]).astype(np.float32))] if extra else [])
    if len(blocks) != 1:
        blocks = [sparse.vstack(blocks, format="csr") if blocks else np.zeros((0, index.embedder.dim), np.float32)]
    return ids, blocks[0], [wanted[i] for i in ids]
