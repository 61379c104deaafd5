"""Walking the justification graph (entries and their ``depends_on``) through any state view."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Protocol

from ..schema import Entry


class EntryReader(Protocol):
    def entry(self, entry_id: str) -> Entry | None: ...


def justification_loop(view: EntryReader, premises: Iterable[str], replaces: str | None) -> list[str]:
    """The chain of premises leading from a new claim back to ``replaces``; [] if there is none.

    Breadth-first with a visited set, so it terminates (and is linear) on any stored graph."""
    if replaces is None:
        return []
    parent: dict[str, str | None] = {}
    queue: deque[str] = deque()
    for p in premises:
        if p not in parent:
            parent[p] = None
            queue.append(p)
    while queue:
        node = queue.popleft()
        if node == replaces:
            path = [node]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])  # type: ignore[arg-type]
            return path[::-1]
        entry = view.entry(node)
        for p in entry.depends_on if entry is not None else ():
            if p not in parent:
                parent[p] = node
                queue.append(p)
    return []


def ancestors(view: EntryReader, entry_id: str) -> list[str]:
    """Every entry ``entry_id`` rests on, nearest first."""
    seen: dict[str, None] = {}
    queue = deque([entry_id])
    while queue:
        entry = view.entry(queue.popleft())
        for p in entry.depends_on if entry is not None else ():
            if p not in seen and p != entry_id:
                seen[p] = None
                queue.append(p)
    return list(seen)
