"""``tarl bench janus``: does gating reflection updates pay for its evaluator calls?

Runs the simulated sequential-task world (``shared_core.janus.simulator``: hidden family rules, an
imperfect curator, a memory-dependent solver) through the real ``JanusController`` with each trigger
policy, and scores the deployed memory on held-out tasks from the final world. Every system sees the
same task stream, the same curator proposals for the same (memory, task) and the same solver draws;
only the gate differs. ``random_trigger`` and ``periodic_trigger`` are budget-matched to Janus on the
same stream and seed (rate = Janus's triggers per changed post-warm-up step), as in the paper.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shared_core.bench.report import Report, bench_args
from shared_core.index import default_embedder
from shared_core.janus import (
    AlwaysTrigger,
    JanusConfig,
    JanusController,
    JanusStats,
    MomentumTrigger,
    PeriodicTrigger,
    RandomTrigger,
    Trigger,
)
from shared_core.janus.simulator import (
    STREAMS,
    SimTask,
    Stream,
    WorldSpec,
    heldout_accuracy,
    make_stream,
    propose,
)

SYSTEMS = (
    "always_accept",
    "janus",
    "always_trigger",
    "random_trigger",
    "periodic_trigger",
    "janus_no_coverage",
    "janus_no_boundary",
    "janus_no_fresh",
)
ABLATIONS = {"janus_no_coverage": "coverage", "janus_no_boundary": "boundary", "janus_no_fresh": "fresh"}


DIAGNOSTICS = ("oracle_gate", "janus_oracle_judge")
"""Not deployable, they explain the others: ``oracle_gate`` compares every change and judges by the
true held-out accuracy (the ceiling of any gate); ``janus_oracle_judge`` judges perfectly but only when
the momentum trigger fires (the ceiling of MMT's choice of *when* to compare)."""


@dataclass
class Run:
    curve: list[float]
    stats: JanusStats
    changed_after_warmup: int = 0
    outcomes: list[tuple[float, bool, bool]] = field(default_factory=list)
    """(true held-out delta, triggered, accepted) of every post-warm-up change."""

    @property
    def final_acc(self) -> float:
        return self.curve[-1]


@dataclass
class Cell:
    """All runs of one system, keyed by stream."""

    runs: dict[str, list[Run]] = field(default_factory=dict)

    def all(self) -> list[Run]:
        return [r for rs in self.runs.values() for r in rs]


def run_system(
    stream: Stream, seed: int, config: JanusConfig, trigger: Trigger, eval_every: int, *, oracle: bool = False
) -> Run:
    """One pass over the stream with one gate; held-out accuracy every ``eval_every`` tasks."""
    world, embed = stream.world, default_embedder()
    judge = np.random.default_rng([seed, 404])
    held: dict[tuple[str, ...], float] = {}

    def truth(memory: tuple[str, ...]) -> float:
        if memory not in held:
            held[memory] = heldout_accuracy(stream, memory)
        return held[memory]

    def evaluate(memory: tuple[str, ...], task: SimTask) -> float:
        return truth(memory) if oracle else float(judge.random() < world.p_correct(memory, task))

    def curate(memory: tuple[str, ...], task: SimTask, correct: Any) -> tuple[str, ...]:
        key = [seed, 505, task.id, zlib.crc32("\n".join(memory).encode())]
        return propose(memory, task, bool(correct), world, np.random.default_rng(key))

    gate: JanusController[SimTask] = JanusController(curate, evaluate, embed, config=config, trigger=trigger)
    run = Run([truth(gate.memory)], gate.stats)
    for t, task in enumerate(stream.tasks):
        solved = np.random.default_rng([seed, 606, t]).random() < world.p_correct(gate.memory, task)
        d = gate.step(task, solved)
        if t >= config.warmup and d.candidate != d.current:
            run.changed_after_warmup += 1
            run.outcomes.append((truth(d.candidate) - truth(d.current), d.triggered, d.accepted))
        if (t + 1) % eval_every == 0 or t + 1 == len(stream.tasks):
            run.curve.append(truth(gate.memory))
    run.stats = gate.stats
    return run


def run_all(
    streams: tuple[str, ...],
    seeds: list[int],
    steps: int,
    eval_every: int,
    spec: WorldSpec | None = None,
    base: JanusConfig | None = None,
) -> dict[str, Cell]:
    cells = {s: Cell() for s in (*SYSTEMS, *DIAGNOSTICS)}
    base = base or JanusConfig()
    for kind in streams:
        for seed in seeds:
            stream = make_stream(kind, seed, steps, spec=spec)
            cfg = base.model_copy(update={"seed": seed})

            def go(system: str, trigger: Trigger, config: JanusConfig = cfg, oracle: bool = False) -> Run:
                r = run_system(stream, seed, config, trigger, eval_every, oracle=oracle)
                cells[system].runs.setdefault(kind, []).append(r)
                return r

            def mmt() -> MomentumTrigger:
                return MomentumTrigger(cfg.beta, cfg.tau, cfg.warmup)

            janus = go("janus", mmt())
            rate = min(1.0, janus.stats.triggers / max(1, janus.changed_after_warmup))
            go("always_accept", RandomTrigger(0.0, seed, cfg.warmup))
            go("always_trigger", AlwaysTrigger(cfg.warmup))
            go("random_trigger", RandomTrigger(rate, seed, cfg.warmup))
            go("periodic_trigger", PeriodicTrigger(max(1, round(1 / rate)) if rate > 0 else 10**9, cfg.warmup))
            for system, part in ABLATIONS.items():
                go(system, mmt(), cfg.model_copy(update={part: 0}))
            go("oracle_gate", AlwaysTrigger(cfg.warmup), oracle=True)
            go("janus_oracle_judge", mmt(), oracle=True)
    return cells


def _selectivity(runs: list[Run]) -> dict[str, float]:
    """How each gate treats harmful (held-out accuracy drops) and helpful changes."""
    rows = np.array([o for r in runs for o in r.outcomes], dtype=float).reshape(-1, 3)
    delta, trig, acc = rows.T
    harm, help_ = delta < -1e-9, delta > 1e-9
    frac = lambda x, m: float(x[m].mean()) if m.any() else float("nan")  # noqa: E731
    return {
        "harmful_share": float(harm.mean()) if len(delta) else float("nan"),
        "harmful_triggered": frac(trig, harm),
        "helpful_triggered": frac(trig, help_),
        "harmful_rejected": frac(1 - acc, harm),
        "helpful_rejected": frac(1 - acc, help_),
    }


def _ci95(xs: list[float]) -> float:
    return 1.96 * float(np.std(xs, ddof=1)) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")


def _per100(runs: list[Run], steps: int, attr: str) -> float:
    return 100.0 * float(np.mean([getattr(r.stats, attr) for r in runs])) / steps


def build_report(
    cells: dict[str, Cell], streams: tuple[str, ...], seeds: list[int], steps: int, eval_every: int
) -> Report:
    report = Report("janus", f"simulated streams {', '.join(streams)}; {steps} tasks; seeds {seeds[0]}..{seeds[-1]}")
    accept = [r.final_acc for r in cells["always_accept"].all()]
    for system, cell in cells.items():
        runs = cell.all()
        finals = [r.final_acc for r in runs]
        deltas = [a - b for a, b in zip(finals, accept)]
        metrics = {
            "final_acc": float(np.mean(finals)),
            "final_acc_ci95": _ci95(finals),
            "delta_pp_vs_accept": 100 * float(np.mean(deltas)),
            "delta_pp_ci95": 100 * _ci95(deltas),
            "comparisons_per_100": _per100(runs, steps, "comparisons"),
            "evaluator_calls_per_100": _per100(runs, steps, "evaluator_calls"),
            "rejected_per_100": _per100(runs, steps, "rejected"),
            "mean_acc_over_time": float(np.mean([np.mean(r.curve) for r in runs])),
            **_selectivity(runs),
        }
        for kind in streams:
            metrics[f"final_acc_{kind}"] = float(np.mean([r.final_acc for r in cell.runs[kind]]))
        report.add(system, **metrics)
    x = [min(i * eval_every, steps) for i in range(len(cells["janus"].all()[0].curve))]
    for kind in (*streams, "all"):
        report.plot(f"janus_acc_over_time_{kind}.png", _drawer(cells, kind, x))
    _targets(report, cells, streams)
    report.extra["curves"] = {
        s: {k: np.mean([r.curve for r in rs], axis=0).round(4).tolist() for k, rs in c.runs.items()}
        for s, c in cells.items()
    }
    report.extra["curve_x"] = x
    return report


def _drawer(cells: dict[str, Cell], kind: str, x: list[int]) -> Callable[[Any], None]:
    def draw(ax: Any) -> None:
        for system, cell in cells.items():
            runs = cell.all() if kind == "all" else cell.runs[kind]
            style = "--" if system in ABLATIONS else ":" if system in DIAGNOSTICS else "-"
            width = 2.0 if system == "janus" else 1.2
            ax.plot(x, np.mean([r.curve for r in runs], axis=0), style, label=system, lw=width)
        ax.set_xlabel("tasks seen")
        ax.set_ylabel("held-out accuracy (expected)")
        ax.set_title(f"Janus gate, stream: {kind} (mean over seeds)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)

    return draw


def _paired(cells: dict[str, Cell], a: str, b: str, kind: str | None = None) -> tuple[float, float]:
    """Mean and 95% CI half-width, in pp, of final_acc(a) - final_acc(b) over the same streams/seeds."""
    ra = cells[a].all() if kind is None else cells[a].runs[kind]
    rb = cells[b].all() if kind is None else cells[b].runs[kind]
    d = [100 * (x.final_acc - y.final_acc) for x, y in zip(ra, rb)]
    return float(np.mean(d)), _ci95(d)


def _targets(report: Report, cells: dict[str, Cell], streams: tuple[str, ...]) -> None:
    s = report.systems
    gain, gain_ci = _paired(cells, "janus", "always_accept")
    ratio = s["janus"]["comparisons_per_100"] / max(1e-9, s["always_trigger"]["comparisons_per_100"])
    fresh, fresh_ci = _paired(cells, "janus", "janus_no_fresh")
    report.extra["targets"] = {"janus_gain_pp": gain, "comparison_ratio": ratio, "fresh_effect_pp": fresh}
    report.notes += [
        f"target janus >= +5 pp over always_accept: {gain:+.2f} ± {gain_ci:.2f} pp "
        f"({'met' if gain >= 5 else 'MISSED'})",
        f"target janus comparisons <= 30% of always_trigger: {100 * ratio:.1f}% ({'met' if ratio <= 0.3 else 'MISSED'})",
        f"target removing fresh hurts: janus - janus_no_fresh = {fresh:+.2f} ± {fresh_ci:.2f} pp "
        f"({'met' if fresh > 0 else 'MISSED'}{', within noise' if abs(fresh) < fresh_ci else ''})",
    ]
    for other in ("random_trigger", "periodic_trigger", "always_trigger", "janus_no_coverage", "janus_no_boundary"):
        d, ci = _paired(cells, "janus", other)
        report.notes.append(f"janus - {other} = {d:+.2f} ± {ci:.2f} pp")
    for kind in streams:
        d, ci = _paired(cells, "janus", "always_accept", kind)
        report.notes.append(f"stream {kind}: janus - always_accept = {d:+.2f} ± {ci:.2f} pp")


def main(argv: list[str]) -> int:
    p = bench_args("janus", "Janus reflection gate on a simulated sequential-task stream", None)
    p.add_argument("--seeds", type=int, default=20,
                   help="number of seeds; 10 leave a ±4 pp CI on final_acc (default: %(default)s)")
    p.add_argument("--steps", type=int, default=300, help="tasks per stream (default: %(default)s)")
    p.add_argument("--streams", default=",".join(STREAMS), help="comma-separated subset of " + ",".join(STREAMS))
    p.add_argument("--tau", type=float, default=JanusConfig().tau, help="MMT threshold (default: %(default)s)")
    p.add_argument("--beta", type=float, default=JanusConfig().beta, help="MMT momentum (default: %(default)s)")
    p.add_argument("--consistency", type=float, default=WorldSpec().consistency,
                   help="per-task answer consistency of the simulated solver, 0 = independent coins "
                        "(default: %(default)s)")
    args = p.parse_args(argv)
    streams = tuple(s.strip() for s in args.streams.split(",") if s.strip())
    for s in streams:
        if s not in STREAMS:
            p.error(f"--streams: unknown stream {s!r}; choose from {', '.join(STREAMS)}")
    seeds, steps = (2, 120) if args.quick else (args.seeds, args.steps)
    if seeds < 1 or steps < 1:
        p.error(f"--seeds and --steps must be >= 1, got {seeds} and {steps}")
    seed_list = list(range(args.seed, args.seed + seeds))
    if not 0.0 <= args.consistency <= 1.0:
        p.error(f"--consistency must be within [0, 1], got {args.consistency}")
    try:
        config = JanusConfig(tau=args.tau, beta=args.beta)
    except ValueError as exc:
        p.error(str(exc))
    eval_every, spec = 10, WorldSpec(consistency=args.consistency)
    cells = run_all(streams, seed_list, steps, eval_every, spec, config)
    report = build_report(cells, streams, seed_list, steps, eval_every)
    report.data += f"; solver consistency {spec.consistency}; tau {config.tau}, beta {config.beta}"
    report.emit(args)
    return 0
