"""What a store location means, and opening its two halves honestly: the ledger (the source of truth)
and the index derived from it.

``None``: a private in-memory ledger and index (the collection is dropped at close). A directory:
``ledger.db`` (SQLite) and ``chroma/`` (embedded Chroma, owned by one process; see ``index.locks``). A
``postgresql://`` URL: a PostgreSQL ledger, whose index must be a Chroma server (``chroma_url``), as must
that of any store several processes share. Every store has an id in its ledger, part of its collection
name, so stores on one Chroma server never share or delete each other's rows. Failures name the path
and the fix; a missing ledger beside an index is never answered by wiping the index.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import IndexUnavailable, TarlError
from .index import Embedder, locks
from .index.vectorfile import VectorFile
from .ledgers import LedgerStore, PostgresLedgerStore, SQLiteLedgerStore

STORE_ID = "store_id"
"""Ledger meta key: this store's identity, part of its Chroma collection name."""


@dataclass
class Opened:
    store: LedgerStore
    index: Any
    where: str
    fix: str
    closers: list[Callable[[], None]] = field(default_factory=list)
    """Run in order at close, after the index writer drained (the store is closed last, by the engine)."""

    def failed(self, exc: BaseException) -> BaseException:
        """Release what was opened; the error to raise: a Chroma failure reading an embedded index
        becomes ``IndexUnavailable`` naming its path and the fix, anything else stays as it is."""
        for close in self.closers:
            try:
                close()
            except Exception:  # noqa: BLE001 - the original failure is the one to report
                pass
        self.store.close()
        return explain(exc, self.where, self.fix)


def explain(exc: BaseException, where: str, fix: str) -> BaseException:
    if isinstance(exc, TarlError) or not isinstance(exc, Exception) or not fix or not _from_chroma(exc):
        return exc
    return IndexUnavailable("path", where, f"the Chroma index cannot be read ({type(exc).__name__}: {exc}); "
                                           f"the ledger is intact: rebuild the index from it with {fix}")


def _from_chroma(exc: BaseException | None) -> bool:
    """Raised inside chromadb (its errors are not all ChromaError: a damaged file surfaces as
    ValueError or AttributeError from its bindings), here or in an error it chained."""
    seen = 0
    while exc is not None and seen < 8:
        tb = exc.__traceback__
        while tb is not None:
            if f"{os.sep}chromadb{os.sep}" in tb.tb_frame.f_code.co_filename:
                return True
            tb = tb.tb_next
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def open_store(path: str | Path | None, embedder: Embedder, chroma_url: str | None, reindex: bool) -> Opened:
    """The ledger store and index for ``path`` (see the module docstring); ``reindex``: start the index
    afresh (an embedded ``chroma/`` is moved aside, never deleted; a server collection is dropped)."""
    from .index import chroma

    url = str(path) if str(path).startswith(("postgresql://", "postgres://")) else None
    if url is not None and not chroma_url:
        raise TarlError("chroma_url", chroma_url, "a PostgreSQL ledger is shared, so its index must be too: "
                        "pass the URL of a Chroma server (`chroma run`)")
    root = Path(path) if path is not None and url is None and str(path) != ":memory:" else None   # SQLite's own name
    # for a private in-memory database, as LangGraph's SqliteStore.from_conn_string(":memory:") takes it: no directory
    if root is not None and (root / "chroma").exists() and not (root / "ledger.db").exists():
        raise IndexUnavailable("path", str(root / "ledger.db"), "is missing beside an existing index (chroma/): "
                               "the ledger is the source of truth and an index is never wiped to match a missing "
                               "one; restore ledger.db, or move chroma/ away to start an empty store")
    store: LedgerStore = PostgresLedgerStore(url) if url else \
        SQLiteLedgerStore(root / "ledger.db" if root is not None else ":memory:")
    embedded = root is not None and not chroma_url
    opened = Opened(store, None, chroma_url or str(root / "chroma" if root is not None else "memory"),
                    f"`tarl reindex {root}` (MemoryEngine.open(path, reindex=True))" if embedded else "")
    try:
        store_id = store.setdefault_meta(STORE_ID, uuid.uuid4().hex[:12])
        if chroma_url:
            client = chroma.http_client(chroma_url)
        elif root is None:
            client = chroma.ephemeral_client()
        else:
            owner = locks.own(root / "chroma")
            opened.closers.append(lambda: locks.release(owner))
            if reindex:
                _move_aside(root / "chroma")
            client = chroma.persistent_client(root / "chroma")
        served = bool(chroma_url)
        opened.index = chroma.EntryIndex(client, embedder, store_id=store_id, where=opened.where, served=served)
        if embedded:
            opened.index.file = VectorFile(root / "vectors" / f"{opened.index.name}.tvf", embedder.dim)
            if reindex:
                opened.index.file.clear()
        if reindex and chroma_url:
            opened.index.drop()
            opened.index = chroma.EntryIndex(client, embedder, store_id=store_id, where=opened.where, served=served)
    except BaseException as exc:
        error = opened.failed(exc)
        if error is exc:
            raise
        raise error from exc
    index = opened.index                                  # a private store leaves no collection behind:
    opened.closers = ([index.drop] if path is None else []) + [index.close] + opened.closers   # then the owner lock
    return opened


def _move_aside(path: Path) -> None:
    """Keep a damaged index for inspection instead of deleting it (the user removes it when satisfied)."""
    if path.exists():
        shutil.move(str(path), str(path.with_name(f"{path.name}.replaced-{uuid.uuid4().hex[:8]}")))
