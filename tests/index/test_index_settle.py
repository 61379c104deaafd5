"""A Chroma server's transient internal error on a read is retried; a lasting one reaches the caller."""

import pytest
from chromadb.errors import InternalError

from shared_core.index import chroma


def test_a_transient_internal_error_is_retried(monkeypatch) -> None:
    monkeypatch.setattr(chroma, "SETTLE_DELAYS", (0.0, 0.0, 0.0))
    calls = []

    def read() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise InternalError("Error creating hnsw segment reader: Nothing found on disk")
        return "rows"

    assert chroma._settled(read) == "rows" and len(calls) == 3


def test_a_lasting_internal_error_reaches_the_caller(monkeypatch) -> None:
    monkeypatch.setattr(chroma, "SETTLE_DELAYS", (0.0, 0.0))

    def read() -> str:
        raise InternalError("still broken")

    with pytest.raises(InternalError, match="still broken"):
        chroma._settled(read)
