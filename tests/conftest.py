"""Shared fixtures: real engines on real SQLite files and real (embedded) Chroma."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")


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
