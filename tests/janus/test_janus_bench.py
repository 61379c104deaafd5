"""The simulated world and ``tarl bench janus`` (smoke): ground truth behaves as documented, runs are
reproducible, and the JSON record follows the bench convention."""

from __future__ import annotations

import json

import numpy as np
import pytest

from shared_core.bench import janus as bench
from shared_core.janus import AlwaysTrigger, JanusConfig
from shared_core.janus.simulator import (
    SimTask,
    World,
    WorldSpec,
    item,
    make_stream,
    parse_memory,
    propose,
)


def test_solver_uses_most_specific_item():
    world = World.create(0, WorldSpec(consistency=0.0))
    f = world.families[0]
    exc = world.exception[f]
    normal = next(c for c in ("basic", "negative", "large", "nested") if c != exc)
    task = SimTask(0, f, normal, world.true_rule(f, normal), "t")
    right, wrong = world.rules[(f, "all")], world.rules[(f, exc)]
    assert world.p_correct([], task) == world.spec.p_none
    assert world.p_correct([item(f, "all", right)], task) == world.spec.p_right
    assert world.p_correct([item(f, "all", right), item(f, normal, wrong)], task) == world.spec.p_misled
    assert parse_memory(["not an item", item(f, "all", "x"), item(f, "all", "y")]) == {(f, "all"): "y"}


def test_updater_proposes_valid_memories():
    stream = make_stream("steady", 1, 60)
    memory: tuple[str, ...] = ()
    for t, task in enumerate(stream.tasks):
        memory = propose(memory, task, t % 2 == 0, stream.world, np.random.default_rng(t))
        assert all(isinstance(m, str) and m for m in memory)
        assert len(parse_memory(memory)) == len(memory)          # one item per key
    assert memory


def test_rule_drift_changes_gold_half_way():
    stream = make_stream("rule_drift", 2, 200)
    fam = stream.world.families[0]
    early = {t.rule for t in stream.tasks[:100] if t.family == fam and t.context != stream.world.exception[fam]}
    late = {t.rule for t in stream.tasks[100:] if t.family == fam and t.context != stream.world.exception[fam]}
    assert len(early) == len(late) == 1 and early != late
    with pytest.raises(ValueError, match="stream kind"):
        make_stream("sideways", 0, 10)


def test_runs_are_reproducible():
    stream = make_stream("shifting", 3, 80)
    runs = [bench.run_system(stream, 3, JanusConfig(seed=3), AlwaysTrigger(20), 10) for _ in range(2)]
    assert runs[0].curve == runs[1].curve and runs[0].stats == runs[1].stats


def test_quick_bench_writes_the_convention_json(tmp_path, capsys):
    out = tmp_path / "janus.json"
    assert bench.main(["--quick", "--streams", "steady", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "janus" and "steady" in record["data"]
    assert set(bench.SYSTEMS) <= set(record["systems"])
    for row in record["systems"].values():
        assert {"final_acc", "comparisons_per_100", "evaluator_calls_per_100"} <= set(row)
        assert 0.0 <= row["final_acc"] <= 1.0
    assert record["systems"]["always_accept"]["comparisons_per_100"] == 0.0
    assert "target janus" in capsys.readouterr().out


def test_bad_flags_are_refused():
    with pytest.raises(SystemExit):
        bench.main(["--streams", "nope"])
