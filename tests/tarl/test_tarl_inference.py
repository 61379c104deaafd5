"""The learned policy loads from the shipped weights and runs without torch; its probabilities are a
distribution that never puts mass on an action the executor would refuse."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.policy.features import FEATURE_NAMES
from shared_core.policy.learned import DEFAULT_WEIGHTS
from shared_core.policy.model import Scorer, ScorerWeights

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_weights_load_and_decide_with_torch_blocked() -> None:
    code = textwrap.dedent("""
        import sys
        sys.modules["torch"] = None          # any import of torch now raises ImportError
        sys.modules["sklearn"] = None
        from shared_core.grounding import ground
        from shared_core.policy import LearnedPolicy
        from shared_core.schema import Claim
        d = LearnedPolicy().decide(Claim(text="I live in Lisbon"), ground(Claim(text="I live in Lisbon"), []), None)
        assert abs(sum(d.probabilities.values()) - 1) < 1e-6, d
        assert "torch" not in [m for m, v in sys.modules.items() if v is not None]
        print(d.action.value)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() in {"append", "defer_verify", "noop"}


def test_shipped_weights_are_small_json_with_calibrated_temperature() -> None:
    assert DEFAULT_WEIGHTS.suffix == ".json" and DEFAULT_WEIGHTS.stat().st_size < 200_000
    w = ScorerWeights.load(DEFAULT_WEIGHTS)
    assert w.actions == ("append", "noop", "revise", "reject_conflict", "defer_verify")
    assert 0.05 < w.temperature < 20 and w.meta["objective"] == "counterfactual"


def test_slotted_claims_have_their_own_temperature_and_it_survives_a_round_trip(tmp_path: Path) -> None:
    """Calibration only: the same action either way, a sharper distribution for the slotted claim."""
    from shared_core.grounding import Grounding
    from shared_core.policy import LearnedPolicy
    from shared_core.schema import Claim

    w = ScorerWeights.load(DEFAULT_WEIGHTS)
    assert w.temperature_slotted is not None and w.temperature_slotted < w.temperature
    w.save(tmp_path / "w.json")
    again = ScorerWeights.load(tmp_path / "w.json")
    assert (again.temperature, again.temperature_slotted) == (w.temperature, w.temperature_slotted)
    policy, g = LearnedPolicy(again), Grounding(None, 0.0, {"source_prior": 0.95})
    free = policy.decide(Claim(text="I live in Porto", namespace="u"), g, None)
    slotted = policy.decide(Claim(text="I live in Porto", namespace="u", slot="user.city"), g, None)
    assert free.action is slotted.action
    assert slotted.probabilities[slotted.action.value] > free.probabilities[free.action.value]


def test_the_shipped_blend_gives_each_round_half_and_lowers_only_noop(tmp_path: Path) -> None:
    """The shipped weights are two rounds' networks, each half of the mean score, and lower noop's score (a dropped
    fact costs more than a repeat kept): only noop's column moves, by exactly the offset; a saved file keeps both; an
    offset for no action, or shares for other networks, are refused by name."""
    from dataclasses import replace

    import pytest

    w = ScorerWeights.load(DEFAULT_WEIGHTS)
    assert w.offsets.get("noop", 0.0) < 0.0 and w.meta.get("blended_with")
    assert w.shares is not None and abs(sum(w.shares) - 1.0) < 1e-6 and len(w.shares) == 1 + len(w.members)
    x = np.random.default_rng(0).normal(size=(16, len(FEATURE_NAMES)))
    moved = Scorer(w).logits(x) - Scorer(replace(w, offsets={})).logits(x)
    assert np.allclose(moved, np.asarray([w.offsets.get(a, 0.0) for a in w.actions])[None, :])
    w.save(tmp_path / "w.json")
    again = ScorerWeights.load(tmp_path / "w.json")
    assert again.offsets == w.offsets and again.shares == pytest.approx(w.shares)
    with pytest.raises(ValueError, match="skip"):
        Scorer(replace(w, offsets={"skip": -1.0}))
    with pytest.raises(ValueError, match="shares"):
        Scorer(replace(w, shares=(1.0,)))


def test_a_blend_is_the_mean_of_the_two_rounds_scores() -> None:
    """However many networks each round has, the blend scores halfway between the two rounds' own scores."""
    from dataclasses import replace

    w = ScorerWeights.load(DEFAULT_WEIGHTS)
    one = replace(w, members=[], shares=None, offsets={})                           # one network
    five = replace(w, arrays=w.members[0], members=w.members[1:4], shares=None, offsets={})    # four others
    x = np.random.default_rng(1).normal(size=(8, len(FEATURE_NAMES)))
    both = Scorer(five.blend(one)).logits(x)
    assert np.allclose(both, 0.5 * Scorer(five).logits(x) + 0.5 * Scorer(one).logits(x))


SCORER = Scorer(ScorerWeights.load(DEFAULT_WEIGHTS))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=len(FEATURE_NAMES), max_size=len(FEATURE_NAMES)))
def test_the_networks_scored_as_one_stacked_network_score_as_each_does(x: list[float]) -> None:
    """The shipped networks are scored as one (``_Stacked``: standardisation folded in, shares in the output weights):
    the scores are the members' weighted mean, network by network, to rounding."""
    row = np.asarray([x])
    each = [m.logits(row) for m in SCORER._members]
    mean = np.average(each, axis=0, weights=SCORER.weights.shares) + SCORER._offset
    assert SCORER._stacked is not None and np.allclose(SCORER.logits(row), mean, rtol=1e-12, atol=1e-10)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(-3, 3), min_size=len(FEATURE_NAMES), max_size=len(FEATURE_NAMES)),
       st.booleans())
def test_probabilities_are_a_distribution_and_a_mask_removes_refused_actions(x: list[float], has_target: bool) -> None:
    mask = np.array([True, True, has_target, has_target, True])
    full = SCORER.probabilities(np.asarray(x))[0]
    p = SCORER.probabilities(np.asarray(x), mask)[0]
    assert np.isclose(full.sum(), 1.0) and np.isclose(p.sum(), 1.0) and (p >= 0).all()
    assert has_target or (p[2] == 0 and p[3] == 0)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Ana moved to Oslo", "maybe Ana moved to Oslo", "Order #AB123 is delivered", "ok thanks"]),
       st.sampled_from(["user", "tool", "web", "third_party"]))
def test_learned_policy_never_executes_a_refused_action(text: str, source: str) -> None:
    from shared_core.grounding import ground
    from shared_core.policy import LearnedPolicy
    from shared_core.schema import Action, Claim

    d = LearnedPolicy().decide(Claim(text=text, source=source), ground(Claim(text=text), []), None)
    assert d.action not in (Action.REVISE, Action.REJECT_CONFLICT) and d.target_id is None
    assert np.isclose(sum(d.probabilities.values()), 1.0)
