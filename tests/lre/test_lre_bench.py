"""`tarl bench lre --quick` on a small generated LoCoMo-format file: every system and metric key."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from shared_core.bench.lre import main, roc_auc
from shared_core.lre.synthetic import _fact, FILLER_USER

SYSTEMS = ["lre_supervised", "lre_self_supervised", "recency", "random", "tfidf_salience", "embedding_similarity", "fifo"]
METRICS = ["macro_auc", "evidence_kept_512", "evidence_kept_1024", "evidence_kept_2048", "identifiers_kept_2048"]


def _locomo_like(seed: int) -> dict[str, Any]:
    r = random.Random(seed)
    conv: dict[str, Any] = {"speaker_a": "Ana", "speaker_b": "Ben"}
    qa = []
    for s in (1, 2):
        turns = []
        for k in range(1, 60):
            speaker = "Ana" if k % 2 else "Ben"
            if r.random() < 0.25:
                f = _fact(r)
                turns.append({"speaker": speaker, "dia_id": f"D{s}:{k}", "text": f.statement})
                qa.append({"question": f.question, "answer": f.answer, "evidence": [f"D{s}:{k}"], "category": 4})
            else:
                turns.append({"speaker": speaker, "dia_id": f"D{s}:{k}", "text": r.choice(FILLER_USER)})
        conv[f"session_{s}"] = turns
        conv[f"session_{s}_date_time"] = "1:00 pm on 8 May, 2023"
    qa.append({"question": "?", "adversarial_answer": "x", "evidence": ["D9:99"], "category": 5})
    return {"sample_id": f"conv-{seed}", "conversation": conv, "qa": qa}


def test_roc_auc_with_ties() -> None:
    assert roc_auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([False, False, True, True])) == 0.75
    assert roc_auc(np.array([1.0, 1.0]), np.array([True, False])) == 0.5


def test_bench_quick_writes_every_key(tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([_locomo_like(s) for s in range(3)]))
    out = tmp_path / "lre.json"
    assert main(["--data", str(data), "--quick", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "lre"
    for system in SYSTEMS:
        for metric in METRICS:
            assert metric in record["systems"][system], (system, metric)
    for metric in ("units_per_s", "trim_ms_1000"):
        assert record["systems"]["lre_supervised"][metric] > 0
    assert 0.0 <= record["systems"]["fifo"]["evidence_kept_2048"] <= 1.0
