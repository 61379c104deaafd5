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
