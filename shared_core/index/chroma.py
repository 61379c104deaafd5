"""Chroma-backed index of open entries (Accepted and Pending), derived from the ledger.

The ledger is the source of truth: History rows are removed from the index, and everything here can be
rebuilt with ``reindex``. Vectors are computed by the engine's embedder (once per claim, shared with
grounding) and handed to Chroma, so any embedder fits; the collection name carries the embedder's name
and size, so two embedders never share one vector space. chromadb is imported only when an index opens.

A row is an entry's id, vector and filter fields (namespace, ledger, source, slot), not its text: every
read takes the text from the ledger, and a document costs Chroma its full-text index on every upsert
(measured on embedded Chroma 1.5 at 10k rows of width 2048: 1.0-1.1 ms of CPU a row in batches without
documents, 1.4-1.6 ms with them).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ..schema import Entry, Ledger
from .embedders import Embedder
from .vectorfile import VectorFile


CONSTRUCTION_EF = 32
"""HNSW build effort (``hnsw:construction_ef``, Chroma's default 100) of an embedded store's collection. Why
lower: the engine never searches an embedded collection's graph (reads come from the in-process cache and
the vector file; only a Chroma server's collection is queried, ``served.py``), while building it is most
of an upsert's CPU, and the call holds the interpreter lock throughout, stalling the writing thread.
Measured on embedded Chroma 1.5.9, 10k rows of width 2048, batches of 128-512 rows: 0.65-0.72 ms of CPU a
row against 1.34-1.43 at 100; recall@10 of the graph 0.956 against 0.994 (200 held-out queries, exact
cosine as truth). ``hnsw:sync_threshold`` stays at its default: raised to 100,000 an upsert of one row
cost 145 ms instead of 7.6 (the graph is saved every that many records; why skipping saves costs more is
not clear from Chroma's source); ``hnsw:batch_size`` is read by nothing in the local HNSW writer of
Chroma's source (measured: no change)."""

REQUEST_BYTES = 8_000_000
"""Rows per request to a Chroma server are capped so that one request stays under this many bytes of JSON
(about 12 bytes a float): the server refuses large bodies ("413 Payload too large": 4,000 rows of width
2,048 were refused, 2,000 accepted), and larger requests are no cheaper per row (500 rows: 1 ms a row)."""


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
    """Nearest-neighbour search over open entries, filtered by namespace and ledger.

    ``store_id`` (kept in the ledger) is part of the collection name, so stores sharing one Chroma
    server never share, or delete, each other's rows. ``where`` names the index for error messages;
    ``served``: the client is a Chroma server's, so the engine reads from it (``served.py``)."""

    file: VectorFile | None = None
    """An embedded store's vector file (``vectorfile``): the cache loads from it, the writer appends to it."""
    created: bool = False
    """The collection did not exist before this open: whatever the ledger's watermark says, it holds nothing."""

    def __init__(self, client: Any, embedder: Embedder, *, store_id: str, where: str = "chroma",
                 served: bool = False) -> None:
        from .function import chroma_function

        self.client = client
        self.embedder = embedder
        self.where = where
        self.served = served
        self.name = f"tarl_{store_id}_{embedder.name}_{embedder.dim}"[:512]
        from chromadb.errors import NotFoundError

        try:
            self.collection = client.get_collection(name=self.name, embedding_function=chroma_function(embedder))
        except NotFoundError:
            metadata: dict[str, Any] = {"hnsw:space": "cosine"}
            if not served:
                metadata["hnsw:construction_ef"] = CONSTRUCTION_EF
            self.collection = client.get_or_create_collection(
                name=self.name, embedding_function=chroma_function(embedder), metadata=metadata,
            )
            self.created = True
        self.batch = int(client.get_max_batch_size())
        # rows carrying vectors per request: a server also has a byte limit (4,000 rows of 2,048 floats were
        # refused); embedded Chroma costs the same per row from a few hundred rows on, and a smaller call
        # holds the interpreter lock for less
        self.rows = min(self.batch, max(1, REQUEST_BYTES // (12 * embedder.dim + 1024)))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.embedder(list(texts)), dtype=np.float32)

    def write(self, entries: Sequence[Entry], vectors: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Make the index show ``entries`` as they are: History rows removed, open rows upserted (with
        the vectors given, else embedded), in batches no larger than the client allows. Returns the
        vectors of the open rows written."""
        self.remove(e.id for e in entries if e.ledger is Ledger.HISTORY)
        live = [e for e in entries if e.ledger is not Ledger.HISTORY]
        written: dict[str, np.ndarray] = {}
        for i in range(0, len(live), self.rows):
            chunk = live[i:i + self.rows]
            missing = [e for e in chunk if e.id not in vectors]
            fresh = dict(zip((e.id for e in missing), self.embed([e.text for e in missing]))) if missing else {}
            rows = np.stack([vectors[e.id] if e.id in vectors else fresh[e.id] for e in chunk])
            self.upsert(chunk, rows)
            written.update(zip((e.id for e in chunk), rows))
        return written

    def vectors_of(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """The stored vectors of ``ids`` (those the index holds), read in pages."""
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(ids), self.rows):
            got = _settled(lambda: self.collection.get(ids=list(ids[i:i + self.rows]), include=["embeddings"]))
            out.update(zip(got["ids"], np.asarray(got["embeddings"], dtype=np.float32)))
        return out

    def upsert(self, entries: Sequence[Entry], vectors: np.ndarray | None = None) -> None:
        entries = [e for e in entries if e.ledger is not Ledger.HISTORY]
        if vectors is None and entries:
            vectors = self.embed([e.text for e in entries])
        for i in range(0, len(entries), self.rows):
            chunk = entries[i:i + self.rows]
            self.collection.upsert(
                ids=[e.id for e in chunk],
                embeddings=np.asarray(vectors[i:i + self.rows], dtype=np.float32),  # type: ignore[index]
                metadatas=[_metadata(e) for e in chunk],
            )

    def remove(self, ids: Iterable[str]) -> None:
        ids = list(ids)
        for i in range(0, len(ids), self.batch):
            self.collection.delete(ids=ids[i:i + self.batch])

    def states(self) -> dict[str, Ledger]:
        """Every indexed id with the ledger its row says (for reconciliation against the ledger)."""
        out: dict[str, Ledger] = {}
        offset = 0
        while True:
            got = self.collection.get(include=["metadatas"], limit=self.batch, offset=offset)
            out.update((i, Ledger(m["ledger"])) for i, m in zip(got["ids"], got["metadatas"]))
            if len(got["ids"]) < self.batch:
                return out
            offset += self.batch

    def drop(self) -> None:
        """Delete this store's collection (a private in-memory store at close, or before a rebuild)."""
        self.client.delete_collection(self.name)

    def close(self) -> None:
        self.client.close()

    def query(
        self,
        vector: np.ndarray,
        namespace: str | None,
        k: int,
        ledgers: Sequence[Ledger] | None = (Ledger.ACCEPTED,),
    ) -> list[tuple[str, float]]:
        """(entry id, cosine similarity) pairs, best first. ``namespace`` / ``ledgers`` None: not filtered
        by it (on a server a filtered query costs 20-60x an unfiltered one: measured at 10k rows, 78-208 ms
        against 3.4 ms; the caller then filters through the ledger)."""
        if k <= 0:
            return []
        terms: list[dict[str, Any]] = [{"namespace": namespace}] if namespace is not None else []
        if ledgers is not None:
            terms.append({"ledger": ledgers[0].value} if len(ledgers) == 1 else
                         {"ledger": {"$in": [lg.value for lg in ledgers]}})
        where = None if not terms else terms[0] if len(terms) == 1 else {"$and": terms}
        res = _settled(lambda: self.collection.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1), n_results=k, where=where,
            include=["distances"],
        ))
        return [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0])]

    def load(self, namespace: str) -> tuple[list[str], np.ndarray, list[Ledger]]:
        """Every open entry of ``namespace`` with its stored vector (warms the in-process cache), read in
        pages: one unbounded get of 100k rows fails inside Chroma ("too many SQL variables")."""
        ids: list[str] = []
        vectors: list[np.ndarray] = []
        ledgers: list[Ledger] = []
        offset = 0
        while True:
            got = _settled(lambda: self.collection.get(where={"namespace": namespace}, limit=self.rows,
                                                       include=["embeddings", "metadatas"], offset=offset))
            ids += got["ids"]
            if got["ids"]:
                vectors.append(np.asarray(got["embeddings"], dtype=np.float32))
            ledgers += [Ledger(m["ledger"]) for m in got["metadatas"]]
            if len(got["ids"]) < self.rows:
                break
            offset += self.rows
        if not ids:
            return [], np.zeros((0, self.embedder.dim), dtype=np.float32), []
        return ids, np.concatenate(vectors), ledgers

    def ids(self) -> set[str]:
        return set(self.states())

    def count(self) -> int:
        return int(self.collection.count())


_R = TypeVar("_R")
SETTLE_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.6)


def _settled(read: Callable[[], _R]) -> _R:
    """A Chroma server answers a read of a segment that another client is just flushing with an internal
    error ("Error creating hnsw segment reader: Nothing found on disk"); the same read succeeds a moment
    later, so it is retried a few times before the error reaches the caller."""
    from chromadb.errors import InternalError

    for delay in SETTLE_DELAYS:
        try:
            return read()
        except InternalError:
            time.sleep(delay)
    return read()


def _metadata(e: Entry) -> dict[str, Any]:
    meta: dict[str, Any] = {"namespace": e.namespace, "ledger": e.ledger.value, "source": e.source}
    if e.slot:
        meta["slot"] = e.slot
    return meta
