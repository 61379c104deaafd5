"""Shared fixtures: real engines on real SQLite files and real (embedded) Chroma."""

from __future__ import annotations

import os

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
