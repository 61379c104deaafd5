"""``tarl bench beliefs``: a seeded R&D-search simulator for memory that forgets.

World (one per seed): a DAG of hypotheses in ``depth`` layers. Layer 0 holds the assumptions, one
exclusion group of 3-4; every non-leaf hypothesis raises a sub-question, an exclusion group of 2-4
child hypotheses (closed-world with probability 1/2: exactly one member holds; else open: each member
holds independently), and a member of an open group rests on a second hypothesis of its parent's layer with probability
1/4. Priors are what the searcher sees; truth is drawn from the same priors (calibrated: the setting
most favourable to a greedy chooser) unless ``--prior-noise`` perturbs what is shown. A hypothesis
*holds* when its own latent bit is true and every premise holds; a world is kept only if at least one
leaf holds (one or more hidden true paths). Each experiment reveals one hypothesis's latent bit and
costs one step; the goal is a leaf established together with all its premises.

Systems (all remember every result; none repeats an experiment):
- ``engine``: the product. The world is written into a real ``MemoryEngine`` (in-memory SQLite ledger
  + Chroma) as exclusion groups and hypotheses; each step is ``next_to_test`` (frontier sampled by
  prior), ``start_experiment``, ``record_result``. Pruning, exhaustion and deduction happen in the
  engine's executor; the loop only reads the ledger.
- ``perfect_recall``: no inferences: samples by prior among hypotheses without a result.
- ``greedy``: no inferences, always the highest-prior hypothesis without a result.
- ``perfect_recall_frontier`` (ablation): tests top-down (premises confirmed first), samples by prior,
  but draws no exclusion-group inferences: what the groups add on top of the dependency order.
- ``engine_argmax`` (ablation): the engine with ``next_to_test(greedy=True)``, the highest-prior
  frontier hypothesis instead of a sample: what sampling costs or saves.
Every system runs ``--episodes`` episodes per world (chooser seeds derived from the world seed); the
per-seed figure is their mean, so a seed's win compares expected costs on that world.
"""

from __future__ import annotations

import os
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from .report import Report, bench_args

SYSTEMS = ("engine", "perfect_recall", "greedy", "perfect_recall_frontier", "engine_argmax")


@dataclass(frozen=True)
class Group:
    id: int
    parent: int | None
    closed: bool
    members: tuple[int, ...]


@dataclass(frozen=True)
class World:
    parents: tuple[tuple[int, ...], ...]     # premises of each hypothesis (its group's parent first)
    group_of: tuple[int, ...]
    groups: tuple[Group, ...]
    prior: tuple[float, ...]                 # what the searcher sees
    bit: tuple[bool, ...]                    # hidden: the hypothesis's own truth
    leaves: frozenset[int]

    def holds(self, n: int) -> bool:
        return self.bit[n] and all(self.holds(p) for p in self.parents[n])

    def ancestors(self, n: int) -> set[int]:
        out: set[int] = set()
        stack = list(self.parents[n])
        while stack:
            p = stack.pop()
            if p not in out:
                out.add(p)
                stack.extend(self.parents[p])
        return out


def make_world(seed: int, depth: int = 3, prior_noise: float = 0.0) -> World:
    rng = random.Random(seed)
    while True:
        world = _draw(rng, depth, prior_noise)
        if any(world.holds(leaf) for leaf in world.leaves):
            return world


def _draw(rng: random.Random, depth: int, noise: float) -> World:
    parents: list[tuple[int, ...]] = []
    group_of: list[int] = []
    groups: list[Group] = []
    p_true: list[float] = []
    bit: list[bool] = []
    layer: list[int] = []

    def add_group(parent: int | None, size: int, same_layer: list[int]) -> list[int]:
        closed = rng.random() < 0.5
        gid, first = len(groups), len(parents)
        weights = [rng.gammavariate(1.0, 1.0) for _ in range(size)]
        probs = [w / sum(weights) for w in weights] if closed else [rng.uniform(0.15, 0.6) for _ in range(size)]
        answer = rng.choices(range(size), weights=probs)[0] if closed else -1
        for i, p in enumerate(probs):
            extra = [q for q in same_layer if q != parent]
            premises = (parent,) if parent is not None else ()
            if extra and not closed and rng.random() < 0.25:    # closed: exactly one member holds
                premises += (rng.choice(extra),)
            parents.append(premises)
            group_of.append(gid)
            p_true.append(max(p, 0.02))
            bit.append(i == answer if closed else rng.random() < p)
        groups.append(Group(gid, parent, closed, tuple(range(first, first + size))))
        return list(range(first, first + size))

    current = add_group(None, rng.randint(3, 4), [])
    layer += [0] * len(current)
    for d in range(1, depth):
        nxt: list[int] = []
        for node in current:
            nxt += add_group(node, rng.randint(2, 4), current)
        layer += [d] * (len(nxt))
        current = nxt
    shown = _perturb(rng, p_true, groups, noise)
    return World(tuple(parents), tuple(group_of), tuple(groups), tuple(shown), tuple(bit), frozenset(current))


