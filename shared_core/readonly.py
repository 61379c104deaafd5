"""Opening a store to look at it without changing a byte on disk (``tarl inspect``, ``export``, ``ui``).

Why not ``MemoryEngine.open``: it creates the folder and the schema, switches the file to WAL, opens
the embedded Chroma (which writes its own files) and may re-embed the index on reconciliation. A person
inspecting a store, or a dashboard pointed at an agent's live memory, must do none of that.

How: SQLite is opened through a URI. When a ``-wal`` file exists another connection has the store open
(or left it uncheckpointed), so ``mode=ro`` reads through the WAL with normal locking; otherwise every
committed byte is in the main file and ``immutable=1`` reads it without creating ``-wal``/``-shm`` files
(``mode=ro`` alone would create them). A long-lived reader of a snapshot notices a writer arriving
(``StoreFiles.changed``) and reopens. The index is replaced by an in-process one that embeds a namespace's open entries
on first search, so Chroma is never touched. This is the one place that knows how to open read-only:
when the engine grows its own read-only mode, only this module changes.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .engine import MemoryEngine
from .errors import TarlError
from .index import Embedder, default_embedder
from .ledgers import SQLiteLedgerStore
from .schema import Entry, Ledger

LEDGER_FILE = "ledger.db"
_TABLES = {"transactions", "entries", "moves"}


class StoreError(TarlError):
    """A path that is not a tarl store (missing, not SQLite, not our schema)."""


class ReadOnlyStore(TarlError):
    """A write attempted through a store opened read-only; nothing was written."""


def ledger_path(path: str | Path) -> Path:
    """``path/ledger.db`` after checking it exists and holds a tarl ledger; raises ``StoreError``."""
    root = Path(path)
    db = root / LEDGER_FILE
    if not root.exists():
        raise StoreError("store", str(path), "no such folder")
    if not db.is_file():
        raise StoreError("store", str(path), f"no {LEDGER_FILE} in this folder (not a tarl store)")
    try:
        conn = _connect(db, _quiet(db))
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError("store", str(path), f"{LEDGER_FILE} is not a readable SQLite database ({exc})") from None
    if not _TABLES <= tables:
        raise StoreError("store", str(path), f"{LEDGER_FILE} is SQLite but not a tarl ledger "
                                             f"(missing tables: {', '.join(sorted(_TABLES - tables))})")
    return db


def _connect(db: Path, snapshot: bool) -> sqlite3.Connection:
    uri = db.resolve().as_uri() + ("?mode=ro&immutable=1" if snapshot else "?mode=ro")
    return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)


def _quiet(db: Path) -> bool:
    """No ``-wal`` file: nobody has the store open and every committed byte is in the main file."""
    return not db.with_name(db.name + "-wal").exists()


@dataclass(frozen=True)
class StoreFiles:
    """Size and mtime of the ledger and its WAL: when they change, a reader reopens."""

    signature: tuple[Any, ...]

    @classmethod
    def of(cls, db: Path) -> StoreFiles:
        def stat(p: Path) -> tuple[int, int] | None:
            try:
                s = p.stat()
            except FileNotFoundError:
                return None
            return s.st_size, s.st_mtime_ns

        return cls((stat(db), stat(db.with_name(db.name + "-wal"))))

    def changed(self, db: Path) -> bool:
        return StoreFiles.of(db) != self


class ReadOnlyLedgerStore(SQLiteLedgerStore):
    """The SQLite ledger with every write refused; the watermark the engine keeps stays in memory."""

    def __init__(self, db: Path) -> None:           # deliberately not super().__init__: no schema, no PRAGMA
        self.path = str(db)
        self.immutable = _quiet(db)
        """Read as a snapshot: a writer arriving later is not seen (reopen when ``StoreFiles`` change);
        otherwise the connection reads through the WAL and sees every commit."""
        self._db = _connect(db, self.immutable)
        self._lock = threading.RLock()
        self._upkeep = threading.Lock()
        self._meta: dict[str, str] = {}

    @contextmanager
    def upkeep_lock(self) -> Iterator[None]:
        """In-process only: the cross-process lock file beside the database would be a new file, and
        nothing this engine does (its index writes are dropped) needs other processes to wait."""
        with self._upkeep:
            yield

    def writer(self, namespace: str | None = None) -> Any:
        raise ReadOnlyStore("store", str(Path(self.path).parent), "opened read-only; restart with writes enabled")

    def get_meta(self, key: str) -> str | None:
        return self._meta.get(key, super().get_meta(key))

    def set_meta(self, key: str, value: str) -> None:
        self._meta[key] = value


class LocalIndex:
    """The index's interface with nothing stored: the engine's vector cache embeds on first use, and
    every write (reconciliation, write-behind) is dropped, so Chroma is never opened."""

    where = "no index (opened read-only)"

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def write(self, entries: Sequence[Entry], vectors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return {}

    def vectors_of(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        return {}

    def states(self) -> dict[str, Ledger]:
        return {}

    def drop(self) -> None:
        return None

    def close(self) -> None:
        return None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder(list(texts)), dtype=np.float32)

    def upsert(self, entries: Sequence[Entry], vectors: np.ndarray | None = None) -> None:
        return None

    def remove(self, ids: Iterable[str]) -> None:
        return None

    def query(self, vector: np.ndarray, namespace: str, k: int, ledgers: Sequence[Ledger] = ()) -> list[tuple[str, float]]:
        return []

    def load(self, namespace: str) -> tuple[list[str], np.ndarray, list[Ledger]]:
        return [], np.zeros((0, self.embedder.dim), dtype=np.float32), []

    def ids(self) -> set[str]:
        return set()

    def count(self) -> int:
        return 0


def open_read_only(path: str | Path, *, embedder: Embedder | None = None) -> MemoryEngine:
    """A ``MemoryEngine`` over ``path`` whose reads work (search included) and whose writes raise
    ``ReadOnlyStore``; creates and changes no file. Raises ``StoreError`` for a path that is not a store."""
    db = ledger_path(path)
    store = ReadOnlyLedgerStore(db)
    return MemoryEngine(store, LocalIndex(embedder or default_embedder()))


def open_for_writing(path: str | Path, **options: Any) -> MemoryEngine:
    """``MemoryEngine.open`` on an existing store only: a mistyped path is an error, not a new store."""
    ledger_path(path)
    return MemoryEngine.open(path, **options)
