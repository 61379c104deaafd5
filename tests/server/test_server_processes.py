"""Four writer processes on one shared store (SQLite or PostgreSQL ledger, Chroma server), all on one
namespace or two on each of two (PostgreSQL locks per namespace): no errors, nothing lost, transaction
numbers contiguous, at most one Accepted entry per single-valued slot, and the index equals the ledger by
ids and states (a closed entry never stays marked accepted: each catch-up writes the ledger's latest
state under the store's upkeep lock, so a slow writer cannot undo a faster one's removal)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared_core.engine import MemoryEngine

ROOT = Path(__file__).resolve().parents[2]
WRITER = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim
target, url, me, ns = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
with MemoryEngine.open(target, chroma_url=url) as engine:
    for i in range(40):
        engine.write(Claim(text=f"writer {me} says item {i % 5} is at place {i}", namespace=ns, slot=f"item{i % 5}"))
        engine.search(f"where is item {i % 5}", ns)
print("done", flush=True)
"""



@pytest.mark.enable_socket
@pytest.mark.parametrize("backend,spaces", [("sqlite", 1), ("postgres", 1), ("postgres", 2)])
def test_four_writer_processes_on_one_shared_store(backend, spaces, tmp_path, chroma_url, request, index_and_ledger):
    target = str(tmp_path) if backend == "sqlite" else request.getfixturevalue("pg_url")
    with MemoryEngine.open(target, chroma_url=chroma_url):
        pass                                                           # create the store once
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, target, chroma_url, str(k), f"u{k % spaces}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for k in range(4)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert [p.returncode for p in procs] == [0] * 4, [o[1].decode()[-2000:] for o in outs]
    with MemoryEngine.open(target, chroma_url=chroma_url) as eng:
        assert eng.store.head() == 160 and [t.tx for t in eng.log()] == list(range(1, 161))
        for ns in {f"u{k % spaces}" for k in range(4)}:
            assert len(list(eng.store.log(ns))) == 160 // spaces        # every write of the namespace is there
            for item in range(5):
                assert len(eng.by_slot(ns, f"item{item}")) <= 1         # the policy may defer some claims
        indexed, truth = index_and_ledger(eng)
        assert indexed == truth
