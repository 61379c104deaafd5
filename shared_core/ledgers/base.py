"""The ledger store contract. The engine talks only to this, so a PostgreSQL backend slots in beside
SQLite without the engine changing."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Protocol

from ..executor import MemoryState
from ..schema import Entry, Ledger, Move, Transaction


class LedgerWriter(Protocol):
    """Open while one write lock is held: reads see this writer's own uncommitted transactions."""

    def entry(self, entry_id: str) -> Entry | None: ...

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]: ...

    def by_slot(self, namespace: str, slot: str) -> list[Entry]:
        """Open (Accepted or Pending) entries holding ``slot``."""
        ...

    def next_tx(self) -> int:
        """The number the next recorded transaction takes (the first call may wait for other writers:
        transaction numbers commit in order)."""
        ...

    def head(self) -> int:
        """The newest transaction this writer can see, its own included; never waits for a number."""
        ...

    def record(self, transaction: Transaction) -> None: ...


class LedgerStore(Protocol):
    def writer(self, namespace: str | None = None) -> AbstractContextManager[LedgerWriter]:
        """One memory transaction (or an atomic batch of them): all or nothing. ``namespace``: every step
        writes only there, so writers of other namespaces may decide meanwhile (PostgreSQL); None: the
        whole store is held."""
        ...

    def entry(self, entry_id: str) -> Entry | None: ...

    def entries(self, ids: list[str]) -> list[Entry]: ...

    def ledger(self, namespace: str, ledger: Ledger, *, limit: int | None = None) -> list[Entry]: ...

    def slot(self, namespace: str, slot: str, *, open_only: bool = False) -> list[Entry]:
        """Every entry ever written under ``slot``, any ledger, oldest first; ``open_only``: Accepted and
        Pending only (a write's candidates: a slot's History grows without bound)."""
        ...

    def open_ids(self, namespace: str | None = None) -> list[tuple[str, Ledger]]:
        """(id, ledger) of every open (Accepted or Pending) entry, of ``namespace`` or all, oldest first:
        what derived state must hold, read without building 100k entries."""
        ...

    def count(self, namespace: str | None = None, ledger: Ledger | None = None) -> int: ...

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState: ...

    def log(self, namespace: str | None = None, *, after: int = 0, upto: int | None = None) -> Iterator[Transaction]: ...

    def moves_since(self, tx: int) -> list[tuple[int, Move]]: ...

    def touching(self, entry_id: str) -> list[int]:
        """The transactions that created or moved ``entry_id``, oldest first."""
        ...

    def namespaces(self) -> list[str]: ...

    def head(self) -> int:
        """The newest transaction number (0 for an empty store)."""
        ...

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def setdefault_meta(self, key: str, value: str) -> str: ...

    def upkeep_lock(self) -> AbstractContextManager[None]:
        """Serialises upkeep of derived state (an index catch-up: read the ledger's current state, write
        the index, move the watermark) across every thread and process sharing this store; without it a
        slow catch-up can undo a newer one (an entry re-marked Accepted after it was closed)."""
        ...

    def close(self) -> None: ...
