"""``tarl bench beliefs --agent``: a simulated model drives the belief tools by their text replies."""

from __future__ import annotations

import json

from shared_core.bench import beliefs as bench
from shared_core.bench import beliefs_agent as agent


def test_noise_changes_only_the_priors_the_chooser_sees():
    w = bench.make_world(4)
    n = agent.noisy(w, 4, 0.4)
    assert (n.parents, n.groups, n.bit, n.leaves) == (w.parents, w.groups, w.bit, w.leaves)
    assert n.prior != w.prior and agent.noisy(w, 4, 0.4) == n                       # seeded
    for g in n.groups:
        if g.closed:
            assert abs(sum(n.prior[m] for m in g.members) - 1) < 0.1
    assert agent.noisy(w, 4, 0.0) == w


def test_the_simulated_agent_reaches_a_true_leaf_through_the_tools_without_waste(engine):
    for seed, rule in ((0, "deepest"), (1, "argmax"), (2, "sample")):
        w = agent.noisy(bench.make_world(seed), seed, 0.2)
        timings: list[float] = []
        ep = agent.run_agent(w, engine, f"a{seed}", rule, seed, timings)   # raises on any error reply
        assert ep.wasted == 0 and ep.dead == 0 and 1 <= ep.experiments <= len(w.prior)
        assert len(timings) >= 3 * ep.experiments                             # next, start, record each
        results = [e for e in engine.state(f"a{seed}").entries.values() if e.metadata.get("kind") == "result"]
        assert len(results) == ep.experiments


def test_main_agent_quick_writes_rows_per_noise_level(tmp_path):
    out = tmp_path / "agent.json"
    assert bench.main(["--agent", "--quick", "--noise", "0.4", "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "beliefs" and record["mode"] == "agent"
    assert set(record["systems"]) == {f"{s}@0.4" for s in agent.SYSTEMS}
    for row in record["systems"].values():
        assert {"experiments_mean", "experiments_median", "wins", "losses", "lock_in_rate"} <= set(row)
    assert record["systems"]["engine_deepest@0.4"]["tool_ms_p50"] > 0
    assert record["systems"]["engine_deepest@0.4"]["wasted_mean"] == 0.0
