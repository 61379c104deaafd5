"""Learning from own logs: recording, fallback, refit, versions beside the ledger, rollback, gate."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from shared_core.lre import Scorer, trim, units_from_messages
from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.refit import fit_correction
from shared_core.lre.labels import self_labels
from shared_core.lre.synthetic import agent_trace
from shared_core.lre.units import LREInputError


def _traces(n: int, seed: int = 0) -> list[list[dict]]:
    r = random.Random(seed)
    return [agent_trace(r, noise_steps=15).messages for _ in range(n)]


def test_falls_back_to_shipped_until_enough_labels(tmp_path: Path) -> None:
    ad = AdaptiveScorer(tmp_path / "s.lre", refit_every=1, min_positives=10_000)
    msgs = _traces(1)[0]
    units = units_from_messages(msgs)
    assert np.allclose(ad.score_units(units), Scorer.default().score_units(units))
    assert ad.version == 0 and ad.refit() is False


def test_refit_versions_persist_and_rollback(tmp_path: Path) -> None:
    ledger = tmp_path / "store.db"
    ad = AdaptiveScorer.beside(ledger, refit_every=10**6, min_positives=5)
    for msgs in _traces(4):
        for k in range(20, len(msgs) + 6, 6):            # an agent loop: trimmed before every call,
            trim(msgs[:k], 256, scorer=ad)               # recorded while trimming
    assert ad.refit() and ad.version == 1
    assert ad.refit() and ad.version == 2
    directory = tmp_path / "store.db.lre"
    assert json.loads((directory / "versions.json").read_text()) == {"deployed": [1, 2], "latest": 2}
    assert (directory / "scorer-v2.json").exists() and (directory / "log.jsonl").exists()
    again = AdaptiveScorer.beside(ledger)                # reopened: same version, same recorded logs
    assert again.version == 2 and len(again.histories()) == 4
    units = units_from_messages(_traces(1, seed=9)[0])
    assert np.allclose(again.score_units(units), ad.scorer.score_units(units))
    assert again.rollback() == 1 and again.rollback() == 0 and again.rollback() == 0
    assert np.allclose(again.score_units(units), Scorer.default().score_units(units))
    assert AdaptiveScorer.beside(ledger).version == 0


def test_conversations_recognised_by_prefix_and_scores_match_a_fresh_scorer() -> None:
    ad = AdaptiveScorer(refit_every=10**6)
    msgs = _traces(2)
    for k in (10, 20, len(msgs[0])):                     # one conversation growing
        units = units_from_messages(msgs[0][:k])
        assert np.allclose(ad.score_units(units), Scorer.default().score_units(units))
    ad.score_units(units_from_messages(msgs[1]))
    assert [len(h) for h in ad.histories()] == [len(units_from_messages(m)) for m in msgs]


def test_scheduled_refit_and_gate_refusal() -> None:
    calls: list[int] = []

    def refuse(current: Scorer, candidate: Scorer, recorder: AdaptiveScorer) -> bool:
        calls.append(len(recorder.histories()))
        return False

    ad = AdaptiveScorer(refit_every=30, min_positives=3, gate=refuse)
    for msgs in _traces(3):
        ad.score_units(units_from_messages(msgs))
    assert calls and ad.version == 0


def test_correction_shrinks_to_shipped_and_learns_with_weak_penalty() -> None:
    base = Scorer.default()
    hist = [units_from_messages(m) for m in _traces(3)]
    texts = [([u.text for u in h], [u.kind for u in h]) for h in hist]
    labels = [self_labels(h) for h in hist]
    strong = fit_correction(base, texts, labels, l2=1e9)
    assert np.allclose(strong.coef, base.coef, atol=1e-4)
    weak = fit_correction(base, texts, labels, l2=0.1)
    assert not np.allclose(weak.coef, base.coef, atol=1e-2)
    with pytest.raises(LREInputError, match="both classes"):
        fit_correction(base, texts, [np.zeros(len(t), bool) for t, _ in texts])


@pytest.mark.parametrize("field,value", [("refit_every", 0), ("min_positives", -1), ("l2", 0), ("refit_every", True),
                                         ("later_gap", 0), ("later_gap", "30")])
def test_bad_options_name_the_field(field: str, value: object) -> None:
    with pytest.raises(LREInputError, match=field):
        AdaptiveScorer(**{field: value})
