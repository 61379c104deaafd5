"""Document frequencies of a namespace's open entries, shared through the ledger: what search's query
weighting (``QueryIDF``) needs when no process holds the namespace's vectors (a store on a Chroma server).

Derived from the log alone: every move changes whether one entry is open (Accepted or Pending), so the
frequencies after transaction T are those of a snapshot taken after S plus the moves in (S, T], each
moved entry's text embedded again (embedders are deterministic). A process folds forward from the
newest snapshot kept in the ledger's meta table and, after folding many moves, leaves a newer one, so a
fresh process starts near the head instead of embedding the whole namespace. A snapshot is exact for
its own transaction, so processes writing snapshots concurrently can waste work but never corrupt one,
and any two processes at the same head weigh a query identically.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..schema import Ledger, Move
from .embedders import QueryIDF

if TYPE_CHECKING:
    from ..ledgers import LedgerStore

SNAPSHOT_AFTER = 512
"""Moves folded into a namespace's frequencies before this process leaves a new snapshot (one small
meta write: the non-zero frequencies as JSON)."""
CHUNK = 2048
"""Texts embedded at once while folding (a whole 100k namespace at once would hold 800 MB of rows)."""

_OPEN = (Ledger.ACCEPTED, Ledger.PENDING)


@dataclass
class _Folded:
    tx: int
    idf: QueryIDF
    unsaved: int = 0


class SharedTerms:
    """Per-namespace ``QueryIDF`` as of the ledger's head. ``space``: the embedder's vector space
    (name and width), part of the snapshot's key, as in the collection name."""

    def __init__(self, store: LedgerStore, embed: Callable[[list[str]], np.ndarray], dim: int, space: str) -> None:
        self.store = store
        self._embed, self.dim, self.space = embed, dim, space
        self._spaces: dict[str, _Folded] = {}
        self._lock = threading.Lock()

    def key(self, namespace: str) -> str:
        return f"terms:{self.space}:{namespace}"

    def current(self, namespace: str, *, save: bool = False) -> QueryIDF:
        """The namespace's frequencies after the newest committed transaction; ``save``: leave a
        snapshot of them now if any move was folded since the last one."""
        with self._lock:
            folded = self._spaces.get(namespace) or self._load(namespace)
            self._spaces[namespace] = folded
            fresh = self.store.moves_since(folded.tx)
            if fresh:
                folded.unsaved += self._fold(folded.idf, namespace, fresh)
                folded.tx = max(tx for tx, _ in fresh)
            if folded.unsaved >= SNAPSHOT_AFTER or (save and folded.unsaved):
                self._save(namespace, folded)
            return folded.idf

    def clear(self) -> None:
        with self._lock:
            self._spaces.clear()

    def _load(self, namespace: str) -> _Folded:
        raw = self.store.get_meta(self.key(namespace))
        idf = QueryIDF(self.dim)
        if raw is None:
            return _Folded(0, idf)
        snap = json.loads(raw)
        idf.n_docs = int(snap["n"])
        for slot, count in snap["df"].items():
            idf.doc_freq[int(slot)] = int(count)
        return _Folded(int(snap["tx"]), idf)

    def _save(self, namespace: str, folded: _Folded) -> None:
        df = {str(i): int(folded.idf.doc_freq[i]) for i in np.flatnonzero(folded.idf.doc_freq)}
        self.store.set_meta(self.key(namespace), json.dumps({"tx": folded.tx, "n": folded.idf.n_docs, "df": df}))
        folded.unsaved = 0

    def _fold(self, idf: QueryIDF, namespace: str, moves: Sequence[tuple[int, Move]]) -> int:
        """Apply ``moves`` (oldest first) to ``idf``: each entry's net change of openness (+1, 0, -1)
        adds or removes its vector's slots. Returns how many moves of this namespace were folded."""
        net: dict[str, int] = {}
        for _, m in moves:
            net[m.entry_id] = net.get(m.entry_id, 0) + (m.to_ledger in _OPEN) - (m.from_ledger in _OPEN)
        changed = [i for i, d in net.items() if d]
        folded: set[str] = set()
        for start in range(0, len(changed), CHUNK):
            ours = [e for e in self.store.entries(changed[start:start + CHUNK]) if e.namespace == namespace]
            folded.update(e.id for e in ours)
            for sign in (1, -1):                   # additions first: never removes what it has not added
                group = [e.text for e in ours if net[e.id] == sign]
                if group:
                    (idf.add if sign > 0 else idf.remove)(np.asarray(self._embed(group)))
        return sum(1 for _, m in moves if m.entry_id in folded)
