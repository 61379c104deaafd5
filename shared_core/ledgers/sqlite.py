"""SQLite ledger store: plain tables a person can read with the ``sqlite3`` shell.

``entries`` holds every entry ever created (content is immutable; ``ledger`` is the current one),
``transactions`` and ``moves`` are the append-only log. Triggers refuse deletes and log rewrites, so
"nothing is ever deleted" is enforced by the database, not by convention. WAL, foreign keys on, and
``BEGIN IMMEDIATE`` per memory transaction so concurrent writers serialise instead of racing.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from ..executor import MemoryState
from ..schema import Action, Claim, Decision, Entry, Ledger, Move, Reason, Transaction

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

_ENTRY_COLUMNS = (
    "id, namespace, text, source, confidence, observed_at, valid_from, valid_to, slot, metadata, "
    "depends_on, target_id, ledger, reason, note, created_tx, closed_tx"
)


def _ts(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _entry(row: tuple[Any, ...]) -> Entry:
    (id_, ns, text, source, conf, observed, vfrom, vto, slot, meta, deps, target, ledger, reason, note,
     created, closed) = row
    return Entry(
        id=id_, namespace=ns, text=text, source=source, confidence=conf, observed_at=observed,
        valid_from=vfrom, valid_to=vto, slot=slot, metadata=json.loads(meta), depends_on=tuple(json.loads(deps)),
        target_id=target, ledger=Ledger(ledger), reason=Reason(reason) if reason else None, note=note,
        created_tx=created, closed_tx=closed,
    )


class _Writer:
    """Reads and writes inside one open ``BEGIN IMMEDIATE`` transaction."""

    def __init__(self, store: SQLiteLedgerStore) -> None:
        self._store = store
        self._db = store._db
        self._next: int | None = None

    def entry(self, entry_id: str) -> Entry | None:
        return self._store._one(entry_id)

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]:
        where = "id IN (SELECT entry_id FROM premises WHERE premise_id = ?)"
        return self._store._select(where if include_history else where + " AND ledger != 'history'", (entry_id,))

    def by_slot(self, namespace: str, slot: str) -> list[Entry]:
        return self._store._select("namespace = ? AND slot = ? AND ledger != 'history'", (namespace, slot))

    def next_tx(self) -> int:
        if self._next is None:
            (head,) = self._db.execute("SELECT COALESCE(MAX(tx), 0) FROM transactions").fetchone()
            self._next = head + 1
        return self._next

    def record(self, t: Transaction) -> None:
        if t.tx != self.next_tx():
            raise RuntimeError(f"transaction {t.tx} recorded out of order (expected {self.next_tx()})")
        db = self._db
        db.execute(
            "INSERT INTO transactions (tx, namespace, action, at, target_id, claim, decision) VALUES (?,?,?,?,?,?,?)",
            (t.tx, t.namespace, t.action.value, _ts(t.at), t.target_id,
             t.claim.model_dump_json() if t.claim else None, t.decision.model_dump_json() if t.decision else None),
        )
        for e in t.created:
            db.execute(
                f"INSERT INTO entries ({_ENTRY_COLUMNS}) VALUES ({','.join('?' * 17)})",
                (e.id, e.namespace, e.text, e.source, e.confidence, _ts(e.observed_at), _ts(e.valid_from),
                 _ts(e.valid_to), e.slot, json.dumps(e.metadata, default=str), json.dumps(list(e.depends_on)),
                 e.target_id, e.ledger.value, e.reason.value if e.reason else None, e.note, e.created_tx, e.closed_tx),
            )
            db.executemany("INSERT INTO premises (entry_id, premise_id) VALUES (?, ?)", [(e.id, p) for p in e.depends_on])
        for seq, m in enumerate(t.moves):
            db.execute(
                "INSERT INTO moves (tx, seq, entry_id, from_ledger, to_ledger, reason, note) VALUES (?,?,?,?,?,?,?)",
                (t.tx, seq, m.entry_id, m.from_ledger.value if m.from_ledger else None, m.to_ledger.value,
                 m.reason.value if m.reason else None, m.note),
            )
            if m.from_ledger is not None:
                db.execute(
                    "UPDATE entries SET ledger = ?, reason = ?, note = ?, closed_tx = ? WHERE id = ?",
                    (m.to_ledger.value, m.reason.value if m.reason else None, m.note,
                     t.tx if m.to_ledger is Ledger.HISTORY else None, m.entry_id),
                )
        self._next = t.tx + 1


class SQLiteLedgerStore:
    """The default ledger store. ``path=":memory:"`` gives a private in-memory database."""

    def __init__(self, path: str | Path = ":memory:", *, timeout: float = 30.0) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        self._lock = threading.RLock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.executescript(SCHEMA)

    # -- writes -------------------------------------------------------------------------------
    @contextmanager
    def writer(self) -> Iterator[_Writer]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Writer(self)
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:             # a failed COMMIT (disk full, I/O) leaves it open
                    self._db.execute("ROLLBACK")
                raise

    # -- reads --------------------------------------------------------------------------------
    def _select(self, where: str, params: tuple[Any, ...] = (), order: str = "created_tx, id") -> list[Entry]:
        with self._lock:
            rows = self._db.execute(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE {where} ORDER BY {order}", params)
            return [_entry(r) for r in rows.fetchall()]

    def _one(self, entry_id: str) -> Entry | None:
        found = self._select("id = ?", (entry_id,))
        return found[0] if found else None

    def entry(self, entry_id: str) -> Entry | None:
        return self._one(entry_id)

    def entries(self, ids: list[str]) -> list[Entry]:
        """Entries for ``ids``, in the order of ``ids`` (unknown ids are skipped)."""
        if not ids:
            return []
        found = {e.id: e for e in self._select(f"id IN ({','.join('?' * len(ids))})", tuple(ids))}
        return [found[i] for i in ids if i in found]

    def slot(self, namespace: str, slot: str) -> list[Entry]:
        return self._select("namespace = ? AND slot = ?", (namespace, slot))

    def ledger(self, namespace: str, ledger: Ledger, *, limit: int | None = None) -> list[Entry]:
        order = "created_tx, id" + (f" LIMIT {int(limit)}" if limit is not None else "")
        return self._select("namespace = ? AND ledger = ?", (namespace, ledger.value), order)

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState:
        if as_of is None:
            return MemoryState(namespace, self._select("namespace = ?", (namespace,)))
        entries = self._select("namespace = ? AND created_tx <= ?", (namespace, as_of))
        with self._lock:
            rows = self._db.execute(
                """SELECT m.entry_id, m.tx, m.to_ledger, m.reason, m.note FROM moves m
                   JOIN entries e ON e.id = m.entry_id
                   WHERE e.namespace = ? AND m.tx <= ? ORDER BY m.tx, m.seq""",
                (namespace, as_of),
            ).fetchall()
        last = {entry_id: (tx, ledger, reason, note) for entry_id, tx, ledger, reason, note in rows}
        state = MemoryState(namespace)
        for e in entries:
            tx, ledger, reason, note = last[e.id]
            state.entries[e.id] = e.moved(Ledger(ledger), tx, Reason(reason) if reason else None, note)
        state.tx = as_of
        return state

    def log(self, namespace: str | None = None, *, after: int = 0, upto: int | None = None) -> Iterator[Transaction]:
        """The transaction log, oldest first; replaying it onto an empty ``MemoryState`` gives ``state()``."""
        where, params = "tx > ?", [after]
        if namespace is not None:
            where += " AND namespace = ?"
            params.append(namespace)
        if upto is not None:
            where += " AND tx <= ?"
            params.append(upto)
        with self._lock:
            txs = self._db.execute(
                f"SELECT tx, namespace, action, at, target_id, claim, decision FROM transactions WHERE {where} ORDER BY tx",
                params,
            ).fetchall()
        for tx, ns, action, at, target, claim, decision in txs:
            created = self._select("created_tx = ?", (tx,))
            with self._lock:
                move_rows = self._db.execute(
                    "SELECT entry_id, from_ledger, to_ledger, reason, note FROM moves WHERE tx = ? ORDER BY seq", (tx,)
                ).fetchall()
            moves = tuple(_move(r) for r in move_rows)
            born = {m.entry_id: m for m in moves if m.from_ledger is None}
            created = [
                e.model_copy(update={"ledger": born[e.id].to_ledger, "reason": born[e.id].reason, "note": born[e.id].note,
                                     "closed_tx": tx if born[e.id].to_ledger is Ledger.HISTORY else None})
                for e in created
            ]
            yield Transaction(
                tx=tx, namespace=ns, action=Action(action), at=at, target_id=target,
                claim=Claim.model_validate_json(claim) if claim else None,
                decision=Decision.model_validate_json(decision) if decision else None,
                created=tuple(created), moves=moves,
            )

    def touching(self, entry_id: str) -> list[int]:
        """The transactions that created or moved ``entry_id``, oldest first (for ``explain``)."""
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT tx FROM moves WHERE entry_id = ? ORDER BY tx", (entry_id,))
            return [int(r[0]) for r in rows.fetchall()]

    def moves_since(self, tx: int) -> list[tuple[int, Move]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT tx, entry_id, from_ledger, to_ledger, reason, note FROM moves WHERE tx > ? ORDER BY tx, seq", (tx,)
            ).fetchall()
        return [(r[0], _move(r[1:])) for r in rows]

    def namespaces(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._db.execute("SELECT DISTINCT namespace FROM entries ORDER BY namespace")]

    def head(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COALESCE(MAX(tx), 0) FROM transactions").fetchone()[0])

    def count(self, namespace: str | None = None, ledger: Ledger | None = None) -> int:
        where, params = ["1"], []
        if namespace is not None:
            where.append("namespace = ?")
            params.append(namespace)
        if ledger is not None:
            where.append("ledger = ?")
            params.append(ledger.value)
        with self._lock:
            return int(self._db.execute(f"SELECT COUNT(*) FROM entries WHERE {' AND '.join(where)}", params).fetchone()[0])

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                             (key, value))

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _move(row: tuple[Any, ...]) -> Move:
    entry_id, from_ledger, to_ledger, reason, note = row
    return Move(entry_id=entry_id, from_ledger=Ledger(from_ledger) if from_ledger else None, to_ledger=Ledger(to_ledger),
                reason=Reason(reason) if reason else None, note=note)
