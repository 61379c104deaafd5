"""``tarl bench beliefs --agent``: the belief tools with a model in the loop.

The worlds are ``tarl bench beliefs``'s seeded hypothesis DAGs. The model is simulated: a chooser with
its own *noisy* prior (log-normal noise of sigma 0, 0.2, 0.4 on the calibrated prior, renormalised in
closed groups; the world and its truth stay the same at every noise level). Systems:

- ``engine``, ``engine_argmax``, ``engine_deepest``: the chooser drives :class:`BeliefTools` by text,
  as an LLM would: ``declare_question`` / ``propose_hypothesis`` with its priors, then per experiment
  ``next_to_test`` (rule "sample", "argmax" or "deepest" -- the tools' default), ``start_experiment``
  and ``record_result``. It reads the ids out of
  the replies; pruning, exhaustion and deduction happen in the engine.
- ``perfect_recall``, ``perfect_recall_frontier``, ``greedy``: the chooser alone with a perfect
  memory of every result (sampling by prior; sampling top-down with premises confirmed first;
  greedy on its prior); no inferences.

Metrics per noise level (rows ``system@noise``): experiments to goal (per-seed mean over episodes),
ratio and per-seed wins/losses against ``perfect_recall_frontier``, the dead-path lock-in rate (share
of episodes needing more than 3x the median of ``perfect_recall_frontier``'s episodes on the same
world; also > 2x, and the worst episode's multiple), experiments wasted on already-settled
hypotheses, and the tool round trip (``BeliefTools.call``: validation, engine transaction, reply
text) p50/p95 in milliseconds: each call after the engine's index write-behind has settled, as between
two model turns, and also back to back (``back_to_back``: the previous write's indexing competes for
the interpreter).
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import statistics
import time
from collections.abc import Sequence

from .beliefs import Episode, Knowledge, World, _observe, _perturb, make_world, run_baseline
from ..beliefs.tools import DEFAULT_RULE
from .report import Report, bench_args

SYSTEMS = ("engine", "engine_argmax", "engine_deepest", "perfect_recall", "perfect_recall_frontier", "greedy")
NOISE = (0.0, 0.2, 0.4)
REFERENCE = "perfect_recall_frontier"
LOCK_IN = 3.0
_LISTED = re.compile(r"(H\d+) 'hypothesis (\d+)'")
_NEXT = re.compile(r"^Test (H\d+) next: 'hypothesis (\d+)'")


def noisy(world: World, seed: int, noise: float) -> World:
    """The same world, seen through the chooser's noisy prior (its own seeded draw)."""
    shown = _perturb(random.Random(f"{seed}:prior-noise"), list(world.prior), list(world.groups), noise)
    return dataclasses.replace(world, prior=tuple(shown))


class SimulatedAgent:
    """Stands in for the LLM: states the world's questions and hypotheses through the tools, then
    follows ``next_to_test`` and reports each experiment's outcome. Reads only the tools' replies."""

    def __init__(self, world: World, tools: object, timings: list[float]) -> None:
        from ..beliefs.tools import BeliefTools

        assert isinstance(tools, BeliefTools)
        self.world, self.tools, self.timings = world, tools, timings
        self.alias: dict[int, str] = {}

    def call(self, name: str, **args: object) -> str:
        self.tools.engine.flush()        # a model thinks between calls: the index write-behind has settled
        start = time.perf_counter()
        reply = self.tools.call(name, args)
        self.timings.append((time.perf_counter() - start) * 1000)
        if reply.startswith("error"):
            raise RuntimeError(f"{name}({args}): {reply}")
        return reply

    def state_the_problem(self) -> None:
        w = self.world
        for g in w.groups:                                  # parents first
            shared = all(w.parents[m] == w.parents[g.members[0]] for m in g.members)
            rests = [self.alias[p] for p in w.parents[g.members[0]]] if shared else []
            candidates = [{"text": f"hypothesis {m}", "prior": w.prior[m]} for m in g.members] if shared else []
            reply = self.call("declare_question", question=f"question {g.id}", closed_world=g.closed,
                              candidates=candidates, rests_on=rests)
            question = reply.split()[0]
            self.alias.update({int(n): h for h, n in _LISTED.findall(reply)})
            if not shared:
                for m in g.members:
                    reply = self.call("propose_hypothesis", text=f"hypothesis {m}", prior=w.prior[m],
                                      rests_on=[self.alias[p] for p in w.parents[m]], answers=question)
                    self.alias[m] = reply.split()[0]

    def test_next(self) -> int:
        found = _NEXT.match(self.call("next_to_test"))
        if found is None:
            raise RuntimeError("next_to_test suggested nothing before the goal")
        h, node = found.group(1), int(found.group(2))
        self.call("start_experiment", hypothesis=h, description=f"test of hypothesis {node}")
        outcome = self.world.bit[node]
        self.call("record_result", hypothesis=h, confirmed=outcome, evidence=f"observed: {outcome}")
        return node


