"""Fixtures for the LangChain adapter: real engines (SQLite + embedded Chroma) behind TarlStore."""

from __future__ import annotations

import pytest

from langchain_tarl import TarlStore


@pytest.fixture
def store():
    with TarlStore.open() as s:
        yield s


@pytest.fixture
def disk_store(tmp_path):
    with TarlStore.open(tmp_path / "mem") as s:
        yield s
