"""What every SQL ledger store shares: the plain tables, the queries, the writer, the log.

The schema (tables ``transactions``, ``entries``, ``premises``, ``moves``, ``meta``) and the triggers
that make the log append-only and entry content immutable are per dialect (``sqlite.py``,
``postgres.py``); everything that reads or records is written once here, in SQL both dialects accept
(``?`` placeholders; a backend translates them). A backend supplies ``_rows`` (run one statement on a
connection) and ``writer`` (one transaction under the store's write lock).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import lru_cache
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

from ..executor import MemoryState
from ..schema import Action, Claim, Decision, Entry, Ledger, Move, Reason, Transaction

_ENTRY_COLUMNS = (
    "id, namespace, text, source, confidence, observed_at, valid_from, valid_to, slot, metadata, "
    "depends_on, target_id, ledger, reason, note, created_tx, closed_tx"
)


IDS_PER_QUERY = 10_000
"""Ids bound into one ``IN (...)`` list: SQLite allows 32,766 parameters, PostgreSQL 65,535, and an index
catch-up or rebuild asks for every entry moved since its watermark (100k and more)."""


_ORDER = "created_tx, id"
_SLOT = "namespace = ? AND slot = ?"
_OPEN_SLOT = _SLOT + " AND ledger != 'history'"


def _ts(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


@lru_cache(maxsize=8192)
def _entry(row: tuple[Any, ...]) -> Entry:
    """The entry a row holds; cached by the row itself: an entry is immutable (frozen; a move changes
    the row, hence the key), and a write reads the same slot's and neighbours' rows again and again,
    where validating each one costs ~15 us."""
    (id_, ns, text, source, conf, observed, vfrom, vto, slot, meta, deps, target, ledger, reason, note,
     created, closed) = row
    return Entry(
        id=id_, namespace=ns, text=text, source=source, confidence=conf, observed_at=observed,
        valid_from=vfrom, valid_to=vto, slot=slot, metadata=json.loads(meta), depends_on=tuple(json.loads(deps)),
        target_id=target, ledger=Ledger(ledger), reason=Reason(reason) if reason else None, note=note,
        created_tx=created, closed_tx=closed,
    )


class _Writer:
    """Reads and writes inside one open transaction that holds the store's write lock, through the
    writer's own connection: it sees its own uncommitted transactions, whatever the backend.

    ``entry`` is read once between two records: the executor reads a revision's target three times (the
    step's target, its premises' loop check, its consequences), and nothing else changes it under this
    lock until ``record`` writes (which forgets every read).

    ``known``: entries exactly as the log's head at the unit's start has them (the engine's held entries,
    refreshed under this lock), asked first for an entry no record of this unit moved: a write's target is
    one of the candidates its decision read, and reading it again cost a SELECT and a row to parse."""

    known: Callable[[str], Entry | None] | None = None

    def __init__(self, store: SQLLedgerStore, con: Any) -> None:
        self._store = store
        self._con = con
        self._next: int | None = None
        self._read: dict[str, Entry | None] = {}
        self._moved: set[str] = set()

    def _exec(self, sql: str, params: tuple[Any, ...]) -> None:
        self._store._rows(sql, params, self._con, fetch=False)

    def entry(self, entry_id: str) -> Entry | None:
        if entry_id not in self._read:
            held = self.known(entry_id) if self.known is not None and entry_id not in self._moved else None
            self._read[entry_id] = held if held is not None else self._store._one(entry_id, self._con)
        return self._read[entry_id]

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]:
        where = "id IN (SELECT entry_id FROM premises WHERE premise_id = ?)"
        return self._store._select(where if include_history else where + " AND ledger != 'history'", (entry_id,),
                                   con=self._con)

    def by_slot(self, namespace: str, slot: str) -> list[Entry]:
        return self._store._select(_OPEN_SLOT, (namespace, slot), con=self._con)

    def next_tx(self) -> int:
        if self._next is None:
            self._next = self._last() + 1
        return self._next

    def head(self) -> int:
        return self._next - 1 if self._next is not None else self._last()

    def _last(self) -> int:
        return int(self._store._rows("SELECT COALESCE(MAX(tx), 0) FROM transactions", (), self._con)[0][0])

    def record(self, t: Transaction) -> None:
        if t.tx != self.next_tx():
            raise RuntimeError(f"transaction {t.tx} recorded out of order (expected {self.next_tx()})")
        read, self._read = self._read, {}
        self._moved.update(m.entry_id for m in t.moves)
        self._exec(
            "INSERT INTO transactions (tx, namespace, action, at, target_id, claim, decision) VALUES (?,?,?,?,?,?,?)",
            (t.tx, t.namespace, t.action.value, _ts(t.at), t.target_id,
             t.claim.model_dump_json() if t.claim else None, t.decision.model_dump_json() if t.decision else None),
        )
        for e in t.created:
            row = (e.id, e.namespace, e.text, e.source, e.confidence, _ts(e.observed_at), _ts(e.valid_from),
                   _ts(e.valid_to), e.slot, json.dumps(e.metadata, default=str), json.dumps(list(e.depends_on)),
                   e.target_id, e.ledger.value, e.reason.value if e.reason else None, e.note, e.created_tx, e.closed_tx)
            self._exec(f"INSERT INTO entries ({_ENTRY_COLUMNS}) VALUES ({','.join('?' * 17)})", row)
            read[e.id] = _entry(row)        # what a SELECT of the row parses to: the same function on the same values
            for p in e.depends_on:
                self._exec("INSERT INTO premises (entry_id, premise_id) VALUES (?, ?)", (e.id, p))
        for seq, m in enumerate(t.moves):
            self._exec(
                "INSERT INTO moves (tx, seq, entry_id, from_ledger, to_ledger, reason, note) VALUES (?,?,?,?,?,?,?)",
                (t.tx, seq, m.entry_id, m.from_ledger.value if m.from_ledger else None, m.to_ledger.value,
                 m.reason.value if m.reason else None, m.note),
            )
            if m.from_ledger is not None:
                self._exec(
                    "UPDATE entries SET ledger = ?, reason = ?, note = ?, closed_tx = ? WHERE id = ?",
                    (m.to_ledger.value, m.reason.value if m.reason else None, m.note,
                     t.tx if m.to_ledger is Ledger.HISTORY else None, m.entry_id),
                )
                if (before := read.get(m.entry_id)) is not None:      # the UPDATE's four columns, as Entry.moved sets them
                    read[m.entry_id] = before.moved(m.to_ledger, t.tx, m.reason, m.note)
        # Entries this unit recorded, as the rows now hold them (read, or inserted above): the engine reads every
        # moved entry back after its steps (~1.8 SELECTs a write); any other read of this unit is forgotten.
        self._read = {i: read[i] for i in dict.fromkeys(m.entry_id for m in t.moves) if read.get(i) is not None}
        self._next = t.tx + 1


class SQLLedgerStore:
    """Reads and records shared by the SQL backends (see the module docstring)."""

    def _rows(self, sql: str, params: tuple[Any, ...] = (), con: Any = None, *, fetch: bool = True) -> list[Any]:
        raise NotImplementedError

    def writer(self, namespace: str | None = None) -> AbstractContextManager[_Writer]:
        raise NotImplementedError

    # -- reads (committed state; a writer reads through its own connection) --------------------------------------------------------------------------------
    def _select(self, where: str, params: tuple[Any, ...] = (), order: str = _ORDER,
                con: Any = None) -> list[Entry]:
        rows = self._rows(f"SELECT {_ENTRY_COLUMNS} FROM entries WHERE {where} ORDER BY {order}", params, con)
        return [_entry(r) for r in rows]

    def _one(self, entry_id: str, con: Any = None) -> Entry | None:
        found = self._select("id = ?", (entry_id,), con=con)
        return found[0] if found else None

    def entry(self, entry_id: str) -> Entry | None:
        return self._one(entry_id)

    def entries(self, ids: list[str]) -> list[Entry]:
        """Entries for ``ids``, in the order of ``ids`` (unknown ids are skipped)."""
        found: dict[str, Entry] = {}
        for k in range(0, len(ids), IDS_PER_QUERY):
            part = ids[k:k + IDS_PER_QUERY]
            found.update((e.id, e) for e in self._select(f"id IN ({','.join('?' * len(part))})", tuple(part)))
        return [found[i] for i in ids if i in found]

    def slot(self, namespace: str, slot: str, *, open_only: bool = False) -> list[Entry]:
        return self._select(_OPEN_SLOT if open_only else _SLOT, (namespace, slot))

    def slot_ids(self, namespace: str, slot: str) -> list[str]:
        """The ids of ``slot(namespace, slot, open_only=True)``, in its order: for a reader that holds the
        entries already (``index.held``), where parsing ~80 rows of 17 columns into entries cost ~1 ms."""
        return [r[0] for r in self._rows(f"SELECT id FROM entries WHERE {_OPEN_SLOT} ORDER BY {_ORDER}", (namespace, slot))]

    def ledger(self, namespace: str, ledger: Ledger, *, limit: int | None = None) -> list[Entry]:
        order = _ORDER + (f" LIMIT {int(limit)}" if limit is not None else "")
        return self._select("namespace = ? AND ledger = ?", (namespace, ledger.value), order)

    def open_ids(self, namespace: str | None = None) -> list[tuple[str, Ledger]]:
        where, params = ("ledger != 'history'", ()) if namespace is None else \
            ("namespace = ? AND ledger != 'history'", (namespace,))
        rows = self._rows(f"SELECT id, ledger FROM entries WHERE {where} ORDER BY created_tx, id", params)
        ledgers = {lg.value: lg for lg in Ledger}
        return [(i, ledgers[lg]) for i, lg in rows]

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState:
        if as_of is None:
            return MemoryState(namespace, self._select("namespace = ?", (namespace,)))
        entries = self._select("namespace = ? AND created_tx <= ?", (namespace, as_of))
        rows = self._rows(
            """SELECT m.entry_id, m.tx, m.to_ledger, m.reason, m.note FROM moves m
               JOIN entries e ON e.id = m.entry_id
               WHERE e.namespace = ? AND m.tx <= ? ORDER BY m.tx, m.seq""",
            (namespace, as_of),
        )
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
        txs = self._rows(
            f"SELECT tx, namespace, action, at, target_id, claim, decision FROM transactions WHERE {where} ORDER BY tx",
            tuple(params),
        )
        for tx, ns, action, at, target, claim, decision in txs:
            created = self._select("created_tx = ?", (tx,))
            move_rows = self._rows("SELECT entry_id, from_ledger, to_ledger, reason, note FROM moves WHERE tx = ? ORDER BY seq",
                                   (tx,))
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
        return [int(r[0]) for r in self._rows("SELECT DISTINCT tx FROM moves WHERE entry_id = ? ORDER BY tx", (entry_id,))]

    def moves_since(self, tx: int) -> list[tuple[int, Move]]:
        rows = self._rows("SELECT tx, entry_id, from_ledger, to_ledger, reason, note FROM moves WHERE tx > ? ORDER BY tx, seq",
                          (tx,))
        return [(r[0], _move(r[1:])) for r in rows]

    def namespaces(self) -> list[str]:
        return [r[0] for r in self._rows("SELECT DISTINCT namespace FROM entries ORDER BY namespace")]

    def head(self) -> int:
        return int(self._rows("SELECT COALESCE(MAX(tx), 0) FROM transactions")[0][0])

    def count(self, namespace: str | None = None, ledger: Ledger | None = None) -> int:
        where, params = ["1 = 1"], []
        if namespace is not None:
            where.append("namespace = ?")
            params.append(namespace)
        if ledger is not None:
            where.append("ledger = ?")
            params.append(ledger.value)
        return int(self._rows(f"SELECT COUNT(*) FROM entries WHERE {' AND '.join(where)}", tuple(params))[0][0])

    def get_meta(self, key: str) -> str | None:
        rows = self._rows("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def setdefault_meta(self, key: str, value: str) -> str:
        """The value of ``key``, set to ``value`` first if absent (atomic: two processes creating one
        store agree on its identity)."""
        self._rows("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO NOTHING", (key, value), fetch=False)
        found = self.get_meta(key)
        assert found is not None
        return found

    def set_meta(self, key: str, value: str) -> None:
        self._rows("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                   (key, value), fetch=False)


def _move(row: tuple[Any, ...]) -> Move:
    entry_id, from_ledger, to_ledger, reason, note = row
    return Move(entry_id=entry_id, from_ledger=Ledger(from_ledger) if from_ledger else None, to_ledger=Ledger(to_ledger),
                reason=Reason(reason) if reason else None, note=note)
