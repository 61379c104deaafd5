"""Chroma-backed index of open entries (Accepted and Pending), derived from the ledger.

The ledger is the source of truth: History rows are removed from the index, and everything here can be
rebuilt with ``reindex``. Vectors are computed by the engine's embedder (once per claim, shared with
grounding) and handed to Chroma, so any embedder fits; the collection name carries the embedder's name
and size, so two embedders never share one vector space. chromadb is imported only when an index opens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..schema import Entry, Ledger
from .embedders import Embedder


def _settings() -> Any:
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=False)


def persistent_client(path: str | Path) -> Any:
    import chromadb

    # absolute: chromadb caches one system per path string, so "./memory" opened again after a chdir
    # would reuse the system of the old directory ("unable to open database file")
    return chromadb.PersistentClient(path=str(Path(path).resolve()), settings=_settings())


def ephemeral_client() -> Any:
    import chromadb

    return chromadb.EphemeralClient(settings=_settings())


def http_client(url: str) -> Any:
    """A Chroma server, e.g. ``http://127.0.0.1:8000``."""
    from urllib.parse import urlparse

    import chromadb

    parsed = urlparse(url)
    if not parsed.hostname:
        raise ValueError(f"chroma_url={url!r}: expected http://host:port")
    return chromadb.HttpClient(
        host=parsed.hostname, port=parsed.port or 8000, ssl=parsed.scheme == "https", settings=_settings()
    )


class EntryIndex:
    """Nearest-neighbour search over open entries, filtered by namespace and ledger."""

    def __init__(self, client: Any, embedder: Embedder, *, prefix: str = "tarl") -> None:
        from .function import chroma_function

        self.client = client
        self.embedder = embedder
        self.collection = client.get_or_create_collection(
            name=f"{prefix}_{embedder.name}_{embedder.dim}",
            embedding_function=chroma_function(embedder),
            metadata={"hnsw:space": "cosine"},
        )

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder(list(texts)), dtype=np.float32)

    def upsert(self, entries: Sequence[Entry], vectors: np.ndarray | None = None) -> None:
        entries = [e for e in entries if e.ledger is not Ledger.HISTORY]
        if not entries:
            return
        if vectors is None:
            vectors = self.embed([e.text for e in entries])
        self.collection.upsert(
            ids=[e.id for e in entries],
            embeddings=np.asarray(vectors, dtype=np.float32),
            documents=[e.text for e in entries],
            metadatas=[_metadata(e) for e in entries],
        )

    def remove(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        if ids:
            self.collection.delete(ids=ids)

    def query(
        self,
        vector: np.ndarray,
        namespace: str,
        k: int,
        ledgers: Sequence[Ledger] = (Ledger.ACCEPTED,),
    ) -> list[tuple[str, float]]:
        """(entry id, cosine similarity) pairs, best first."""
        if k <= 0:
            return []
        where: dict[str, Any] = {"namespace": namespace}
        if len(ledgers) == 1:
            where = {"$and": [where, {"ledger": ledgers[0].value}]}
        else:
            where = {"$and": [where, {"ledger": {"$in": [lg.value for lg in ledgers]}}]}
        res = self.collection.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1), n_results=k, where=where,
            include=["distances"],
        )
        return [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0])]

    def load(self, namespace: str) -> tuple[list[str], np.ndarray, list[Ledger]]:
        """Every open entry of ``namespace`` with its stored vector (warms the in-process cache)."""
        got = self.collection.get(where={"namespace": namespace}, include=["embeddings", "metadatas"])
        if not got["ids"]:
            return [], np.zeros((0, self.embedder.dim), dtype=np.float32), []
        vectors = np.asarray(got["embeddings"], dtype=np.float32)
        return list(got["ids"]), vectors, [Ledger(m["ledger"]) for m in got["metadatas"]]

    def ids(self) -> set[str]:
        out: set[str] = set()
        offset, page = 0, 5000
        while True:
            batch = self.collection.get(include=[], limit=page, offset=offset)["ids"]
            out.update(batch)
            if len(batch) < page:
                return out
            offset += page

    def count(self) -> int:
        return int(self.collection.count())


def _metadata(e: Entry) -> dict[str, Any]:
    meta: dict[str, Any] = {"namespace": e.namespace, "ledger": e.ledger.value, "source": e.source}
    if e.slot:
        meta["slot"] = e.slot
    return meta
