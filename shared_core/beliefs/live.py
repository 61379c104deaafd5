"""One namespace's belief state and aliases, kept current from the ledger between tool calls.

Reading a whole namespace costs about 40 us per entry (rows to ``Entry`` models), so a tool that read
it before and after each write missed the 5 ms round-trip target on a 60-hypothesis project. Here the
state is read once, then brought up to date from the moves committed since (``moves_since`` on the
transaction key, and the moved entries by id), the way the engine keeps its vector cache. Those
moves are also what a call's reply reports as its consequences. Correct under other processes'
writes: whatever they commit shows up as moves after our last-seen transaction, and an entry is
always taken as its current row, so re-reading one twice is harmless.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..executor import MemoryState
from ..schema import Entry, Move, Transaction
from .aliases import Aliases

if TYPE_CHECKING:
    from ..engine import MemoryEngine


class LiveView:
    def __init__(self, engine: MemoryEngine, namespace: str) -> None:
        self.engine, self.namespace = engine, namespace
        self.head = engine.store.head()                # read first: a later commit is re-read, never lost
        self.state: MemoryState = engine.state(namespace)
        self.aliases = Aliases(self.state.entries.values())

    def refresh(self) -> list[Move]:
        """Fold in what was committed since the last look; returns this namespace's new moves, in order."""
        store = self.engine.store
        head = store.head()
        if head == self.head:
            return []
        rows = store.moves_since(self.head)
        ids = list(dict.fromkeys(m.entry_id for _, m in rows))
        current = [e for e in store.entries(ids) if e.namespace == self.namespace]
        for e in current:
            self.state.entries[e.id] = e
        self.aliases.add(current)
        self.head = max([head, *(tx for tx, _ in rows)])
        self.state.tx = self.head
        mine = {e.id for e in current}
        return [m for _, m in rows if m.entry_id in mine]

    def absorb(self, done: Transaction | Entry) -> list[Move] | None:
        """Take in our own write without reading the store: a transaction, or an entry created with no
        consequences (an experiment). Exact only if nothing else committed since our last look (its
        number is the next one); else None, and the caller refreshes. Saves the reads right after a
        write, which wait on the engine's write-behind thread."""
        tx = done.tx if isinstance(done, Transaction) else done.created_tx
        if tx != self.head + 1:
            return None
        if isinstance(done, Transaction):
            self.state.apply(done)
            moves = list(done.moves)
        else:
            self.state.entries[done.id] = done
            moves = [Move(entry_id=done.id, from_ledger=None, to_ledger=done.ledger, reason=done.reason, note=done.note)]
        self.aliases.add([self.state.entries[m.entry_id] for m in moves])
        self.head = self.state.tx = tx
        return moves
