"""``tarl bench all --report DIR``: one Markdown report quoting each benchmark's table, with its JSON and plots."""

from __future__ import annotations

import json

from shared_core.cli import main


def test_bench_all_quick_writes_one_report(tmp_path, capsys):
    out = tmp_path / "report"
    assert main(["bench", "all", "--quick", "--only", "core,beliefs", "--report", str(out)]) == 0
    text = (out / "report.md").read_text()
    assert "Command: `tarl bench all --quick --only core,beliefs" in text
    for name, system in (("core", "default"), ("beliefs", "perfect_recall")):
        assert f"## {name}" in text and f"# tarl bench {name}" in text
        record = json.loads((out / "json" / f"{name}.json").read_text())
        assert record["command"].startswith(f"tarl bench {name} --quick")        # reproducible one by one
        assert system in record["systems"] and system in text
    for png in out.glob("plots/*/*.png"):
        assert f"]({png.relative_to(out).as_posix()})" in text
    assert "core ok, beliefs ok" in capsys.readouterr().out


def test_bench_all_refuses_unknown_names(tmp_path, capsys):
    assert main(["bench", "all", "--only", "core,nope", "--report", str(tmp_path)]) == 2
    assert "unknown benchmarks ['nope']" in capsys.readouterr().err
    assert not (tmp_path / "report.md").exists()
