"""Read models for people looking at a store (the CLI and the dashboard share them).

Pure functions over engine reads: nothing here decides or writes anything.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import TarlError, UnknownEntry
from .executor import MemoryState
from .schema import Entry, Transaction

if TYPE_CHECKING:
    from .engine import MemoryEngine


def entry_history(engine: MemoryEngine, entry_id: str, as_of: int | None = None) -> list[Transaction]:
    """Every transaction that created or moved the entry, and every one decided against it without
    moving it (a ``noop`` restating it, a ``reject_conflict`` it won): its whole story, oldest first."""
    entry = known_entry(engine, entry_id)
    return [t for t in engine.log(entry.namespace) if (as_of is None or t.tx <= as_of)
            and (t.target_id == entry_id or any(m.entry_id == entry_id for m in t.moves))]


def known_entry(engine: MemoryEngine, entry_id: str) -> Entry:
    entry = engine.get(entry_id)
    if entry is None:
        raise UnknownEntry("entry_id", entry_id, "no such entry in this store")
    return entry


def checked_as_of(engine: MemoryEngine, as_of: int | None) -> int | None:
    """``as_of`` if it names a transaction of this store (0 = before the first one)."""
    head = engine.store.head()
    if as_of is not None and not 0 <= as_of <= head:
        raise TarlError("as_of", as_of, f"must be between 0 (before the first transaction) and {head} (the last)")
    return as_of


def checked_namespace(engine: MemoryEngine, namespace: str) -> str:
    known = engine.namespaces()
    if namespace not in known:
        shown = ", ".join(repr(n) for n in known[:10]) + (" ..." if len(known) > 10 else "")
        raise TarlError("namespace", namespace, f"not in this store (it has: {shown or 'none'})")
    return namespace


@dataclass(frozen=True)
class Node:
    """One entry of a dependency tree drawn around an entry, with its children in one direction."""

    entry: Entry
    children: tuple[Node, ...] = ()
    cut: bool = False
    """True where the tree stops (depth limit, or an entry already drawn above: a cycle guard)."""


def rests_on_it(state: MemoryState, entry: Entry, depth: int = 4) -> tuple[Node, ...]:
    """What rests on ``entry`` (its dependents, History included), as it was in ``state``: the other
    half of the DAG around an entry (``Explanation.justification`` is the half it rests on)."""
    return _tree(state, entry, depth, lambda e: state.dependents(e.id, include_history=True), frozenset())


def _tree(state: MemoryState, entry: Entry, depth: int, step: Callable[[Entry], list[Entry]],
          seen: frozenset[str]) -> tuple[Node, ...]:
    out = []
    for child in step(entry):
        if depth <= 1 or child.id in seen | {entry.id}:
            out.append(Node(child, cut=True))
        else:
            out.append(Node(child, _tree(state, child, depth - 1, step, seen | {entry.id})))
    return tuple(out)


def janus_decisions(engine: MemoryEngine) -> list[tuple[int, list[Transaction]]]:
    """The transactions Janus wrote (claims from source ``reflection``), grouped by Janus step, newest
    step first: one group is one accept or reject with its rationale."""
    from .janus.ledger import SOURCE

    steps: dict[int, list[Transaction]] = {}
    for t in engine.log():
        if t.claim is not None and t.claim.source == SOURCE:
            steps.setdefault(int(t.claim.metadata.get("janus_step", -1)), []).append(t)
    return sorted(steps.items(), key=lambda kv: -kv[0])
