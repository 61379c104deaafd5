"""``tarl bench scale --quick`` runs end to end on the embedded system and writes its JSON record."""

from __future__ import annotations

import json

from shared_core.bench import scale


def test_scale_bench_quick_writes_the_record(tmp_path, capsys):
    out = tmp_path / "scale.json"
    assert scale.main(["--quick", "--systems", "sqlite_embedded", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    row = record["systems"]["sqlite_embedded"]
    assert record["benchmark"] == "scale"
    assert {"write_ms_p50", "write_ms_p95", "writes_per_s_sustained", "writes_per_s_4proc", "search_ms_p50_10k",
            "search_ms_p50_100k", "open_s_100k", "rss_mb_100k", "errors", "lost"} <= set(row)
    assert row["errors"] == 0 and row["lost"] == 0
    assert "sqlite_embedded" in capsys.readouterr().out
