"""Fixtures for the LangChain adapter: real engines (SQLite + embedded Chroma) behind TarlStore.

``store`` runs every test under the engine's default policy (what ships) and the transparent rule
policy: the adapter only translates, so its behaviour must not depend on which policy decides.
"""

from __future__ import annotations

import pytest
from langgraph.store.memory import InMemoryStore
from shared_core.policy import RulePolicy

from langchain_tarl import TarlStore


@pytest.fixture(params=["default_policy", "rule_policy"])
def store(request):
    with TarlStore.open(policy=RulePolicy() if request.param == "rule_policy" else None) as s:
        yield s


@pytest.fixture(params=["in_memory", "tarl"])
def any_store(request):
    """The same contract runs against the reference store and ours."""
    if request.param == "in_memory":
        yield InMemoryStore()
    else:
        with TarlStore.open() as s:
            yield s
