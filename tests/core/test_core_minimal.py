"""What a minimal install (the core, no extras) must do: many writes into one namespace, no framework."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shared_core import Action, Claim, MemoryEngine

FRAMEWORKS = ("langchain_core", "langgraph", "llama_index", "sklearn", "torch", "matplotlib")


def test_three_hundred_writes_to_one_namespace(tmp_path):
    """Past 256 rows the vector cache goes sparse (scipy, a core dependency); nothing else is needed."""
    with MemoryEngine.open(tmp_path / "mem") as engine:
        decisions = engine.write_many(
            Claim(text=f"Order {1000 + i} ships to warehouse {i}", namespace="orders", slot=f"o{i}") for i in range(300))
        d = engine.write(Claim(text="Order 1299 ships to warehouse 7", namespace="orders", slot="o299"), keyed=True)
        assert d.action is not Action.NOOP
        assert engine.search("Order 1150 warehouse", "orders", 3)
    assert len(decisions) == 300


def test_the_core_imports_no_framework():
    code = ("import sys, shared_core, shared_core.trust, shared_core.keys; "
            "from shared_core import MemoryEngine; e = MemoryEngine.open(); e.close(); "
            f"print([m for m in {FRAMEWORKS!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "[]"
