"""The controller: ties go to the candidate, rejections keep memory, statistics, evaluation-set
composition, and bad input refused with a clear error and no state change."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from shared_core.janus import (
    AlwaysTrigger,
    EmbeddingError,
    EmptyMemoryError,
    EvaluatorError,
    JanusConfig,
    JanusController,
    JanusError,
    MemoryFormatError,
    Verdict,
)
from shared_core.index import HashingEmbedder

EMBED = HashingEmbedder(dim=256, char_dims=64)
TASKS = [f"task {i} topic{i % 3}" for i in range(40)]


def scripted(candidates):
    """An updater that proposes the given memories in order (the last one forever after)."""
    queue = list(candidates)

    def propose(memory, task, feedback):
        return queue.pop(0) if len(queue) > 1 else queue[0]

    return propose


def by_item(scores: dict[str, float], default: float = 0.0):
    """Score of a memory = best score of its items (items not listed score ``default``)."""

    def evaluate(memory, task):
        return max([scores.get(m, default) for m in memory] or [default])

    return evaluate


def gate(propose, evaluate, *, warmup=0, memory=("base",), **cfg):
    config = JanusConfig(warmup=warmup, **cfg)
    return JanusController(propose, evaluate, EMBED, config=config, memory=memory, trigger=AlwaysTrigger(warmup))


def snapshot(g):
    m = getattr(g.trigger, "momentum", None)
    return (g.memory, vars(g.stats).copy(), g.trigger.steps, None if m is None else m.tolist(),
            len(g.tasks), g.boundary, g.coverage)


def test_tie_goes_to_candidate():
    g = gate(scripted([("new",)]), lambda memory, task: 0.5)
    d = g.step(TASKS[0])
    assert d.verdict is Verdict.TIE and d.accepted and g.memory == ("new",)
    assert d.score_current == d.score_candidate == 0.5
    assert (g.stats.triggers, g.stats.comparisons, g.stats.accepted, g.stats.rejected) == (1, 1, 1, 0)


def test_worse_candidate_is_rejected_and_memory_unchanged():
    g = gate(scripted([("bad",)]), by_item({"base": 1.0, "bad": 0.0}))
    d = g.step(TASKS[0])
    assert d.verdict is Verdict.CURRENT_BETTER and not d.accepted
    assert g.memory == ("base",) and d.memory == ("base",)
    assert (g.stats.rejected, g.stats.accepted) == (1, 0)
    assert g.stats.evaluator_calls == 2 * len(d.eval_set)


def test_better_candidate_is_accepted():
    g = gate(scripted([("base", "good")]), by_item({"base": 0.2, "good": 0.9}))
    d = g.step(TASKS[0])
    assert d.verdict is Verdict.CANDIDATE_BETTER and g.memory == ("base", "good")
    assert d.score_candidate == pytest.approx(0.9) and d.score_current == pytest.approx(0.2)


def test_unchanged_candidate_costs_nothing():
    g = gate(scripted([("base",)]), by_item({}))
    d = g.step(TASKS[0])
    assert d.verdict is Verdict.UNCHANGED and not d.triggered
    assert (g.stats.triggers, g.stats.evaluator_calls, g.stats.accepted) == (0, 0, 0)


def test_warmup_accepts_without_comparison():
    calls = []
    g = gate(scripted([(f"m{i}",) for i in range(6)]), lambda m, t: calls.append(t) or 0.0, warmup=3)
    verdicts = [g.step(t).verdict for t in TASKS[:5]]
    assert verdicts[:3] == [Verdict.WARMUP] * 3
    assert verdicts[3:] == [Verdict.TIE] * 2
    assert g.stats.accepted == 5 and g.stats.triggers == 2 and calls


def test_evaluation_set_composition():
    """warm-up 8: coverage 3 k-means reps of the warm-up tasks, boundary bootstrapped from the other
    warm-up tasks; at the first trigger fresh = sample of the tasks since warm-up incl. the current."""
    g = gate(scripted([(f"m{i}",) for i in range(20)]), lambda m, t: 0.0, warmup=8, coverage=3, boundary=4, fresh=2)
    for t in TASKS[:8]:
        g.step(t)
    assert len(g.coverage) == 3 and len(g.boundary) == 4
    assert not set(g.coverage) & set(g.boundary) and set(g.boundary) <= set(range(8))
    for t in TASKS[8:10]:
        g.step(t)
    boundary_before = g.boundary
    d = g.step(TASKS[10])
    # tasks 8, 9 were compared too (AlwaysTrigger), so at step 10 pending = {10}
    es = d.eval_set
    assert es.fresh == (10,) and len(es.coverage) == 3
    assert es.boundary == tuple(b for b in boundary_before if b not in es.coverage)
    assert len(es) == len(set(es.tasks)) == 3 + len(es.boundary) + 1


def test_flips_refill_boundary():
    # candidate fixes tasks with topic0 (flip), otherwise equal: flips become the boundary set
    def evaluate(memory, task):
        return 1.0 if "fix" in memory and task.endswith("topic0") else 0.0

    g = gate(scripted([*[(f"w{i}",) for i in range(6)], ("w5", "fix")]), evaluate, warmup=6, coverage=2, boundary=3, fresh=5)
    for t in TASKS[:7]:
        d = g.step(t)
    assert d.verdict is Verdict.CANDIDATE_BETTER
    flips = [i for i in d.eval_set.tasks if TASKS[i].endswith("topic0")]
    assert set(d.flips) == set(flips)
    assert set(g.boundary) >= set(flips) - set(d.eval_set.coverage)


@pytest.mark.parametrize(
    ("candidate", "error"),
    [((), EmptyMemoryError), ("base plus", MemoryFormatError), (["ok", ""], MemoryFormatError),
     (["ok", 3], MemoryFormatError), (None, MemoryFormatError)],
)
def test_bad_candidate_is_refused_and_nothing_changes(candidate, error):
    g = gate(scripted([("x",), candidate]), lambda m, t: 0.5)
    g.step(TASKS[0])
    before = snapshot(g)
    with pytest.raises(error) as info:
        g.step(TASKS[1])
    assert "candidate" in str(info.value)
    assert snapshot(g) == before


def test_empty_candidate_allowed_when_configured_or_memory_empty():
    g = gate(scripted([()]), lambda m, t: 0.5, allow_empty=True)
    assert g.step(TASKS[0]).accepted and g.memory == ()
    g2 = gate(scripted([()]), lambda m, t: 0.5, memory=())
    assert g2.step(TASKS[0]).verdict is Verdict.UNCHANGED


@pytest.mark.parametrize("bad", [math.nan, float("inf"), "1.0", None, [1.0]])
def test_evaluator_returning_non_number_is_an_error(bad):
    g = gate(scripted([("x",), ("y",)]), lambda m, t: 0.5)
    g.step(TASKS[0])
    g._evaluate = lambda m, t: bad if m == ("y",) else 0.5
    before = snapshot(g)
    with pytest.raises(EvaluatorError, match="memory=candidate") as info:
        g.step(TASKS[1])
    assert repr(bad) in str(info.value) and isinstance(info.value, ValueError)
    assert snapshot(g) == before


def test_evaluator_raising_is_wrapped_and_memory_unchanged():
    def evaluate(memory, task):
        raise RuntimeError("judge timed out")

    g = gate(scripted([("x",)]), evaluate)
    before = snapshot(g)
    with pytest.raises(EvaluatorError, match="judge timed out"):
        g.step(TASKS[0])
    assert snapshot(g) == before
    g._evaluate = lambda m, t: 1.0                     # retry after the judge recovers
    assert g.step(TASKS[0]).accepted and g.memory == ("x",) and len(g.tasks) == 1


def test_numpy_and_bool_scores_are_numbers():
    g = gate(scripted([("x",)]), lambda m, t: np.float32(0.5) if m == ("x",) else np.True_)
    assert g.step(TASKS[0]).verdict is Verdict.CURRENT_BETTER


def test_failing_sink_leaves_controller_unchanged():
    g = gate(scripted([("x",)]), lambda m, t: 1.0)

    def sink(decision):
        raise OSError("disk full")

    g.sink = sink
    before = snapshot(g)
    with pytest.raises(OSError):
        g.step(TASKS[0])
    assert snapshot(g) == before


def test_bad_embedder_is_refused():
    g = JanusController(scripted([("x",)]), lambda m, t: 1.0, lambda texts: np.zeros((1, 4)), memory=("a",))
    with pytest.raises(EmbeddingError, match="shape"):
        g.step(TASKS[0])
    g2 = JanusController(scripted([("x",)]), lambda m, t: 1.0, lambda texts: np.full((len(texts), 4), np.nan))
    with pytest.raises(EmbeddingError, match="NaN"):
        g2.step(TASKS[0])
    assert g.memory == ("a",) and g.stats.steps == 0


def test_initial_memory_is_validated():
    with pytest.raises(MemoryFormatError, match="memory"):
        JanusController(scripted([("x",)]), lambda m, t: 1.0, EMBED, memory="one string")


def test_config_is_validated():
    with pytest.raises(ValidationError, match="coverage, boundary and fresh"):
        JanusConfig(coverage=0, boundary=0, fresh=0)
    with pytest.raises(ValidationError, match="beta"):
        JanusConfig(beta=1.5)
    assert issubclass(EmptyMemoryError, JanusError) and issubclass(JanusError, ValueError)


def test_momentum_trigger_drives_comparisons():
    """With a lookup embedder the update directions are known: a continuation passes, a reversal
    (undoing what was just added) is compared."""
    vecs = {"a": [1.0, 0.0, 0.0], "b": [0.0, 1.0, 0.0], "c": [0.0, 0.0, 1.0]}

    def embed(texts):
        return np.array([vecs.get(t, [0.0, 0.0, 0.0]) for t in texts])

    steps = [("a",), ("a", "b"), ("a", "b", "c"), ("a",)]
    g = JanusController(scripted(steps), lambda m, t: 1.0, embed, config=JanusConfig(warmup=1), memory=())
    verdicts = [g.step("t").verdict for _ in steps]
    # z1 = a; z2 = (a+b)/2 - a = (-a+b)/2 (cos with m=a is -0.71 < 0: compared);
    # z3 = (a+b+c)/3 - (a+b)/2 (cos with m ~ 0.9a + 0.1 z2 < 0: compared);
    # z4 = a - (a+b+c)/3 = (2a-b-c)/3, cos with the momentum > 0: passes
    assert verdicts == [Verdict.WARMUP, Verdict.TIE, Verdict.TIE, Verdict.NO_TRIGGER]
    assert g.stats.comparisons == 2


@settings(max_examples=40, deadline=None)
@given(
    proposals=st.lists(st.lists(st.sampled_from(["r1", "r2", "r3", "r4"]), min_size=1, max_size=3), min_size=1, max_size=30),
    scores=st.dictionaries(st.sampled_from(["r1", "r2", "r3", "r4", "base"]), st.sampled_from([0.0, 0.5, 1.0])),
    warmup=st.integers(0, 5),
)
def test_decision_invariants(proposals, scores, warmup):
    g = JanusController(scripted([tuple(p) for p in proposals]), by_item(scores), EMBED,
                        config=JanusConfig(warmup=warmup, coverage=3, boundary=2, fresh=2), memory=("base",))
    calls, unchanged = 0, 0
    for i in range(len(proposals)):
        before = g.memory
        d = g.step(TASKS[i])
        assert d.current == before and g.memory == d.memory in (d.current, d.candidate)
        if d.triggered:
            calls += 2 * len(d.eval_set)
            assert d.accepted == (d.score_candidate >= d.score_current)
        else:
            assert d.accepted
        if i < warmup:
            assert not d.triggered
        unchanged += d.verdict is Verdict.UNCHANGED
    s = g.stats
    assert s.steps == len(proposals) == s.accepted + s.rejected + unchanged
    assert s.evaluator_calls == calls and s.comparisons <= s.triggers


def test_default_embedder_is_the_projects():
    g = JanusController(scripted([("use the unit check",), ("use the unit check", "carry the one")]),
                        lambda m, t: float(len(m)), config=JanusConfig(warmup=1))
    g.step("add 17 and 25")
    d = g.step("convert 3 km to m")
    assert d.accepted and g.memory == ("use the unit check", "carry the one")
