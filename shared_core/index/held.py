"""The entries a process has read from its ledger, by id and by slot, kept exactly as the ledger has them.

Why: a write reads its claim's nearest entries by id and its slot's open entries (``MemoryEngine
.candidates``), and at 10k entries those two SELECTs cost ~0.7 ms of a ~4 ms write (each row a 17-column
tuple to fetch and look up), for entries that mostly did not change since the previous write read them.

Why it stays exact: an entry's content is immutable and its ledger changes only by a logged move, and
the cache hears of every move, as the vector cache does (``cache.CachedNeighbours``): the engine folds
the log's tail into both before every read under its lock (``refresh``) and hands them the entries its
own transactions moved, as read after the last step, once COMMIT returned (``committed``; a failed
commit changes nothing here). It is filled only by reads of committed state (the engine reads its
candidates before any step of a unit runs), and what it holds is what the same SELECT would return,
in the same order: a slot's list gains an entry only at its end, where a new entry belongs (its
``created_tx`` is the newest); anything else (two entries of one transaction: their order is the
database's collation of ids) drops the slot's list, read again on its next use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..schema import Entry, Ledger

if TYPE_CHECKING:
    from ..ledgers import LedgerStore

LIMIT = 20_000
"""Entries held at most; past it everything is dropped and read again as needed (bounded memory: at 50k
``tarl bench scale``'s resident memory after its 100k fill was 55 MB above the run without held entries)."""


class HeldEntries:
    """``entries`` and ``slot`` as the store answers them (``slot`` for open entries only), from memory
    once read; ``moved`` takes entries as they now are, ``clear`` forgets everything."""

    def __init__(self, store: LedgerStore) -> None:
        self.store = store
        self._by_id: dict[str, Entry] = {}
        self._slots: dict[tuple[str, str], list[Entry]] = {}

    def entries(self, ids: list[str]) -> list[Entry]:
        """Entries for ``ids``, in the order of ``ids`` (unknown ids are skipped), as ``store.entries``."""
        found = {i: self._by_id[i] for i in ids if i in self._by_id}     # (holding more may drop these)
        missing = [i for i in dict.fromkeys(ids) if i not in found]
        if missing:
            read = self.store.entries(missing)
            self._hold(read)
            found.update((e.id, e) for e in read)
        return [found[i] for i in ids if i in found]

    def held(self, entry_id: str) -> Entry | None:
        """The entry if held, else None (nothing is read)."""
        return self._by_id.get(entry_id)

    def slot(self, namespace: str, slot: str, *, open_only: bool = True) -> list[Entry]:
        """The open entries holding ``slot``, oldest first, as ``store.slot(..., open_only=True)``."""
        if not open_only:
            return self.store.slot(namespace, slot)
        found = self._slots.get((namespace, slot))
        if found is None:
            ids = getattr(self.store, "slot_ids", None)     # held entries are the rows' entries: only ids to read
            found = self.entries(ids(namespace, slot)) if ids is not None else self.store.slot(namespace, slot, open_only=True)
            self._hold(found)
            self._slots[(namespace, slot)] = found
        return list(found)

    def moved(self, entries: Sequence[Entry]) -> None:
        """``entries`` as the ledger has them after a commit (every entry a committed move touched), held
        from now on: a new entry is often the nearest neighbour of the next claims."""
        self._hold(entries)
        for e in entries:
            if e.slot is None or (found := self._slots.get((e.namespace, e.slot))) is None:
                continue
            at = next((k for k, held in enumerate(found) if held.id == e.id), None)
            if e.ledger is Ledger.HISTORY:
                if at is not None:
                    del found[at]
            elif at is not None:
                found[at] = e                       # a Pending entry accepted: same place (order is by creation)
            elif not found or found[-1].created_tx < e.created_tx:
                found.append(e)
            else:
                del self._slots[(e.namespace, e.slot)]

    def clear(self) -> None:
        self._by_id.clear()
        self._slots.clear()

    def _hold(self, entries: Sequence[Entry]) -> None:
        if len(self._by_id) + len(entries) > LIMIT:
            self.clear()
        self._by_id.update((e.id, e) for e in entries)
