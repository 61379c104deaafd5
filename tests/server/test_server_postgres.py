"""The engine on PostgreSQL + a Chroma server: the only state its processes share is the ledger
database and the Chroma server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.schema import Claim, Ledger

ROOT = Path(__file__).resolve().parents[2]


def indexed(engine) -> dict[str, Ledger]:
    got = engine.index.collection.get(include=["metadatas"])
    return {i: Ledger(m["ledger"]) for i, m in zip(got["ids"], got["metadatas"])}


def open_states(engine) -> dict[str, Ledger]:
    return {e.id: e.ledger for ns in engine.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
            for e in engine.store.ledger(ns, lg)}


def test_a_postgres_ledger_needs_a_chroma_server(pg_url):
    with pytest.raises(TarlError, match="chroma_url"):
        MemoryEngine.open(pg_url)


@pytest.mark.enable_socket
def test_engine_on_postgres_and_chroma_survives_reopen(pg_url, chroma_url):
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        eng.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
        eng.flush()
        assert indexed(eng) == open_states(eng)
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        assert [h.entry.text for h in eng.search("where does Ana live", "ana")] == ["Ana lives in Oslo now"]
        assert [e.text for e in eng.history("ana")] == ["Ana lives in Rome"]


WRITER = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim
url, chroma, me = sys.argv[1], sys.argv[2], int(sys.argv[3])
with MemoryEngine.open(url, chroma_url=chroma) as engine:
    for i in range(40):
        engine.write(Claim(text=f"writer {me} says item {i % 5} is at place {i}", namespace="u", slot=f"item{i % 5}"))
        engine.search(f"where is item {i % 5}", "u")
print("done", flush=True)
"""


@pytest.mark.enable_socket
def test_four_processes_on_postgres_keep_one_accepted_per_slot(pg_url, chroma_url):
    with MemoryEngine.open(pg_url, chroma_url=chroma_url):
        pass
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, pg_url, chroma_url, str(k)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for k in range(4)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [o[1].decode()[-2000:] for o in outs]
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        assert eng.store.head() == 160 and [t.tx for t in eng.log()] == list(range(1, 161))
        for item in range(5):
            assert len(eng.by_slot("u", f"item{item}")) <= 1            # the policy may defer some claims
        assert indexed(eng) == open_states(eng)
