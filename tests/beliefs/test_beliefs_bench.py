"""The R&D-search benchmark: fair worlds, the engine run through MemoryEngine, the output convention."""

from __future__ import annotations

import json
import random

from shared_core.bench import beliefs as bench


def test_worlds_have_a_true_path_and_honest_closed_groups():
    for seed in range(20):
        w = bench.make_world(seed)
        assert any(w.holds(leaf) for leaf in w.leaves)
        for g in w.groups:
            if g.closed:
                assert sum(w.bit[m] for m in g.members) == 1
                assert all(w.parents[m] == ((g.parent,) if g.parent is not None else ()) for m in g.members)
        assert bench.make_world(seed) == w                        # seeded


def test_engine_never_tests_a_settled_hypothesis_and_reaches_a_true_leaf(engine):
    for seed in (0, 1, 2):
        w = bench.make_world(seed)
        ep = bench.run_engine(w, random.Random(seed), engine, f"w{seed}")
        assert ep.wasted == 0 and ep.dead == 0
        assert 1 <= ep.experiments <= len(w.prior)
        # the ledger holds the whole search: every experiment and result is an entry
        kinds = [e.metadata.get("kind") for e in engine.state(f"w{seed}").entries.values()]
        assert kinds.count("result") == ep.experiments


def test_baselines_remember_every_result():
    w = bench.make_world(3)
    for mode in ("sample", "greedy", "frontier"):
        ep = bench.run_baseline(w, random.Random(0), mode)
        assert len(set(ep.order)) == len(ep.order) == ep.experiments


def test_main_quick_writes_the_json_record(tmp_path):
    out = tmp_path / "beliefs.json"
    assert bench.main(["--quick", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "beliefs"
    for system in ("engine", "perfect_recall", "greedy"):
        assert {"experiments_median", "experiments_mean", "wins", "losses"} <= set(record["systems"][system])
    assert record["systems"]["engine"]["wasted_mean"] == 0.0
