"""examples/research_agent.py: three sessions in new processes share one store; pruning and deduction
happen, and no experiment is ever started on a refuted or pruned hypothesis."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "research_agent.py"


def test_research_agent_over_three_processes(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("research_agent_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.main(["--store", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("===")] == [
        f"=== session {n} (a new process) ===" for n in (1, 2, 3)]
    assert "  - H4: pruned: premise H1 is refuted" in out and "  - H5: pruned: premise H4 is pruned" in out
    assert "  - H3: deduced: the only member of closed group Q1 still in play" in out
    assert "  - H9: deduced: the only member of closed group Q3 still in play" in out
    started = re.findall(r"> start_experiment\(hypothesis='(H\d+)'", out)
    assert started == ["H1", "H2", "H8"]                              # each once; never a settled one
    assert "H1 'catalyst A gives >90% yield' is refuted: refuted by result R1. Nothing written" in out
    session2 = out[out.index("=== session 2"):out.index("=== session 3")]
    assert "Frontier (test only these): H8 'catalyst C works at 60 C' (0.60); H9" in session2
    assert (tmp_path / "ledger.db").exists()