def run_agent(world: World, engine: object, namespace: str, rule: str, seed: int, timings: list[float]) -> Episode:
    from ..beliefs.tools import BeliefTools
    from ..engine import MemoryEngine

    assert isinstance(engine, MemoryEngine)
    agent = SimulatedAgent(world, BeliefTools(engine, namespace, rule=rule, seed=seed), timings)  # type: ignore[arg-type]
    agent.state_the_problem()
    leaves = {f"hypothesis {leaf}" for leaf in world.leaves}
    k, ep = Knowledge(world), Episode(0)
    while ep.experiments < len(world.prior):
        held = [e.text for e in engine.accepted(namespace) if e.text in leaves]
        if held:
            assert all(world.holds(int(t.split()[1])) for t in held), "the tools established a false leaf"
            break
        node = agent.test_next()
        _observe(k, ep, node)
    return ep


def back_to_back(calls: int = 60) -> list[float]:
    """Tool calls with no pause between them (the write-behind of one write still running during the
    next call), on one open question of ``calls`` candidates: next_to_test, start, record, repeated."""
    from ..beliefs.tools import BeliefTools
    from ..engine import MemoryEngine

    out: list[float] = []
    with MemoryEngine.open() as engine:
        tools = BeliefTools(engine, "back_to_back")
        tools.call("declare_question", {"question": "which?", "closed_world": False,
                                        "candidates": [{"text": f"candidate {i}"} for i in range(calls)]})
        for i in range(1, calls + 1):
            for name, args in (("next_to_test", {}), ("start_experiment", {"hypothesis": f"H{i}"}),
                               ("record_result", {"hypothesis": f"H{i}", "confirmed": False, "evidence": "none"})):
                start = time.perf_counter()
                tools.call(name, args)
                out.append((time.perf_counter() - start) * 1000)
    return out


def evaluate(seeds: Sequence[int], episodes: int, depth: int, noise: float,
             timings: list[float]) -> dict[str, list[list[Episode]]]:
    from ..engine import MemoryEngine
    from ..index import HashingEmbedder

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    out: dict[str, list[list[Episode]]] = {s: [] for s in SYSTEMS}
    with MemoryEngine.open(embedder=HashingEmbedder(dim=128, char_dims=32)) as engine:
        for seed in seeds:
            world = noisy(make_world(seed, depth), seed, noise)
            tag = f"n{noise}w{seed}"
            out["engine"].append([run_agent(world, engine, f"{tag}s{e}", "sample", seed * 1000 + e, timings)
                                  for e in range(episodes)])
            out["engine_argmax"].append([run_agent(world, engine, f"{tag}a", "argmax", seed, timings)])
            out["engine_deepest"].append([run_agent(world, engine, f"{tag}d", "deepest", seed, timings)])
            rng = {s: random.Random(f"{seed}:{s}") for s in SYSTEMS}
            for system, mode in (("perfect_recall", "sample"), ("perfect_recall_frontier", "frontier")):
                out[system].append([run_baseline(world, rng[system], mode) for _ in range(episodes)])
            out["greedy"].append([run_baseline(world, rng["greedy"], "greedy")])     # deterministic
    return out


def per_seed(runs: dict[str, list[list[Episode]]]) -> dict[str, list[float]]:
    return {s: [statistics.fmean(e.experiments for e in eps) for eps in runs[s]] for s in SYSTEMS}


