"""SQLite ledger store: plain tables a person can read with the ``sqlite3`` shell.

``entries`` holds every entry ever created (content is immutable; ``ledger`` is the current one),
``transactions`` and ``moves`` are the append-only log. Triggers refuse deletes and log rewrites, so
"nothing is ever deleted" is enforced by the database, not by convention. WAL, foreign keys on, and
``BEGIN IMMEDIATE`` per memory transaction so concurrent writers serialise instead of racing.

Durability: WAL with ``synchronous = NORMAL``. A commit is durable against the process dying at any
moment (SIGKILL: ``tarl bench faults``, and ``tests/core/test_core_crash.py``): the WAL frames are in
the operating system's hands before COMMIT returns. What a power loss or kernel crash can lose is the
last transactions committed since the WAL was last synced (at each checkpoint); the database is never
corrupted (the watermark lives in the same database, so it is lost with them), and index rows of lost
entries never surface (every id is read through the ledger; ``reconcile()`` removes them).
``synchronous = FULL`` would sync at every commit: measured here 0.21 ms a commit (p50) against 0.013.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .sql import SQLLedgerStore, _Writer

SCHEMA = """
CREATE TABLE IF NOT EXISTS transactions (
    tx        INTEGER PRIMARY KEY,
    namespace TEXT NOT NULL,
    action    TEXT NOT NULL,
    at        TEXT NOT NULL,
    target_id TEXT,
    claim     TEXT,              -- JSON of the claim that was decided on
    decision  TEXT               -- JSON of the policy's decision (probabilities, margin, rationale)
);
CREATE TABLE IF NOT EXISTS entries (
    id          TEXT PRIMARY KEY,
    namespace   TEXT NOT NULL,
    text        TEXT NOT NULL,
    source      TEXT NOT NULL,
    confidence  REAL NOT NULL,
    observed_at TEXT NOT NULL,
    valid_from  TEXT,
    valid_to    TEXT,
    slot        TEXT,
    metadata    TEXT NOT NULL DEFAULT '{}',
    depends_on  TEXT NOT NULL DEFAULT '[]',
    target_id   TEXT,
    ledger      TEXT NOT NULL CHECK (ledger IN ('accepted', 'pending', 'history')),
    reason      TEXT,
    note        TEXT,
    created_tx  INTEGER NOT NULL REFERENCES transactions(tx),
    closed_tx   INTEGER REFERENCES transactions(tx)
);
CREATE INDEX IF NOT EXISTS entries_by_ledger ON entries(namespace, ledger);
CREATE INDEX IF NOT EXISTS entries_by_slot ON entries(namespace, slot) WHERE slot IS NOT NULL;
CREATE TABLE IF NOT EXISTS premises (
    entry_id   TEXT NOT NULL REFERENCES entries(id),
    premise_id TEXT NOT NULL REFERENCES entries(id),
    PRIMARY KEY (entry_id, premise_id)
);
CREATE INDEX IF NOT EXISTS premises_by_premise ON premises(premise_id);
CREATE TABLE IF NOT EXISTS moves (
    tx          INTEGER NOT NULL REFERENCES transactions(tx),
    seq         INTEGER NOT NULL,
    entry_id    TEXT NOT NULL REFERENCES entries(id),
    from_ledger TEXT,
    to_ledger   TEXT NOT NULL,
    reason      TEXT,
    note        TEXT,
    PRIMARY KEY (tx, seq)
);
CREATE INDEX IF NOT EXISTS moves_by_entry ON moves(entry_id, tx);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TRIGGER IF NOT EXISTS entries_never_replaced BEFORE INSERT ON entries
    WHEN EXISTS (SELECT 1 FROM entries WHERE id = NEW.id)
    BEGIN SELECT RAISE(ABORT, 'entries are never replaced: an entry id is written once'); END;
CREATE TRIGGER IF NOT EXISTS entries_content_immutable BEFORE UPDATE ON entries
    WHEN NEW.id IS NOT OLD.id OR NEW.namespace IS NOT OLD.namespace OR NEW.text IS NOT OLD.text
      OR NEW.source IS NOT OLD.source OR NEW.confidence IS NOT OLD.confidence OR NEW.observed_at IS NOT OLD.observed_at
      OR NEW.valid_from IS NOT OLD.valid_from OR NEW.valid_to IS NOT OLD.valid_to OR NEW.slot IS NOT OLD.slot
      OR NEW.metadata IS NOT OLD.metadata OR NEW.depends_on IS NOT OLD.depends_on OR NEW.target_id IS NOT OLD.target_id
      OR NEW.created_tx IS NOT OLD.created_tx
    BEGIN SELECT RAISE(ABORT, 'entry content is immutable; only a logged move changes its ledger'); END;
CREATE TRIGGER IF NOT EXISTS entries_move_only_by_the_log BEFORE UPDATE OF ledger, reason, note, closed_tx ON entries
    WHEN NOT EXISTS (
        SELECT 1 FROM (SELECT tx, to_ledger, reason, note FROM moves WHERE entry_id = NEW.id
                       ORDER BY tx DESC, seq DESC LIMIT 1) AS m
        WHERE m.to_ledger = NEW.ledger AND m.reason IS NEW.reason AND m.note IS NEW.note
          AND NEW.closed_tx IS (CASE WHEN NEW.ledger = 'history' THEN m.tx END))
    BEGIN SELECT RAISE(ABORT, 'an entry''s ledger is its latest logged move; record a move instead'); END;
