"""PostgreSQL ledger store (psycopg 3): the same plain tables as SQLite, for stores shared by several
processes or hosts (with a Chroma server for the index).

Concurrency, chosen and measured (``tarl bench scale``): every memory transaction takes one
transaction-scoped advisory lock per store (``pg_advisory_xact_lock``) under READ COMMITTED. That is
SQLite's ``BEGIN IMMEDIATE`` in PostgreSQL terms: writers serialise, each sees everything committed
before it (so "one Accepted entry per single-valued slot" holds across processes), transaction numbers
commit in order (so a watermark "everything up to tx N is indexed" is true), and nothing is ever
retried. Per-namespace locks would let namespaces write in parallel but would need a separate
transaction counter per namespace; SERIALIZABLE would need retry loops around every decision. Reads
run on their own autocommit connection and see committed state; a writer reads through its own.

Triggers refuse what the design forbids, as in SQLite: DELETE and TRUNCATE of log, entry and premise
rows, any UPDATE of the log or of entry content, and a ledger change that is not the entry's latest
logged move (``INSERT ... ON CONFLICT DO UPDATE`` is an UPDATE, so it is refused too).
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..schema import Transaction
from .sql import SQLLedgerStore, _Writer

WRITE_LOCK = 0x7461726C00000001
"""Advisory lock key held by each memory transaction (``tarl`` + 1)."""
UPKEEP_LOCK = 0x7461726C00000002
"""Advisory lock key held while the index catches up with the ledger."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS transactions (
    tx BIGINT PRIMARY KEY, namespace TEXT NOT NULL, action TEXT NOT NULL, at TEXT NOT NULL,
    target_id TEXT, claim TEXT, decision TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    id TEXT PRIMARY KEY, namespace TEXT NOT NULL, text TEXT NOT NULL, source TEXT NOT NULL,
    confidence DOUBLE PRECISION NOT NULL, observed_at TEXT NOT NULL, valid_from TEXT, valid_to TEXT, slot TEXT,
    metadata TEXT NOT NULL DEFAULT '{}', depends_on TEXT NOT NULL DEFAULT '[]', target_id TEXT,
    ledger TEXT NOT NULL CHECK (ledger IN ('accepted', 'pending', 'history')), reason TEXT, note TEXT,
    created_tx BIGINT NOT NULL REFERENCES transactions(tx), closed_tx BIGINT REFERENCES transactions(tx)
);
CREATE INDEX IF NOT EXISTS entries_by_ledger ON entries(namespace, ledger);
CREATE INDEX IF NOT EXISTS entries_by_slot ON entries(namespace, slot) WHERE slot IS NOT NULL;
CREATE TABLE IF NOT EXISTS premises (
    entry_id TEXT NOT NULL REFERENCES entries(id), premise_id TEXT NOT NULL REFERENCES entries(id),
    PRIMARY KEY (entry_id, premise_id)
);
CREATE INDEX IF NOT EXISTS premises_by_premise ON premises(premise_id);
CREATE TABLE IF NOT EXISTS moves (
    tx BIGINT NOT NULL REFERENCES transactions(tx), seq INTEGER NOT NULL, entry_id TEXT NOT NULL REFERENCES entries(id),
    from_ledger TEXT, to_ledger TEXT NOT NULL, reason TEXT, note TEXT, PRIMARY KEY (tx, seq)
);
CREATE INDEX IF NOT EXISTS moves_by_entry ON moves(entry_id, tx);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE OR REPLACE FUNCTION tarl_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION '%', TG_ARGV[0] USING ERRCODE = 'integrity_constraint_violation'; END $$;

CREATE OR REPLACE FUNCTION tarl_entry_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE m RECORD;
BEGIN
    IF (NEW.id, NEW.namespace, NEW.text, NEW.source, NEW.confidence, NEW.observed_at, NEW.valid_from, NEW.valid_to,
        NEW.slot, NEW.metadata, NEW.depends_on, NEW.target_id, NEW.created_tx)
       IS DISTINCT FROM (OLD.id, OLD.namespace, OLD.text, OLD.source, OLD.confidence, OLD.observed_at, OLD.valid_from,
        OLD.valid_to, OLD.slot, OLD.metadata, OLD.depends_on, OLD.target_id, OLD.created_tx) THEN
        RAISE EXCEPTION 'entry content is immutable; only a logged move changes its ledger'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT tx, to_ledger, reason, note INTO m FROM moves WHERE entry_id = NEW.id ORDER BY tx DESC, seq DESC LIMIT 1;
    IF NOT FOUND OR m.to_ledger IS DISTINCT FROM NEW.ledger OR m.reason IS DISTINCT FROM NEW.reason
       OR m.note IS DISTINCT FROM NEW.note
       OR NEW.closed_tx IS DISTINCT FROM (CASE WHEN NEW.ledger = 'history' THEN m.tx END) THEN
        RAISE EXCEPTION 'an entry''s ledger is its latest logged move; record a move instead'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE OR REPLACE FUNCTION tarl_move_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.from_ledger = 'history' THEN
        RAISE EXCEPTION 'History is final: nothing moves out of it' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER entries_update BEFORE UPDATE ON entries FOR EACH ROW EXECUTE FUNCTION tarl_entry_update();
