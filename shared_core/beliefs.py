"""Memory that forgets: when a premise leaves Accepted, what rested on it leaves too, in the same
transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .schema import Ledger, Move, Reason

if TYPE_CHECKING:
    from .executor import StateView


def cascade(view: StateView, moves: list[Move]) -> list[Move]:
    """Moves that take every transitive dependent of an entry leaving Accepted back to Pending.

    Pending (not History) is the default because the dependent may still be true for other reasons:
    it waits for re-verification instead of being thrown away.
    """
    moved = {m.entry_id for m in moves}
    frontier = [m.entry_id for m in moves if m.from_ledger is Ledger.ACCEPTED and m.to_ledger is not Ledger.ACCEPTED]
    out: list[Move] = []
    while frontier:
        premise = frontier.pop()
        for dep in view.dependents(premise):
            if dep.id in moved or dep.ledger is not Ledger.ACCEPTED:
                continue
            moved.add(dep.id)
            out.append(Move(entry_id=dep.id, from_ledger=Ledger.ACCEPTED, to_ledger=Ledger.PENDING,
                            reason=Reason.PREMISE_RETRACTED, note=f"premise {premise} left accepted"))
            frontier.append(dep.id)
    return out
