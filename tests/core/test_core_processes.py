"""Embedded mode is honest about processes: embedded Chroma serves one process, so a second process on
the same embedded store gets a clear error pointing to server mode, never a Chroma internal error; the
ledger alone (SQLite) is shared safely."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from shared_core.engine import MemoryEngine
from shared_core.schema import Claim

ROOT = Path(__file__).resolve().parents[2]
OPEN = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.errors import IndexUnavailable
try:
    with MemoryEngine.open(sys.argv[1]) as e:
        print("opened", len(e.accepted("u")))
except IndexUnavailable as err:
    print("refused", err)
"""


def _open_in_another_process(path: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", OPEN, str(path)], capture_output=True, text=True, env=env,
                          check=True, timeout=300).stdout.strip()


def test_a_second_process_on_an_embedded_store_is_pointed_to_server_mode(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="u"))
        out = _open_in_another_process(tmp_path)
        assert out.startswith("refused") and "chroma_url" in out and "chroma run" in out and str(tmp_path) in out
        eng.write(Claim(text="Ben plays the cello", namespace="u"))     # the owner is unaffected
    assert _open_in_another_process(tmp_path) == "opened 2"             # released on close


def test_engines_of_one_process_share_the_embedded_store(tmp_path):
    with MemoryEngine.open(tmp_path) as a, MemoryEngine.open(tmp_path) as b:
        a.write(Claim(text="Ana lives in Rome", namespace="u"))
        assert [h.entry.text for h in b.search("Ana lives in Rome", "u")] == ["Ana lives in Rome"]
    with MemoryEngine.open(tmp_path) as c:
        assert len(c.accepted("u")) == 1