CREATE OR REPLACE TRIGGER entries_never_deleted BEFORE DELETE ON entries
    FOR EACH ROW EXECUTE FUNCTION tarl_refuse('entries are never deleted; close them into history');
CREATE OR REPLACE TRIGGER moves_history_is_final BEFORE INSERT ON moves FOR EACH ROW EXECUTE FUNCTION tarl_move_insert();
CREATE OR REPLACE TRIGGER transactions_append_only BEFORE UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION tarl_refuse('the transaction log is append-only');
CREATE OR REPLACE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION tarl_refuse('the transaction log is append-only');
CREATE OR REPLACE TRIGGER premises_immutable BEFORE UPDATE OR DELETE ON premises
    FOR EACH ROW EXECUTE FUNCTION tarl_refuse('premises are immutable');
"""
_TRUNCATE = ("entries", "transactions", "moves", "premises")
_DDL = SCHEMA + "".join(
    f"CREATE OR REPLACE TRIGGER {table}_never_truncated BEFORE TRUNCATE ON {table} "
    f"FOR EACH STATEMENT EXECUTE FUNCTION tarl_refuse('{table} rows are never deleted');\n" for table in _TRUNCATE)
SCHEMA_KEY = "schema"
"""Ledger meta key: the version of the DDL the database was given; an open runs the DDL only when it differs."""
SCHEMA_VERSION = hashlib.sha256(_DDL.encode()).hexdigest()[:16]


class _PipelinedWriter(_Writer):
    """Records a transaction's rows in one round trip (psycopg's pipeline mode): the writer holds the
    store's write lock meanwhile, so every round trip saved is time no other process can write."""

    def record(self, transaction: Transaction) -> None:
        self.next_tx()                               # a read: before the pipeline, which only writes
        with self._con.pipeline():
            super().record(transaction)


class PostgresLedgerStore(SQLLedgerStore):
    """``url``: ``postgresql://user@host:port/dbname``; one store per database (or per schema, with
    ``?options=-csearch_path%3Dname``)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.path = url
        self._read = psycopg.connect(url, autocommit=True)
        self._write = psycopg.connect(url, autocommit=True)
        self._upkeep = psycopg.connect(url, autocommit=True)
        self._rlock, self._wlock, self._ulock = threading.RLock(), threading.RLock(), threading.Lock()
        self.lock_wait_s = self.lock_held_s = 0.0
        """Seconds this process waited for the store's write lock, and held it (``tarl bench scale``: where
        concurrent writers serialise)."""
        if self._schema() != SCHEMA_VERSION:
            with self._write.transaction():
                self._write.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))   # one schema creator at a time
                self._write.execute(_DDL)
                self._write.execute("INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE "
                                    "SET value = excluded.value", (SCHEMA_KEY, SCHEMA_VERSION))

    def _schema(self) -> str | None:
        """The schema version the database holds (None before the first open). Why ask first: the DDL
        (``CREATE OR REPLACE TRIGGER``) locks each table against writes, so running it at every open made
        an opening process queue behind any writer's open transaction, and every later writer behind it,
        and wait out autovacuum after a bulk load (the 7 s ``open_s_100k`` of an earlier run)."""
        if self._write.execute("SELECT to_regclass('meta')").fetchone()[0] is None:       # type: ignore[index]
            return None
        row = self._write.execute("SELECT value FROM meta WHERE key = %s", (SCHEMA_KEY,)).fetchone()
        return row[0] if row else None

    def _rows(self, sql: str, params: tuple[Any, ...] = (), con: Any = None, *, fetch: bool = True) -> list[Any]:
        if con is not None:                          # the writer's connection: its lock is already held
            cursor = con.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if fetch else []
        with self._rlock:
            cursor = self._read.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall() if fetch else []

    @contextmanager
    def writer(self) -> Iterator[_Writer]:
        with self._wlock:
            start = time.perf_counter()
            try:
                with self._write.transaction():
                    self._write.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
                    got = time.perf_counter()
                    self.lock_wait_s += got - start
                    start = got
                    yield _PipelinedWriter(self, self._write)
            finally:
                self.lock_held_s += time.perf_counter() - start

    @contextmanager
    def upkeep_lock(self) -> Iterator[None]:
        with self._ulock:
            self._upkeep.execute("SELECT pg_advisory_lock(%s)", (UPKEEP_LOCK,))
            try:
                yield
            finally:
                self._upkeep.execute("SELECT pg_advisory_unlock(%s)", (UPKEEP_LOCK,))

    def close(self) -> None:
        for con in (self._read, self._write, self._upkeep):
            con.close()
