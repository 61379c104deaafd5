"""``tarl bench escalation --quick`` runs on the shipped corpus and keeps DESIGN.md's output contract."""

from __future__ import annotations

import json
from pathlib import Path

from shared_core.bench import escalation

SYSTEMS = ["cpu_only", "escalate_5", "escalate_10", "escalate_20", "escalate_30", "escalate_50"]
METRICS = {"escalated_share", "accuracy_kept", "macro_f1_kept", "macro_f1_oracle", "macro_f1_judge80",
           "judge_calls_per_1000"}


def test_quick_run_writes_the_record(tmp_path: Path, capsys) -> None:
    out = tmp_path / "esc.json"
    assert escalation.main(["--quick", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "escalation" and list(record["systems"]) == [*SYSTEMS, "perfect_doubt_20"]
    rows = record["systems"]
    assert all(METRICS <= set(rows[s]) for s in SYSTEMS)
    assert rows["cpu_only"]["escalated_share"] == 0 and "judge_overhead_ms" in rows["cpu_only"]
    shares = [rows[s]["escalated_share"] for s in SYSTEMS]
    assert shares == sorted(shares)                                 # thresholds from dev are monotone
    for s in SYSTEMS:
        r = rows[s]
        assert abs(r["judge_calls_per_1000"] - 1000 * r["escalated_share"]) < 1e-6
        assert r["accuracy_oracle"] >= rows["cpu_only"]["accuracy_kept"] - 1e-9   # gold answers never hurt
    assert set(record["handwritten_slot"]) == {*SYSTEMS, "perfect_doubt_20"} and "risk_coverage" in record
    ceiling = rows["perfect_doubt_20"]
    assert ceiling["accuracy_kept"] >= rows["cpu_only"]["accuracy_kept"]          # only errors were escalated
    assert "escalate_20" in capsys.readouterr().out
    from shared_core.doubt import TERMS

    signals = record["doubt_signals_dev"]                           # each signal's ranking of the CPU's errors
    assert set(signals) == set(TERMS) and all(0 <= s["auroc_all"] <= 1 for s in signals.values())


def test_dev_and_test_are_disjoint_and_cover_the_corpus() -> None:
    from shared_core.bench.corpus import raw_episodes

    parts, _ = escalation.dev_test()
    dev, test = ({r.id for r in parts[p]} for p in ("dev", "test"))
    assert not dev & test and dev | test == {r.id for r in raw_episodes()}
    assert 0.45 <= len(dev) / (len(dev) + len(test)) <= 0.75
