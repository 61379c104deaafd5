"""LangGraph's filter semantics for ``TarlStore.search``: ``InMemoryStore``'s own matcher, plus what its SQL
stores add (a dotted key names a nested field; a comparison that cannot be made is no match)."""

from __future__ import annotations

from typing import Any

# The reference store's own matching rule (a private helper: pinned by the contract tests in tests/langchain/).
from langgraph.store.memory import _compare_values


def matches(value: dict[str, Any], filter: dict[str, Any]) -> bool:
    """LangGraph's filter semantics (InMemoryStore's matcher: ``$eq $ne $gt $gte $lt $lte``, nested objects,
    lists), plus what its SQL stores add: a key ``"a.b"`` that is not itself a field names a nested field, and
    a comparison that cannot be made (``$gt`` on a missing field or a word) is no match rather than an error."""
    try:
        return all(_compare_values(_field(value, f), v) for f, v in filter.items())
    except (TypeError, ValueError):
        return False


def _field(value: Any, path: str) -> Any:
    if not isinstance(value, dict) or path in value or "." not in path:
        return value.get(path) if isinstance(value, dict) else None
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value
