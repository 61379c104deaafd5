"""A writer killed with SIGKILL mid-loop leaves a consistent store, and the index reconciles on open."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from shared_core.engine import MemoryEngine
from shared_core.executor import MemoryState
from shared_core.schema import Ledger

WRITER = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim
engine = MemoryEngine.open(sys.argv[1])
i = 0
while True:
    engine.write(Claim(text=f"fact number {i} about topic {i % 7}", namespace="u", slot=f"s{i % 11}"))
    i += 1
    if i == 20:
        print("ready", flush=True)
"""


def test_sigkill_mid_write_loop_leaves_consistent_store(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)], stdout=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
    time.sleep(0.5)                                    # let it get well into the loop, then kill it hard
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()

    engine = MemoryEngine.open(tmp_path)
    try:
        head = engine.store.head()
        assert head >= 20
        replayed = MemoryState("u")
        for t in engine.log("u"):
            replayed.apply(t)
        assert replayed.entries == engine.state("u").entries        # no half-applied transaction
        for t in engine.log("u"):                                   # every logged move reached its entry
            for m in t.moves:
                assert engine.get(m.entry_id) is not None
        open_ids = {e.id for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in engine.store.ledger("u", lg)}
        assert engine.index.ids() == open_ids                       # reconciled on open
        assert engine.store.get_meta("indexed_tx") == str(head)
    finally:
        engine.close()
