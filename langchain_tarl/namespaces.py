"""LangGraph namespaces (tuples of labels) <-> engine namespaces (strings).

The encoding joins the labels with ``"."``: ``("memories", "u1")`` <-> ``"memories.u1"``. It is
unambiguous because LangGraph itself forbids ``"."`` (and empty labels) inside a label, and it keeps the
engine's namespaces readable in the ``sqlite3`` shell. Any engine namespace decodes, so memories
written directly through :class:`~shared_core.MemoryEngine` (``"alice"`` -> ``("alice",)``) are visible
through the store too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langgraph.store.base import InvalidNamespaceError

SEPARATOR = "."


def to_engine(namespace: Sequence[str]) -> str:
    """``("memories", "u1")`` -> ``"memories.u1"``; refuses what LangGraph refuses, with the bad value."""
    if isinstance(namespace, str) or not isinstance(namespace, Sequence):
        raise InvalidNamespaceError(f"namespace={namespace!r}: expected a tuple of labels, e.g. ('memories', 'u1')")
    if not namespace:
        raise InvalidNamespaceError("namespace=(): must have at least one label")
    for label in namespace:
        if not isinstance(label, str) or not label or SEPARATOR in label or "\x00" in label:
            raise InvalidNamespaceError(
                f"namespace={tuple(namespace)!r}: label {label!r} must be a non-empty string without '.'"
            )
    return SEPARATOR.join(namespace)


def from_engine(name: str) -> tuple[str, ...]:
    return tuple(name.split(SEPARATOR))


def coerce(namespace: str | Sequence[str]) -> str:
    """An engine namespace string as is, or a LangGraph tuple encoded (for the retriever's field)."""
    if isinstance(namespace, str):
        if not namespace.strip():
            raise InvalidNamespaceError(f"namespace={namespace!r}: must be a non-empty string")
        return namespace
    return to_engine(namespace)


def labels(namespace: Any) -> tuple[str, ...]:
    """A namespace given as labels or as a string, as LangGraph's tuple. A string is one namespace in the
    engine's spelling, never a sequence of one-character labels: ``"alice"`` -> ``("alice",)`` (as
    langmem reads a string namespace) and ``"memories.alice"`` -> ``("memories", "alice")`` (as
    :class:`~langchain_tarl.TarlRetriever` reads it). Refuses what LangGraph refuses, naming the value."""
    if isinstance(namespace, str):
        namespace = coerce(namespace).split(SEPARATOR)
    to_engine(namespace)
    return tuple(namespace)
