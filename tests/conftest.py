"""Shared fixtures: real engines on real SQLite files and real (embedded) Chroma; real servers for server mode."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
ON_CI = os.environ.get("CI", "").lower() == "true"
CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def unavailable(what: str) -> None:
    """A server a test needs is missing: skipped locally, a failure on CI (``CI=true``), where server
    mode must never be silently skipped (``.ci/services.sh start`` provides the servers)."""
    if ON_CI:
        pytest.fail(f"{what} (CI=true: start the servers with .ci/services.sh start)")
    pytest.skip(what)


@pytest.fixture
def pg_url():
    """A fresh PostgreSQL database on the server at ``TARL_TEST_PG_URL``, dropped afterwards."""
    import uuid

    base = os.environ.get("TARL_TEST_PG_URL")
    if not base:
        unavailable("TARL_TEST_PG_URL is not set (no PostgreSQL server)")
    import psycopg

    name = "tarl_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def engine():
    from shared_core.engine import MemoryEngine

    eng = MemoryEngine.open()
    yield eng
    eng.close()


@pytest.fixture
def disk_engine(tmp_path):
    from shared_core.engine import MemoryEngine

    eng = MemoryEngine.open(tmp_path / "store")
    yield eng
    eng.close()


# -- servers: ``.ci/services.sh start`` exports their URLs; else a test starts its own Chroma --------
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


@pytest.fixture
def index_and_ledger():
    """``compare(engine)``: what the Chroma collection says (read raw) and what the ledger says, as
    {entry id: ledger} of open entries; equal when the index tells the truth."""
    from shared_core.schema import Ledger

    def compare(engine) -> tuple[dict[str, Ledger], dict[str, Ledger]]:
        got = engine.index.collection.get(include=["metadatas"])
        indexed = {i: Ledger(m["ledger"]) for i, m in zip(got["ids"], got["metadatas"])}
        truth = {e.id: e.ledger for ns in engine.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
                 for e in engine.store.ledger(ns, lg)}
        return indexed, truth

    return compare


def locomo_like(seed: int) -> dict[str, Any]:
    from shared_core.lre.synthetic import FILLER_USER, _fact

    r = random.Random(seed)
    conv: dict[str, Any] = {"speaker_a": "Ana", "speaker_b": "Ben"}
    qa = []
    for s in (1, 2):
        turns = []
        for k in range(1, 60):
            speaker = "Ana" if k % 2 else "Ben"
            if r.random() < 0.25:
                f = _fact(r)
                turns.append({"speaker": speaker, "dia_id": f"D{s}:{k}", "text": f.statement})
                qa.append({"question": f.question, "answer": f.answer, "evidence": [f"D{s}:{k}"], "category": 4})
            else:
                turns.append({"speaker": speaker, "dia_id": f"D{s}:{k}", "text": r.choice(FILLER_USER)})
        conv[f"session_{s}"] = turns
        conv[f"session_{s}_date_time"] = "1:00 pm on 8 May, 2023"
    qa.append({"question": "?", "adversarial_answer": "x", "evidence": ["D9:99"], "category": 5})
    return {"sample_id": f"conv-{seed}", "conversation": conv, "qa": qa}



@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    """A small generated file in LoCoMo's format (benchmarks' tests never read ../shared/data)."""
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([locomo_like(s) for s in range(3)]))
    return data


@pytest.fixture(scope="session")
def demo_store_master(tmp_path_factory) -> Path:
    """The demo's store, written once per session; tests copy it (``demo_store``)."""
    import contextlib
    import io

    from shared_core.demo import run

    path = tmp_path_factory.mktemp("demo") / "store"
    with contextlib.redirect_stdout(io.StringIO()):
        run(path).close()
    return path


@pytest.fixture
def demo_store(demo_store_master, tmp_path) -> Path:
    import shutil

    return Path(shutil.copytree(demo_store_master, tmp_path / "demo-store"))


