"""Real servers for server-mode tests: a Chroma server (``chroma run``) and PostgreSQL on loopback.

``.ci/services.sh start`` starts both and exports ``TARL_TEST_CHROMA_URL`` / ``TARL_TEST_PG_URL``. Without
them a test starts its own Chroma server from the venv's ``chroma`` CLI. On CI (``CI=true``) a server
that cannot be had fails the test: server mode is never silently skipped there."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
ON_CI = os.environ.get("CI", "").lower() == "true"


def unavailable(what: str) -> None:
    if ON_CI:
        pytest.fail(f"{what} (CI=true: server-mode tests must run; start them with .ci/services.sh start)")
    pytest.skip(what)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, proc: subprocess.Popen, seconds: float = 60) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.2)
    return False


def start_chroma(data: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen([CHROMA, "run", "--path", str(data), "--host", "127.0.0.1", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.fixture(scope="session")
def chroma_url(tmp_path_factory):
    url = os.environ.get("TARL_TEST_CHROMA_URL")
    if url:
        yield url
        return
    if not Path(CHROMA).exists():
        unavailable("the chroma CLI is not installed and TARL_TEST_CHROMA_URL is not set")
    port = free_port()
    proc = start_chroma(tmp_path_factory.mktemp("chroma-server"), port)
    if not wait_for_port(port, proc):
        proc.kill()
        pytest.fail("chroma server did not start within 60 s")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=30)
