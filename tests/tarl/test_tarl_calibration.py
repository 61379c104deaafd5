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
from hypothesis import assume, given
from hypothesis import strategies as st

from shared_core.policy.contract import ACTIONS
from shared_core.policy.model import recalibrated
from shared_core.training.calibration import GRID, confidence_map, rollout_ece, temperatures
from shared_core.training.cli import CALIBRATE_ON, held_out_episodes


@pytest.fixture(scope="module")
def held() -> list:
    return held_out_episodes(HERE, CALIBRATE_ON.split(","))[:16]   # (the first 12 all right when slotted: no slope to fit)


def test_both_temperatures_are_refitted_saved_and_decide_nothing(held, tmp_path) -> None:
    vectors = Vectors(default_embedder())
    shipped = ScorerWeights.load(WEIGHTS_DIR / "tarl.json")
    fitted, note = temperatures(shipped, held, vectors, grid=(0.6, 1.0, 2.0))
    assert fitted.temperature in (0.6, 1.0, 2.0) and fitted.temperature_slotted in (0.6, 1.0, 2.0)
    assert fitted.meta["temperature_refit"] == note and "16 hand-written episodes" in note
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


def test_both_confidence_maps_are_fitted_saved_and_decide_nothing(held, tmp_path) -> None:
    vectors = Vectors(default_embedder())
    shipped = ScorerWeights.load(WEIGHTS_DIR / "tarl.json")
    bare = ScorerWeights(**{**vars(shipped), "confidence_slotted": None, "confidence_free": None})
    fitted, note = confidence_map(bare, held, vectors)
    assert fitted.meta["confidence_refit"] == note and "16 hand-written episodes" in note
    fitted.save(tmp_path / "c.json")
    again = ScorerWeights.load(tmp_path / "c.json")
    for slots, key in ((False, "confidence_free"), (True, "confidence_slotted")):
        a, b = getattr(fitted, key)
        assert 0 < a and getattr(again, key) == (a, b)
        assert rollout_ece(fitted, held, vectors, slots=slots) <= rollout_ece(bare, held, vectors, slots=slots)
        episodes = [to_episode(r, slots=slots) for r in held]   # the map reads the settled decision: no action moves
        before = rollout("learned", LearnedPolicy(bare), episodes, vectors)
        after = rollout("learned", LearnedPolicy(again), episodes, vectors)
        assert [(s.pred, s.target) for s in before] == [(s.pred, s.target) for s in after]
        assert any(x.confidence != y.confidence for x, y in zip(before, after))


@given(st.lists(st.floats(0.0, 1.0), min_size=len(ACTIONS), max_size=len(ACTIONS)), st.floats(0.05, 3.0),
       st.floats(-3.0, 3.0))
def test_a_recalibrated_decision_still_sums_to_one_and_keeps_its_order(raw, a, b) -> None:
    assume(sum(raw) > 0)
    probs = {k: v / sum(raw) for k, v in zip(ACTIONS, raw)}
    action = max(probs, key=probs.get)
    out = recalibrated(probs, action, (a, b))
    assert list(out) == [action, *(k for k in probs if k != action)]
    assert abs(sum(out.values()) - 1.0) < 1e-9 and all(v >= 0 for v in out.values())
    rest = [k for k in probs if k != action and probs[k] > 1e-9]
    ratios = [out[k] / probs[k] for k in rest]      # the others keep their proportions
    assert not ratios or max(ratios) - min(ratios) < 1e-6


def test_the_engine_reports_each_kind_of_claim_through_its_own_map() -> None:
    from shared_core import MemoryEngine
    from shared_core.escalation import EscalatingPolicy

    weights = ScorerWeights.load(WEIGHTS_DIR / "tarl.json")
    assert weights.confidence_slotted is not None and weights.confidence_free is not None
    bare = LearnedPolicy(ScorerWeights(**{**vars(weights), "confidence_slotted": None, "confidence_free": None}))

    def refuse(request):            # a judge that fails: every decision stays the base policy's
        raise RuntimeError("no judge here")

    writes = [("I live in Porto", None), ("I live in Porto", "user.city"), ("moved to Lisbon last week", "user.city"),
              ("my sister says I live in Faro", "user.city"), ("I like jazz", None), ("I also like techno", "user.likes")]
    for policy in (LearnedPolicy(weights), EscalatingPolicy(LearnedPolicy(weights), refuse)):
        with MemoryEngine.open(policy=bare) as plain, MemoryEngine.open(policy=policy) as mapped:
            for text, slot in writes:
                claim = {"text": text, "namespace": "u", "slot": slot}
                want, got = plain.write(claim), mapped.write(claim)
                assert got.action is want.action and (got.target_id is None) == (want.target_id is None)
                expect = recalibrated(want.probabilities, want.action.value,
                                      weights.confidence_slotted if slot else weights.confidence_free)
                assert got.probabilities == pytest.approx(expect)