CREATE TRIGGER IF NOT EXISTS transactions_never_replaced BEFORE INSERT ON transactions
    WHEN EXISTS (SELECT 1 FROM transactions WHERE tx = NEW.tx)
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS moves_never_replaced BEFORE INSERT ON moves
    WHEN EXISTS (SELECT 1 FROM moves WHERE tx = NEW.tx AND seq = NEW.seq)
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS moves_history_is_final BEFORE INSERT ON moves WHEN NEW.from_ledger = 'history'
    BEGIN SELECT RAISE(ABORT, 'History is final: nothing moves out of it'); END;
CREATE TRIGGER IF NOT EXISTS premises_never_replaced BEFORE INSERT ON premises
    WHEN EXISTS (SELECT 1 FROM premises WHERE entry_id = NEW.entry_id AND premise_id = NEW.premise_id)
    BEGIN SELECT RAISE(ABORT, 'premises are immutable'); END;
CREATE TRIGGER IF NOT EXISTS premises_never_deleted BEFORE DELETE ON premises
    BEGIN SELECT RAISE(ABORT, 'premises are immutable'); END;
CREATE TRIGGER IF NOT EXISTS premises_immutable BEFORE UPDATE ON premises
    BEGIN SELECT RAISE(ABORT, 'premises are immutable'); END;
CREATE TRIGGER IF NOT EXISTS entries_never_deleted BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'entries are never deleted; close them into history'); END;
CREATE TRIGGER IF NOT EXISTS transactions_append_only BEFORE DELETE ON transactions
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS transactions_immutable BEFORE UPDATE ON transactions
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS moves_append_only BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS moves_immutable BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'the transaction log is append-only'); END;
"""


class _LockedWriter(_Writer):
    """A unit under ``BEGIN IMMEDIATE``: SQLite's write lock is held from BEGIN to COMMIT, so no other
    connection can append to the log meanwhile and its head, read once, stays true (``head`` and the
    first ``next_tx`` asked it one SELECT each; PostgreSQL's writer reads it again after taking its
    order lock, since other namespaces' writers may commit until then)."""

    _base: int | None = None

    def _last(self) -> int:
        if self._base is None:
            self._base = super()._last()
        return self._base


class SQLiteLedgerStore(SQLLedgerStore):
    """The default ledger store. ``path=":memory:"`` gives a private in-memory database.

    One connection, shared by the threads of this process under a lock; other processes open their own
    and serialise on SQLite's write lock (``BEGIN IMMEDIATE``)."""

    _unit: tuple[int, _LockedWriter] | None = None
    """The open unit and the thread running it (see ``head``)."""

    def __init__(self, path: str | Path = ":memory:", *, timeout: float = 30.0) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        self._upkeep = threading.Lock()
        with self._lock:
            self._prepare(timeout)

    def _prepare(self, timeout: float) -> None:
        """WAL mode and the schema, retried while another connection holds the file: a new database's switch
        to WAL needs its lock, and SQLite answers "database is locked" at once rather than wait for it
        (several processes opening one new store together, each then writing: 5 of 60 such races failed)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                if self._db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._db.execute("PRAGMA foreign_keys = ON")
                self._db.executescript(SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)

    def _rows(self, sql: str, params: tuple[Any, ...] = (), con: Any = None, *, fetch: bool = True) -> list[Any]:
        with self._lock:
            cursor = self._db.execute(sql, params)
            return cursor.fetchall() if fetch else []

    def head(self) -> int:
        """Inside a unit, for the thread running it, the unit's own head: nothing else can append to the log
        while ``BEGIN IMMEDIATE`` holds it, so the log's head is what the unit read once and recorded since
        (a write asked it three times: the engine's refresh before the decision, again before reading its
        candidates, and the unit's first transaction number). Other threads read the database, as before."""
        unit = self._unit
        if unit is not None and unit[0] == threading.get_ident():
            return unit[1].head()
        return super().head()

    @contextmanager
    def writer(self, namespace: str | None = None) -> Iterator[_Writer]:
        """SQLite has one writer at a time (``BEGIN IMMEDIATE``), whatever the ``namespace``."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._unit = (threading.get_ident(), _LockedWriter(self, self._db))
            try:
                yield self._unit[1]
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:             # a failed COMMIT (disk full, I/O) leaves it open
                    self._db.execute("ROLLBACK")
                raise
            finally:
                self._unit = None

    @contextmanager
    def upkeep_lock(self) -> Iterator[None]:
        """Serialises upkeep of derived state (index catch-ups) across the threads and processes of
        this store; an ``flock`` beside the database, so a killed process never leaves it held."""
        with self._upkeep:
            if self.path == ":memory:":
                yield
                return
            fd = os.open(self.path + ".upkeep.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
                yield
            finally:
                os.close(fd)

    def close(self) -> None:
        with self._lock:
            self._db.close()
