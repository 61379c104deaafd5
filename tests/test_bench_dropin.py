"""``tarl bench dropin --quick`` smoke test: the table, the JSON record and the plot."""

from __future__ import annotations

import json

from shared_core.cli import main


def test_bench_dropin_quick(tmp_path, capsys):
    assert main(["bench", "dropin", "--quick", "--json", str(tmp_path / "d.json"), "--plots", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "conformance_TarlStore_disk" in out and "scenario_llamaindex" in out
    record = json.loads((tmp_path / "d.json").read_text())
    assert record["benchmark"] == "dropin"
    systems = record["systems"]
    for store in ("InMemoryStore", "TarlStore_memory", "TarlStore_disk"):
        row = systems[f"conformance_{store}"]
        assert row["tests"] > 50 and row["failed"] == 0
    for setup in ("langchain", "llamaindex"):
        assert systems[f"scenario_{setup}"]["questions"] == 4
    assert (tmp_path / "dropin_scenario.png").exists()