@pytest.fixture
def tree_state():
    """``tree_state(root)``: every file and folder under ``root`` with its content hash and mtime;
    equal before and after means nothing was created, changed or touched."""
    import hashlib

    def state(root: Path) -> dict[str, tuple[bytes | None, int]]:
        out: dict[str, tuple[bytes | None, int]] = {}
        for p in sorted(root.rglob("*")):
            digest = hashlib.sha256(p.read_bytes()).digest() if p.is_file() else None
            out[str(p.relative_to(root))] = (digest, p.stat().st_mtime_ns)
        return out

    return state


@pytest.fixture
def serve_ui():
    """``serve_ui(store, write=False) -> base URL``: the real ``tarl ui`` server (uvicorn, loopback,
    a free port) in a thread, stopped after the test."""
    import threading
    import time

    from shared_core.ui.server import prepare

    running = []

    def start(store: Path, write: bool = False) -> str:
        server, sock, handle = prepare([str(store), "--port", "0"] + (["--write"] if write else []))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        running.append((server, thread, handle, sock))
        while not server.started:
            if not thread.is_alive():
                raise RuntimeError("the ui server did not start")
            time.sleep(0.02)
        host, port = sock.getsockname()[:2]
        return f"http://{host}:{port}"

    yield start
    for server, thread, handle, sock in running:
        server.should_exit = True
        thread.join(timeout=30)
        handle.close()
        sock.close()


@pytest.fixture
def mixed_stream() -> list[tuple[str, str]]:
    """60 writes of one user, (text, source), mixing what escalation must weigh: moves and new managers
    (revisions), hearsay, tickets with ids, chit-chat and hedged plans; so doubt varies along the stream."""
    cities = ["Lisbon", "Porto", "Madrid", "Berlin", "Paris", "Rome", "Oslo", "Vienna"]
    names = ["Priya", "Daniel", "Ana", "Ben", "Chloe", "Omar", "Lena", "Yuki"]
    out = []
    for i in range(10):
        k = i % 8
        out += [(f"I live in {cities[k]}", "user"), (f"My manager is {names[(k + 3) % 8]}", "user"),
                (f"my cousin reckons I moved to {cities[(k + 2) % 8]}", "third_party"),
                (f"Ticket ZX-44{i:02d} is open", "tool"), ("lol ok", "user"),
                (f"I think I might start learning {['piano', 'Greek', 'chess', 'tennis'][k % 4]}", "user")]
    return out


@pytest.fixture
def two_writes(tmp_path):
    """Writes ``first`` (``first_source``'s) then, a day later, ``then`` (``source``'s) into one namespace of a real
    store: (the engine, the first entry's id, the second write's decision)."""
    from datetime import datetime, timedelta, timezone

    from shared_core import Claim, MemoryEngine

    opened: list[MemoryEngine] = []

    def write(first: str, then: str, source: str = "user", first_source: str = "user"):
        t0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
        engine = MemoryEngine.open(tmp_path / f"two{len(opened)}")     # (a store of its own each time it is asked)
        opened.append(engine)
        first_id = engine.write(Claim(text=first, namespace="ns", source=first_source, observed_at=t0)).entry_id
        return engine, first_id, engine.write(Claim(text=then, namespace="ns", source=source, observed_at=t0 + timedelta(days=1)))
    yield write
    for engine in opened:
        engine.close()


@pytest.fixture
def decides(two_writes):
    """Writes ``first`` then ``then`` (``source``'s, and the first ``first_source``'s, by default the same) and asserts
    the second write's action and the ledger the first entry is left in; returns (engine, first id, decision)."""
    def check(first: str, then: str, action, first_ledger, source: str = "user", first_source: str | None = None):
        engine, first_id, d = two_writes(first, then, source, first_source or source)
        assert d.action is action, d.rationale
        assert engine.get(first_id).ledger is first_ledger
        return engine, first_id, d
    return check


@pytest.fixture
def kept_beside(decides):
    """Writes ``first`` then ``then`` (both a tool's, unless said) and asserts the second was kept beside the first:
    appended, the first still Accepted (another thing, or one more value, never its replacement)."""
    from shared_core.schema import Action, Ledger

    def check(first: str, then: str, source: str = "tool") -> None:
        decides(first, then, Action.APPEND, Ledger.ACCEPTED, source)
    return check