def summarise(runs: dict[str, list[list[Episode]]]) -> dict[str, dict[str, float]]:
    means = per_seed(runs)
    reference = [statistics.median(e.experiments for e in eps) for eps in runs[REFERENCE]]
    base = means[REFERENCE]
    rows = {}
    for s in SYSTEMS:
        ratios = [e.experiments / ref for eps, ref in zip(runs[s], reference) for e in eps]
        rows[s] = {
            "experiments_mean": statistics.fmean(means[s]),
            "experiments_median": statistics.median(means[s]),
            "ratio_to_prf": statistics.fmean(means[s]) / statistics.fmean(base),
            "wins": sum(a < b for a, b in zip(means[s], base)),
            "losses": sum(a > b for a, b in zip(means[s], base)),
            "lock_in_rate": statistics.fmean(r > LOCK_IN for r in ratios),
            "over_2x_rate": statistics.fmean(r > 2.0 for r in ratios),
            "worst_ratio": max(ratios),
            "wasted_mean": statistics.fmean(e.wasted for eps in runs[s] for e in eps),
        }
    return rows


def main(argv: list[str]) -> int:
    p = bench_args("beliefs", "R&D search with a simulated model driving the belief tools, at several prior noises")
    p.add_argument("--agent", action="store_true", help="(this mode)")
    p.add_argument("--seeds", type=int, default=30)
    p.add_argument("--episodes", type=int, default=10, help="episodes per seed for the sampling systems")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--noise", type=float, nargs="+", default=list(NOISE), help="prior-noise sigmas")
    args = p.parse_args(argv)
    seeds = list(range(args.seed, args.seed + (4 if args.quick else args.seeds)))
    episodes = 2 if args.quick else args.episodes
    report = Report("beliefs", f"simulated agent (seeds {seeds[0]}..{seeds[-1]}, {episodes} episodes/seed for "
                               f"sampling systems, 1 for deterministic ones, depth {args.depth}, prior noise "
                               f"{', '.join(str(n) for n in args.noise)})")
    timings: list[float] = []
    seeds_out: dict[str, dict[str, list[float]]] = {}
    for noise in args.noise:
        runs = evaluate(seeds, episodes, args.depth, noise, timings)
        for system, row in summarise(runs).items():
            report.add(f"{system}@{noise}", **row)
        seeds_out[str(noise)] = per_seed(runs)
    q, rushed = statistics.quantiles(timings, n=20), back_to_back(12 if args.quick else 60)
    for system in ("engine", "engine_argmax", "engine_deepest"):
        for noise in args.noise:
            report.add(f"{system}@{noise}", tool_ms_p50=statistics.median(timings), tool_ms_p95=q[18],
                       tool_ms_p50_back_to_back=statistics.median(rushed))
    report.extra.update(noise_levels=args.noise, tool_calls=len(timings), mode="agent", per_seed=seeds_out,
                        default_rule=DEFAULT_RULE)
    report.notes.append(f"the tools' default rule is {DEFAULT_RULE!r} (engine_{DEFAULT_RULE}); engine = rule 'sample'")
    report.notes.append(f"rows: system@prior_noise; ratio/wins/losses per seed against {REFERENCE}; lock_in_rate: "
                        f"episodes needing > {LOCK_IN:g}x the median of {REFERENCE}'s episodes on the same world "
                        "(over_2x_rate: > 2x; worst_ratio: the worst episode, in those medians)")
    report.notes.append(f"tool round trip over {len(timings)} BeliefTools.call(...) calls (validation, engine "
                        "transaction, reply text), all noise levels together, each after the engine's index "
                        "write-behind settled (as between two model turns); back_to_back: "
                        f"{len(rushed)} next/start/record calls in a row on an open question, default embedder")
    report.plot("beliefs_agent.png", lambda ax: _draw(ax, report, args.noise))
    report.emit(args)
    return 0


def _draw(ax: object, report: Report, noises: list[float]) -> None:
    for system in SYSTEMS:
        ys = [report.systems[f"{system}@{n}"]["experiments_mean"] for n in noises]
        ax.plot(noises, ys, marker="o", label=system)  # type: ignore[attr-defined]
    ax.set_xlabel("prior noise (log-normal sigma)")  # type: ignore[attr-defined]
    ax.set_ylabel("experiments to goal (mean of per-seed means)")  # type: ignore[attr-defined]
    ax.set_yscale("log")  # type: ignore[attr-defined]
    ax.legend()  # type: ignore[attr-defined]
