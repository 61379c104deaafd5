"""``tarl train``'s rollout calibration: two temperatures fitted on held-out hand-written episodes, saved
with the weights, and never a changed decision."""

from __future__ import annotations

import pytest

from shared_core.bench.corpus import HERE
from shared_core.bench.tarl_mem_examples import Vectors
from shared_core.bench.tarl_mem_rollout import rollout
from shared_core.bench.corpus import to_episode
from shared_core.index import default_embedder
from shared_core.policy import LearnedPolicy
from shared_core.policy.model import WEIGHTS_DIR, ScorerWeights
from shared_core.training.calibration import GRID, rollout_ece, temperatures
from shared_core.training.cli import CALIBRATE_ON, held_out_episodes


@pytest.fixture(scope="module")
def held() -> list:
    return held_out_episodes(HERE, CALIBRATE_ON.split(","))[:8]


def test_both_temperatures_are_refitted_saved_and_decide_nothing(held, tmp_path) -> None:
    vectors = Vectors(default_embedder())
    shipped = ScorerWeights.load(WEIGHTS_DIR / "tarl.json")
    fitted, note = temperatures(shipped, held, vectors, grid=(0.6, 1.0, 2.0))
    assert fitted.temperature in (0.6, 1.0, 2.0) and fitted.temperature_slotted in (0.6, 1.0, 2.0)
    assert fitted.meta["temperature_refit"] == note and "8 hand-written episodes" in note
    for slots, t in ((False, fitted.temperature), (True, fitted.temperature_slotted)):
        scan = {u: rollout_ece(ScorerWeights(**{**vars(shipped), "temperature": u, "temperature_slotted": u}), held,
                               vectors, slots=slots) for u in (0.6, 1.0, 2.0)}
        assert scan[t] == min(scan.values())
    fitted.save(tmp_path / "t.json")
    again = ScorerWeights.load(tmp_path / "t.json")
    assert (again.temperature, again.temperature_slotted) == (fitted.temperature, fitted.temperature_slotted)
    for slots in (False, True):     # a temperature rescales scores: the argmax, so every decision, is the same
        episodes = [to_episode(r, slots=slots) for r in held]
        before = [s.pred for s in rollout("learned", LearnedPolicy(shipped), episodes, vectors)]
        after = [s.pred for s in rollout("learned", LearnedPolicy(again), episodes, vectors)]
        assert before == after


def test_the_grid_holds_the_shipped_temperatures() -> None:
    shipped = ScorerWeights.load(WEIGHTS_DIR / "tarl.json")
    assert shipped.temperature in GRID and shipped.temperature_slotted in GRID


def test_an_unknown_calibration_file_is_an_error_naming_it() -> None:
    with pytest.raises(SystemExit, match="no file nope.jsonl"):
        held_out_episodes(HERE, ["f.jsonl", "nope.jsonl"])
