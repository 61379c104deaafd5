"""The docstring tours run, the example runs offline, and importing the adapter stays light."""

from __future__ import annotations

import doctest
import importlib
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

MODULES = ["llamaindex_tarl.beliefs", "llamaindex_tarl.block", "llamaindex_tarl.chat_store", "llamaindex_tarl.engine",
           "llamaindex_tarl.memory", "llamaindex_tarl.reflections",
           "llamaindex_tarl.retriever", "llamaindex_tarl.statements", "llamaindex_tarl.tools"]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "llamaindex_chat.py"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_every_public_class_starts_with_an_example():
    import llamaindex_tarl

    for name in llamaindex_tarl.__all__:
        obj = getattr(llamaindex_tarl, name)
        if isinstance(obj, type):
            assert ">>> " in (obj.__doc__ or ""), name


def test_import_does_not_pull_torch_or_sklearn():
    code = "import sys, llamaindex_tarl; print(sorted(m for m in ('torch', 'sklearn') if m in sys.modules))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "[]"


def test_example_decides_as_the_contract_says(capsys, tmp_path):
    module = runpy.run_path(str(EXAMPLE))
    assert module["main"](["--path", str(tmp_path / "default")]) == 0      # decisions as the contract says
    out = capsys.readouterr().out
    assert "recall says:" in out and "UNEXPECTED" not in out
    assert "revise" in out and "defer_verify" in out


def test_example_runs_offline(capsys, tmp_path):
    module = runpy.run_path(str(EXAMPLE))
    module["main"](["--path", str(tmp_path / "default")])                   # prints UNEXPECTED on a policy miss
    assert "recall says:" in capsys.readouterr().out
    assert module["main"](["--path", str(tmp_path / "rules"), "--policy", "rules"]) == 0
    out = capsys.readouterr().out
    assert "revise" in out and "reject_conflict" in out
    assert "my memory says: - Actually my order id is now A-7740." in out
    assert "recall says: - I live in Lisbon." in out
