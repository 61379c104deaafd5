"""Errors the engine raises on bad input. Each names the field and the offending value, and is raised
before anything is written."""

from __future__ import annotations

from typing import Any


class TarlError(ValueError):
    """Bad input to the memory engine; nothing was written."""

    def __init__(self, field: str, value: Any, message: str) -> None:
        self.field, self.value = field, value
        super().__init__(f"{field}={value!r}: {message}")


class InvalidStep(TarlError):
    """A step that the executor cannot apply to the current state."""


class UnknownEntry(TarlError, KeyError):
    """An entry id that does not exist (in this namespace)."""

    __str__ = ValueError.__str__


class IndexUnavailable(TarlError):
    """The derived index cannot serve this store as it is (damaged, owned by another process, or out of
    step with the ledger in a way reconciliation cannot repair). The ledger itself is intact; the
    message names the path and the fix."""
