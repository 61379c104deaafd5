"""Importing the adapter stays light: no torch, no scikit-learn, and chromadb only once an engine opens;
LRE trimming adds neither torch nor scikit-learn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import langchain_tarl

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import json, sys
import langchain_tarl
heavy = lambda: sorted(m for m in ("torch", "sklearn", "chromadb") if m in sys.modules)
after_import = heavy()
store = langchain_tarl.TarlStore.open()
store.put(("m",), "k", {"text": "a fact"})
after_open = heavy()
from langchain_core.messages import HumanMessage
kept = langchain_tarl.LRETrimMiddleware(budget=60, keep_last=1).trim([HumanMessage(f"turn {i} " * 20) for i in range(9)])
assert 0 < len(kept) < 9
print(json.dumps({"after_import": after_import, "after_open": after_open, "after_trim": heavy()}))
store.close()
"""


def test_import_loads_neither_torch_nor_sklearn_nor_chromadb_until_an_engine_opens():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, check=True, cwd=ROOT)
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert seen["after_import"] == []
    assert seen["after_open"] == ["chromadb"]
    assert seen["after_trim"] == ["chromadb"]                          # LRE inference: numpy only


def test_public_names():
    assert set(langchain_tarl.__all__) >= {"TarlStore", "TarlRetriever", "TarlMemoryMiddleware", "LRETrimMiddleware"}
    assert all(hasattr(langchain_tarl, name) for name in langchain_tarl.__all__)
