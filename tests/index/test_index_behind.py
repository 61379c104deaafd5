"""The write-behind: writes and reads never wait for Chroma; flush and close do."""

from __future__ import annotations

import threading

from shared_core.engine import MemoryEngine
from shared_core.index.chroma import EntryIndex
from shared_core.schema import Claim


def test_writes_and_searches_go_on_while_the_index_is_stuck(tmp_path, monkeypatch):
    gate = threading.Event()
    upsert = EntryIndex.upsert

    def stuck(self, *args, **kwargs):
        assert gate.wait(60), "the test never released the index"
        return upsert(self, *args, **kwargs)

    monkeypatch.setattr(EntryIndex, "upsert", stuck)
    with MemoryEngine.open(tmp_path) as eng:
        for i in range(30):
            eng.write(Claim(text=f"Ana visited city number {i}", namespace="u"))
        last = eng.accepted("u")[-1]
        assert eng.search(last.text, "u", k=1)[0].entry.id == last.id
        gate.set()
        eng.flush()
        assert eng.index.count() == len(eng.accepted("u")) + len(eng.pending("u")) > 1


def test_one_chroma_call_carries_a_bounded_number_of_vectors(monkeypatch):
    from shared_core.executor import Step
    from shared_core.index import chroma
    from shared_core.schema import Action

    monkeypatch.setattr(chroma, "REQUEST_BYTES", 64 * (12 * 2048 + 1024))    # 64 rows of width 2048 per call
    sizes: list[int] = []
    upsert = EntryIndex.upsert
    monkeypatch.setattr(EntryIndex, "upsert", lambda self, entries, vectors=None: (
        sizes.append(len(entries)), upsert(self, entries, vectors))[1])
    with MemoryEngine.open() as eng:                        # (a server refuses a body past ~150 MB: HTTP 413)
        eng.apply("u", [Step(Action.APPEND, Claim(text=f"fact number {i}", namespace="u")) for i in range(300)])
        eng.flush()
        assert eng.index.count() == 300 and max(sizes) <= 64
