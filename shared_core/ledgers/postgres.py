"""PostgreSQL ledger store (psycopg 3): the same plain tables as SQLite, for stores shared by several
processes or hosts (with a Chroma server for the index).

Concurrency, chosen and measured (``tarl bench scale``), with transaction-scoped advisory locks under
READ COMMITTED and nothing ever retried:
- a memory transaction of one namespace takes that namespace's lock (two-key ``pg_advisory_xact_lock``)
  from BEGIN: writers of one namespace serialise, each reads (candidates, decision) everything
  committed there before it, so "one Accepted entry per single-valued slot" holds across processes
  (every entry a transaction touches is in its namespace: premises and cascades never cross one);
- its first transaction number takes the store's order lock (``WRITE_LOCK``) until COMMIT, so
  transaction numbers commit in order and a watermark "everything up to tx N is indexed" stays true;
  only executing, recording and committing wait there, while other namespaces read and decide;
- a store-wide transaction (``writer()`` with no namespace: an import) takes ``STORE_LOCK`` exclusively,
  which every namespace writer holds shared, so it waits for all of them and all wait for it.
SERIALIZABLE would need retry loops around every decision. Reads run on their own autocommit
connection and see committed state; a writer reads through its own.

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
"""Advisory lock key held from a transaction's first number to COMMIT: numbers commit in order (``tarl`` + 1)."""
STORE_LOCK = 0x7461726C00000003
"""Held shared by namespace writers, exclusively by a store-wide one."""
NAMESPACE_LOCK = 0x7461726C
"""First key of a namespace's lock (two-key form, ``hashtext(namespace)`` second: a separate key space)."""
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
    store's order lock meanwhile, so every round trip saved is time no other process can commit. The
    order lock is taken with the first transaction number, after the namespace's reads and decision."""

    def __init__(self, store: PostgresLedgerStore, con: Any, ordered: bool) -> None:
        super().__init__(store, con)
        self._ordered = ordered

    def next_tx(self) -> int:
        if not self._ordered:
            self._store._take_order(self._con)     # type: ignore[attr-defined]
            self._ordered = True
        return super().next_tx()

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
        """Seconds this process waited for its writers' locks (namespace and order), and held the order
        lock (``tarl bench scale``: where concurrent writers serialise)."""
        self._ordered_at: float | None = None
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
    def writer(self, namespace: str | None = None) -> Iterator[_Writer]:
        with self._wlock:
            self._ordered_at = None
            try:
                with self._write.transaction():
                    start = time.perf_counter()
                    if namespace is None:
                        self._write.execute("SELECT pg_advisory_xact_lock(%s)", (STORE_LOCK,))
                        self.lock_wait_s += time.perf_counter() - start
                        self._take_order(self._write)
                    else:
                        self._write.execute("SELECT pg_advisory_xact_lock_shared(%s), pg_advisory_xact_lock(%s::int, hashtext(%s))",
                                            (STORE_LOCK, NAMESPACE_LOCK, namespace))
                        self.lock_wait_s += time.perf_counter() - start
                    yield _PipelinedWriter(self, self._write, ordered=namespace is None)
            finally:
                if self._ordered_at is not None:
                    self.lock_held_s += time.perf_counter() - self._ordered_at

    def _take_order(self, con: Any) -> None:
        """The order lock, held to COMMIT: transaction numbers are read and committed one writer at a time."""
        start = time.perf_counter()
        con.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
        self._ordered_at = time.perf_counter()
        self.lock_wait_s += self._ordered_at - start

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
