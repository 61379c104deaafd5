"""Counterfactual execution supervision: training on a tiny generated dataset lowers the
counterfactual loss, and is deterministic given the seed."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="training needs torch (the 'train' extra); inference does not")

from shared_core.bench.episodes import generate  # noqa: E402
from shared_core.bench.tarl_mem_examples import Vectors, examples  # noqa: E402
from shared_core.index import default_embedder  # noqa: E402
from shared_core.training.train import Batch, TorchScorer, TrainConfig, losses, train  # noqa: E402


@pytest.fixture(scope="module")
def tiny() -> tuple[Batch, Batch]:
    ex = [e for e in examples(generate(24, seed=3), Vectors(default_embedder())) if e.scored]
    half = len(ex) * 3 // 4
    make = lambda xs: Batch.of([e.x for e in xs], [e.mask for e in xs], [e.label for e in xs], [e.q for e in xs])  # noqa: E731
    return make(ex[:half]), make(ex[half:])


def cf_loss(weights, batch: Batch) -> float:
    from shared_core.policy.model import Scorer

    p = Scorer(weights).probabilities(batch.x, temperature=1.0)
    return float(-(batch.target * np.log(np.clip(p, 1e-12, None))).sum(1).mean())


def test_counterfactual_targets_come_from_the_executor(tiny) -> None:
    tr, _ = tiny
    assert np.allclose(tr.target.sum(1), 1.0)
    assert (tr.target[~tr.mask] == 0).all()          # refused actions get no mass
    assert (tr.target.argmax(1) == tr.label)[tr.mask[np.arange(len(tr.label)), tr.label]].mean() > 0.8


def test_training_reduces_the_counterfactual_loss(tiny) -> None:
    tr, dev = tiny
    untrained, _ = train(tr, dev, TrainConfig(epochs=1, lr=0.0, seed=1), progress=False)
    trained, log = train(tr, dev, TrainConfig(epochs=25, seed=1), progress=False)
    assert cf_loss(trained, tr) < cf_loss(untrained, tr) - 0.1
    assert log["best_dev_loss"] <= log["dev_loss"][0]


def test_training_is_deterministic_given_a_seed(tiny) -> None:
    tr, dev = tiny
    a, _ = train(tr, dev, TrainConfig(epochs=3, seed=7), progress=False)
    b, _ = train(tr, dev, TrainConfig(epochs=3, seed=7), progress=False)
    assert all(np.array_equal(a.arrays[k], b.arrays[k]) for k in a.arrays) and a.temperature == b.temperature


def test_label_only_and_binary_variants_train(tiny) -> None:
    tr, dev = tiny
    w, _ = train(tr, dev, TrainConfig(objective="label", epochs=2, seed=0), progress=False)
    assert w.meta["objective"] == "label"
    bin_tr = Batch.of(list(tr.x), list(tr.mask), list(tr.label), [], binary=True)
    bin_dev = Batch.of(list(dev.x), list(dev.mask), list(dev.label), [], binary=True)
    wb, _ = train(bin_tr, bin_dev, TrainConfig(binary=True, epochs=2, seed=0), progress=False)
    assert wb.actions == ("write", "hold")
    assert isinstance(TorchScorer(3, ("write", "hold"), TrainConfig()), torch.nn.Module)


def test_an_ensemble_scores_the_members_mean_and_survives_a_round_trip(tiny, tmp_path) -> None:
    from shared_core.policy.model import Scorer, ScorerWeights
    from shared_core.training.train import ensemble

    tr, dev = tiny
    runs = [train(tr, dev, TrainConfig(epochs=2, seed=s), progress=False)[0] for s in (0, 1, 2)]
    both = ensemble(runs, dev)
    assert both.meta["members"] == 3 and len(both.members) == 2
    mean = np.mean([Scorer(r).logits(dev.x) for r in runs], axis=0)
    assert np.allclose(Scorer(both).logits(dev.x), mean)
    both.save(tmp_path / "w.json")
    again = ScorerWeights.load(tmp_path / "w.json")
    assert np.allclose(Scorer(again).logits(dev.x), mean, atol=1e-4) and again.temperature == both.temperature
