"""`tarl bench lre --quick` on a small generated LoCoMo-format file: every system and metric key."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from shared_core.bench.lre import main, roc_auc

SYSTEMS = ["lre_default", "lre_supervised", "lre_self_supervised", "recency", "random", "tfidf_salience", "length",
           "embedding_similarity", "fifo"]
METRICS = ["macro_auc", "evidence_kept_512", "evidence_kept_1024", "evidence_kept_2048", "identifiers_kept_2048"]


def test_roc_auc_with_ties() -> None:
    assert roc_auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([False, False, True, True])) == 0.75
    assert roc_auc(np.array([1.0, 1.0]), np.array([True, False])) == 0.5


def test_bench_quick_writes_every_key(tmp_path: Path, locomo_file: Path) -> None:
    out = tmp_path / "lre.json"
    assert main(["--data", str(locomo_file), "--quick", "--json", str(out), "--plots", str(tmp_path / "plots")]) == 0
    assert any((tmp_path / "plots").glob("*.png"))
    record = json.loads(out.read_text())
    assert record["benchmark"] == "lre"
    for system in SYSTEMS:
        for metric in METRICS:
            assert metric in record["systems"][system], (system, metric)
    for metric in ("units_per_s", "trim_ms_1000"):
        assert record["systems"]["lre_supervised"][metric] > 0
    assert 0.0 <= record["systems"]["fifo"]["evidence_kept_2048"] <= 1.0
    for system in ("lre_adapted", "lre_own_vocabulary"):
        for metric in METRICS[:-1]:
            assert 0.0 <= record["systems"][system][metric] <= 1.0, (system, metric)
    for policy in ("shipped", "always_accept", "janus", "janus_tau0", "always_compare", "random_trigger"):
        assert {"final_auc", "mean_auc", "comparisons"} <= set(record["systems"][f"refit_{policy}"])
    assert record["systems"]["refit_always_accept"]["comparisons"] == 0
    for signal in ("identifier_reuse", "answer_coverage", "later_reference", "own_logs"):
        quality = record["systems"][f"self_labels_{signal}"]
        assert 0.0 <= quality["recall"] <= 1.0 and 0.0 <= quality["positive_share"] <= 1.0
    assert record["systems"]["self_labels_own_logs"]["recall"] >= record["systems"]["self_labels_later_reference"]["recall"]
    compared = record["refit_comparisons"].get("always_compare", [])
    assert len(compared) == record["systems"]["refit_always_compare"]["comparisons"]
    assert all({"step", "verdict", "next_auc_current", "next_auc_candidate"} <= set(c) for c in compared)
