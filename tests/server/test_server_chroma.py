"""The index on a real Chroma server (``chroma run`` on loopback), as a deployment with a shared server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.enable_socket
def test_engine_on_a_chroma_server_survives_reopen(tmp_path, chroma_url):
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        eng.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
        eng.flush()
        assert eng.index.ids() == {e.id for e in eng.accepted("ana")}
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:      # a fresh process would do the same
        hits = eng.search("where does Ana live", "ana")
        assert [h.entry.text for h in hits] == ["Ana lives in Oslo now"]
        assert all(h.entry.ledger is Ledger.ACCEPTED for h in hits)


def indexed(engine) -> dict[str, Ledger]:
    got = engine.index.collection.get(include=["metadatas"])
    return {i: Ledger(m["ledger"]) for i, m in zip(got["ids"], got["metadatas"])}


def open_states(engine) -> dict[str, Ledger]:
    return {e.id: e.ledger for ns in engine.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
            for e in engine.store.ledger(ns, lg)}


@pytest.mark.enable_socket
def test_two_stores_on_one_server_keep_their_own_rows(tmp_path, chroma_url):
    with MemoryEngine.open(tmp_path / "a", chroma_url=chroma_url) as a:
        a.write(Claim(text="Ana lives in Rome", namespace="u"))
        a.flush()
        with MemoryEngine.open(tmp_path / "b", chroma_url=chroma_url) as b:    # opening b must not touch a's rows
            b.write(Claim(text="Ben lives in Oslo", namespace="u"))
            b.flush()
            assert [h.entry.text for h in b.search("lives in", "u")] == ["Ben lives in Oslo"]
        assert indexed(a) == open_states(a) and len(indexed(a)) == 1
        assert [h.entry.text for h in a.search("lives in", "u")] == ["Ana lives in Rome"]


@pytest.mark.enable_socket
def test_a_missing_ledger_never_wipes_the_index_on_a_server(tmp_path, chroma_url):
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="u"))
        eng.flush()
        name, rows = eng.index.collection.name, indexed(eng)
    (tmp_path / "ledger.db").rename(tmp_path / "ledger.bak")
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"ledger.db{suffix}").unlink(missing_ok=True)
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as fresh:      # a new, empty store: its own collection
        assert fresh.index.collection.name != name and fresh.accepted("u") == []
        assert indexed(fresh) == {}
        assert fresh.index.client.get_collection(name).count() == len(rows) == 1


WRITER = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim
path, url, me = sys.argv[1], sys.argv[2], int(sys.argv[3])
with MemoryEngine.open(path, chroma_url=url) as engine:
    for i in range(40):
        engine.write(Claim(text=f"writer {me} says item {i % 5} is at place {i}", namespace="u", slot=f"item{i % 5}"))
        engine.search(f"where is item {i % 5}", "u")
print("done", flush=True)
"""


@pytest.mark.enable_socket
def test_four_processes_on_sqlite_and_a_chroma_server_leave_index_and_ledger_equal(tmp_path, chroma_url):
    """Closed entries never stay marked accepted: each catch-up writes the ledger's latest state under
    the store's index-writer lock, so a slow writer cannot undo a faster one's removal."""
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url):
        pass                                                           # create the store once
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), chroma_url, str(k)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for k in range(4)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [o[1].decode()[-2000:] for o in outs]
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:
        assert eng.store.head() == 160
        for item in range(5):                                           # one Accepted per single-valued slot
            assert len(eng.by_slot("u", f"item{item}")) <= 1
        assert indexed(eng) == open_states(eng)
