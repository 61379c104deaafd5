"""examples/langchain_agent.py runs offline and shows remembered, revised, rejected and recalled."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "langchain_agent.py"


def load():
    spec = importlib.util.spec_from_file_location("langchain_agent_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module                     # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("persist", [False, True])
def test_example_runs_and_reports_each_decision(tmp_path, capsys, persist):
    assert load().main([str(tmp_path / "mem")] if persist else []) == 0
    out = capsys.readouterr().out
    assert "memory: remembered (" in out
    assert "recorded as tool's (relays a tool message of this conversation)" in out
    assert "memory: remembered; the memory it updates was moved to history" in out
    assert "memory: not remembered: it contradicts a memory that memory trusts more" in out
    assert "<memories>\n- The user lives in Porto (slot: user.home_city)\n</memories>" in out
    assert "Accepted: ['The user lives in Porto']" in out
    assert "('The user lives in Lisbon', 'superseded'), ('The user lives in Madrid', 'rejected')" in out
    if persist:
        assert (tmp_path / "mem" / "ledger.db").exists()
