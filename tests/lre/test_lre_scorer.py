"""The scorer: shipped weights, JSON round trip, light inference imports, training from logs."""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shared_core.lre import LREInputError, Scorer, fit_from_logs, units_from_messages
from shared_core.lre.scorer import DEFAULT_WEIGHTS
from shared_core.lre.synthetic import agent_trace, chat, generate_corpus


def test_default_weights_are_small_json_and_trained_on_generated_data() -> None:
    data = json.loads(DEFAULT_WEIGHTS.read_text())
    assert DEFAULT_WEIGHTS.stat().st_size < 20_000
    assert "generated" in data["meta"]["licence"]
    p = Scorer.default().score_texts(["hello", "Order ORD-123 ships to /srv/x/y.pdf"])
    assert p.shape == (2,) and np.all((p > 0) & (p < 1))


def test_json_round_trip_gives_identical_scores(tmp_path: Path) -> None:
    s = Scorer.default()
    path = tmp_path / "w.json"
    s.save(path)
    texts = [m["content"] for m in chat(random.Random(3), 40)]
    np.testing.assert_allclose(Scorer.load(path).score_texts(texts), s.score_texts(texts), atol=1e-6)


def test_bad_weights_are_rejected() -> None:
    data = Scorer.default().to_dict()
    with pytest.raises(LREInputError, match="format"):
        Scorer.from_dict({**data, "format": "pickle"})
    with pytest.raises(LREInputError, match="coef"):
        Scorer.from_dict({**data, "coef": [1.0]})
    with pytest.raises(LREInputError, match="feature_names"):
        Scorer.from_dict({**data, "feature_names": ["x"]})


def test_inference_path_imports_neither_sklearn_nor_torch() -> None:
    code = ("import sys; from shared_core.lre import trim; "
            "trim([{'role': 'user', 'content': 'x ' * 400}] * 20, 300); "
            "print(any(m.split('.')[0] in ('sklearn', 'torch', 'scipy') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.stdout.strip() == "False"


needs_sklearn = pytest.mark.skipif(importlib.util.find_spec("sklearn") is None,
                                   reason="fitting needs scikit-learn (the 'train' extra); inference does not")


@needs_sklearn
def test_fit_from_logs_learns_to_keep_what_is_reused() -> None:
    scorer = fit_from_logs(generate_corpus(seed=5, chats=8, traces=12, noise_steps=20), max_features=50)
    trace = agent_trace(random.Random(99), noise_steps=30)
    units = units_from_messages(trace.messages[: trace.cut])
    p = scorer.score_units(units)
    intro = [i for i, u in enumerate(units) if trace.needed[1] in u.text][0]  # the order id's first unit
    assert p[intro] > np.median(p)


def test_fit_rejects_single_class_labels() -> None:
    with pytest.raises(LREInputError, match="both classes"):
        fit_from_logs([[{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]])


@needs_sklearn
def test_fit_cli_trains_on_user_logs(tmp_path: Path) -> None:
    from shared_core.lre.fit import main

    logs = tmp_path / "logs.jsonl"
    logs.write_text("\n".join(json.dumps(m) for m in generate_corpus(seed=7, chats=6, traces=6, noise_steps=10)))
    out = tmp_path / "mine.json"
    assert main(["--logs", str(logs), "--out", str(out)]) == 0
    assert Scorer.load(out).meta["trained_on"] == str(logs)


def test_weights_saved_before_features_were_appended_still_load() -> None:
    """A user's weights file from before ``salience`` / ``plans`` / ``preferences`` existed loads, and
    the new features get weight 0 (the scores are those of the old feature set)."""
    from shared_core.lre import FEATURE_NAMES

    d = Scorer.default().to_dict()
    old = len(FEATURE_NAMES) - 3
    d.update(feature_names=list(FEATURE_NAMES[:old]), coef=d["coef"][:old], mean=d["mean"][:old], scale=d["scale"][:old])
    s = Scorer.from_dict(d)
    assert s.coef.shape == (len(FEATURE_NAMES),) and not s.coef[old:].any()
    texts = ["I love hiking and I plan to go to Oslo next month.", "ok", "ORD-123 shipped"]
    fs = s.features(texts)
    fs.dense[:, old:] = 123.0                                   # whatever the new features say ...
    pad = Scorer.from_dict(d | {"feature_names": list(FEATURE_NAMES), "coef": d["coef"] + [0.0] * 3,
                                "mean": d["mean"] + [0.0] * 3, "scale": d["scale"] + [1.0] * 3})
    np.testing.assert_allclose(s.logits(fs), pad.logits(s.features(texts)))  # ... does not matter
    d["feature_names"] = ["position", "made_up"]
    with pytest.raises(LREInputError, match="feature_names"):
        Scorer.from_dict(d)