def _perturb(rng: random.Random, p: list[float], groups: list[Group], noise: float) -> list[float]:
    if noise <= 0:
        return list(p)
    shown = [min(1.0, max(0.02, x * rng.lognormvariate(0.0, noise))) for x in p]
    for g in groups:
        if g.closed:
            total = sum(shown[m] for m in g.members)
            for m in g.members:
                shown[m] = max(0.02, shown[m] / total)
    return shown


@dataclass
class Episode:
    experiments: int
    wasted: int = 0          # experiments on hypotheses already settled by what was known
    dead: int = 0            # experiments below a hypothesis the chooser had itself refuted
    order: list[int] = field(default_factory=list)


class Knowledge:
    """What the results so far imply (used to score every system's waste the same way)."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.result: dict[int, bool] = {}

    def settled(self, n: int) -> bool:
        w = self.world
        if n in self.result or self.below_refuted(n):
            return True
        g = w.groups[w.group_of[n]]
        if g.closed:
            others = [m for m in g.members if m != n]
            if any(self.result.get(m) for m in others):
                return True                              # a sibling is the answer
            if all(self.result.get(m) is False for m in others):
                return True                              # the only one left: deducible
        return False

    def below_refuted(self, n: int) -> bool:
        return any(self.result.get(a) is False for a in self.world.ancestors(n))


def run_baseline(world: World, rng: random.Random, mode: str) -> Episode:
    """``mode``: "sample" (perfect_recall), "greedy", or "frontier" (top-down, no group inference)."""
    k, ep = Knowledge(world), Episode(0)
    n_nodes = len(world.prior)
    while not _tested_goal(k) and ep.experiments < n_nodes:
        untested = [n for n in range(n_nodes) if n not in k.result]
        if mode == "frontier":
            untested = [n for n in untested if all(k.result.get(p) for p in world.parents[n])]
        if mode == "greedy":
            choice = max(untested, key=lambda n: (world.prior[n], -n))
        else:
            choice = rng.choices(untested, weights=[world.prior[n] for n in untested])[0]
        _observe(k, ep, choice)
    return ep


def _tested_goal(k: Knowledge) -> bool:
    """Baselines draw no inferences: a leaf counts once it and all its premises were tested true."""
    def tested(n: int) -> bool:
        return bool(k.result.get(n)) and all(tested(p) for p in k.world.parents[n])
    return any(tested(leaf) for leaf in k.world.leaves)


def _observe(k: Knowledge, ep: Episode, n: int) -> None:
    ep.wasted += k.settled(n)
    ep.dead += k.below_refuted(n)
    ep.order.append(n)
    ep.experiments += 1
    k.result[n] = k.world.bit[n]


def run_engine(world: World, rng: random.Random, engine: object, namespace: str, argmax: bool = False) -> Episode:
    """The product in the loop: the world becomes ledger entries; the engine picks and infers."""
    from ..engine import MemoryEngine

    assert isinstance(engine, MemoryEngine)
    ids: dict[int, str] = {}
    group_ids: dict[int, str] = {}
    for g in world.groups:                          # groups are listed parents-first
        group_ids[g.id] = engine.exclusion_group(f"question {g.id}", namespace, closed_world=g.closed).id
        for n in g.members:
            premises = [ids[p] for p in world.parents[n]]
            ids[n] = engine.hypothesis(f"hypothesis {n}", namespace, prior=world.prior[n], depends_on=premises,
                                       group=group_ids[g.id]).id
    node = {v: n for n, v in ids.items()}
    leaves = {ids[leaf] for leaf in world.leaves}
    k, ep = Knowledge(world), Episode(0)
    while ep.experiments < len(ids):
        if any(e.id in leaves for e in engine.accepted(namespace)):
            break
        h = engine.next_to_test(namespace, seed=rng, greedy=argmax)
        if h is None:
            raise RuntimeError(f"engine frontier empty before the goal (namespace {namespace})")
        exp = engine.start_experiment(h.id)
        _observe(k, ep, node[h.id])
        engine.record_result(h.id, world.bit[node[h.id]], experiment_id=exp.id)
    established = [node[e.id] for e in engine.accepted(namespace) if e.id in leaves]
    assert established and all(world.holds(n) for n in established), "the engine established a false leaf"
    return ep


def evaluate(seeds: Sequence[int], episodes: int, depth: int, prior_noise: float) -> dict[str, list[list[Episode]]]:
    from ..engine import MemoryEngine
    from ..index import HashingEmbedder

    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    out: dict[str, list[list[Episode]]] = {s: [] for s in SYSTEMS}
    with MemoryEngine.open(embedder=HashingEmbedder(dim=128, char_dims=32)) as engine:   # texts are ids here
        for seed in seeds:
            world = make_world(seed, depth, prior_noise)
            rngs = {s: random.Random(f"{seed}:{s}") for s in SYSTEMS}
            out["engine"].append([run_engine(world, rngs["engine"], engine, f"w{seed}e{e}") for e in range(episodes)])
            out["engine_argmax"].append([run_engine(world, rngs["engine_argmax"], engine, f"w{seed}a", argmax=True)])
            for system, mode in (("perfect_recall", "sample"), ("greedy", "greedy"), ("perfect_recall_frontier", "frontier")):
                out[system].append([run_baseline(world, rngs[system], mode) for _ in range(episodes)])
    return out


def main(argv: list[str]) -> int:
    if "--agent" in argv:                  # the model in the loop, driving the belief tools
        from .beliefs_agent import main as agent_main

        return agent_main(argv)
    p = bench_args("beliefs", "R&D search over hypothesis DAGs: engine vs perfect recall vs greedy")
    p.add_argument("--seeds", type=int, default=30)
    p.add_argument("--episodes", type=int, default=10, help="episodes per seed (chooser seeds)")
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--prior-noise", type=float, default=0.0, help="log-normal sigma on the priors shown")
    p.add_argument("--agent", action="store_true", help="simulated agent driving the belief tools (beliefs_agent)")
    args = p.parse_args(argv)
    seeds = list(range(args.seed, args.seed + (6 if args.quick else args.seeds)))
    episodes = 3 if args.quick else args.episodes
    runs = evaluate(seeds, episodes, args.depth, args.prior_noise)
    per_seed = {s: [statistics.fmean(e.experiments for e in eps) for eps in runs[s]] for s in SYSTEMS}
    base = per_seed["perfect_recall"]
    report = Report("beliefs", f"simulated (seeds {seeds[0]}..{seeds[-1]}, {episodes} episodes/seed, depth "
                               f"{args.depth}, prior noise {args.prior_noise})")
    for s in SYSTEMS:
        eps = [e for seed_eps in runs[s] for e in seed_eps]
        report.add(
            s,
            experiments_median=statistics.median(per_seed[s]),
            experiments_mean=statistics.fmean(per_seed[s]),
            wins=sum(a < b for a, b in zip(per_seed[s], base)),
            losses=sum(a > b for a, b in zip(per_seed[s], base)),
            ratio_to_baseline=statistics.fmean(per_seed[s]) / statistics.fmean(base),
            wasted_mean=statistics.fmean(e.wasted for e in eps),
            dead_path_rate=statistics.fmean(any(e.dead for e in seed_eps) for seed_eps in runs[s]),
            episode_win_rate=statistics.fmean(
                a.experiments < b.experiments for ea, eb in zip(runs[s], runs["perfect_recall"]) for a, b in zip(ea, eb)),
        )
    report.notes.append("wins/losses: seeds where the system's mean experiments were below/above perfect_recall's")
    report.notes.append("dead_path_rate: share of seeds where the system ran an experiment below a hypothesis it "
                        "had already refuted (the greedy lock-in); wasted_mean: experiments per episode on "
                        "hypotheses already settled by implication")
    for other in ("greedy", "perfect_recall_frontier", "engine_argmax"):
        won = sum(a < b for a, b in zip(per_seed["engine"], per_seed[other]))
        lost = sum(a > b for a, b in zip(per_seed["engine"], per_seed[other]))
        report.notes.append(f"engine vs {other}: {won} seeds fewer experiments, {lost} more, {len(seeds) - won - lost} tied")
    report.extra["per_seed"] = {s: per_seed[s] for s in SYSTEMS}
    report.plot("beliefs_per_seed.png", lambda ax: _draw_per_seed(ax, seeds, per_seed))
    report.emit(args)
    return 0


def _draw_per_seed(ax: object, seeds: list[int], per_seed: dict[str, list[float]]) -> None:
    for s in SYSTEMS:
        ax.plot(seeds, per_seed[s], marker="o", label=s)  # type: ignore[attr-defined]
    ax.set_xlabel("seed (world)")  # type: ignore[attr-defined]
    ax.set_ylabel("experiments to goal (mean over episodes)")  # type: ignore[attr-defined]
    ax.legend()  # type: ignore[attr-defined]
