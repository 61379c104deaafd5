"""The index on a real Chroma server (``chroma run`` on loopback), as a deployment with a shared server."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger

CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def chroma_url(tmp_path_factory):
    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed")
    port = _free_port()
    data = tmp_path_factory.mktemp("chroma-server")
    proc = subprocess.Popen([CHROMA, "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("chroma server did not start within 60 s")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)


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
