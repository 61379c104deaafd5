"""The ``tarl`` command: demo, inspect/replay and the core benchmark's JSON record."""

from __future__ import annotations

import json

from shared_core.cli import main


def test_demo_prints_decisions_and_ledgers(capsys, tmp_path):
    assert main(["demo", "--path", str(tmp_path / "store")]) == 0
    out = capsys.readouterr().out
    for expected in ("append", "noop", "revise", "reject_conflict", "defer_verify", "== Accepted", "== History"):
        assert expected in out
    assert main(["replay", str(tmp_path / "store"), "user:maya", "--as-of", "1"]) == 0
    replay = capsys.readouterr().out
    assert "accepted (1)" in replay and "Maya lives in Lisbon" in replay
    assert main(["inspect", str(tmp_path / "store"), "--log"]) == 0
    log = capsys.readouterr().out
    assert "reject_conflict" in log
    first_entry = log.splitlines()[1].split(":")[0].strip()
    assert main(["explain", str(tmp_path / "store"), first_entry]) == 0
    assert "Maya lives in Lisbon" in capsys.readouterr().out
    assert main(["sweep", str(tmp_path / "store")]) == 0


def test_bench_core_quick_writes_json(tmp_path, capsys):
    out = tmp_path / "core.json"
    assert main(["bench", "core", "--quick", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "core"
    row = record["systems"]["default"]
    for key in ("write_ms_p50", "write_ms_p95", "search_ms_p50", "write_precomputed_ms_p50"):
        assert row[key] > 0


def test_unknown_bench_is_a_clear_error(capsys):
    assert main(["bench", "nope"]) == 2
    assert capsys.readouterr().err == "tarl: error: unknown benchmark 'nope'\n"
