"""`tarl bench embedders --quick` on a generated LoCoMo-format file: keys, the product-path row, plots."""

from __future__ import annotations

import json
from pathlib import Path

from shared_core.bench.embedders import main


def test_bench_embedders_quick(tmp_path: Path, locomo_file: Path) -> None:
    out = tmp_path / "embedders.json"
    assert main(["--data", str(locomo_file), "--quick", "--json", str(out), "--plots", str(tmp_path / "plots")]) == 0
    systems = json.loads(out.read_text())["systems"]
    assert 0.0 < systems["default"]["recall_at_10"] <= 1.0
    assert systems["default"]["docs_per_s"] > 0
    assert abs(systems["engine_search"]["recall_at_10"] - systems["default"]["recall_at_10"]) < 0.05
    assert any((tmp_path / "plots").glob("*.png"))
