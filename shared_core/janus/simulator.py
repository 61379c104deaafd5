"""A sequential-task world with ground truth, to measure reflection gates without an LLM.

The model of the problem (all parameters fixed up front in ``UpdaterProfile`` / ``WorldSpec``, not
fitted to any gate):
- Task *families* each have a hidden general rule, and one *exception context* where a different rule
  holds (a quarter of a family's tasks). A task's text names its family and context plus topic and
  noise words, so task embeddings cluster by family without spelling out the rule.
- A memory is a list of reflection strings ``"<family>: <scope>: use <rule>"`` (scope ``all`` or a
  context). The *solver* uses the most specific item that matches a task: with the right rule it is
  right with p = 0.9, with a wrong rule it is misled (p = 0.1), with no item it falls back to p = 0.35.
- The *updater* looks at the last task and its outcome and proposes one edit, like a DC-RS / ExpeL
  curator: the correct lesson (mostly), an over-generalisation (an exception's rule written as the
  family rule), an over-specific rewrite (the family rule replaced by a context-only rule), a wrong
  diagnosis (a random rule as the family rule; likelier after a failure), a rewrite that drops an
  unrelated item, or nothing. Single edits overwrite the item with the same key, so a bad edit can
  destroy a useful item.
- Streams: ``steady`` (i.i.d. tasks), ``shifting`` (families arrive over time and the newest dominates,
  so old families' items must survive without being refreshed), ``rule_drift`` (half the families
  change their general rule half-way; stored tasks keep their old gold answers, which is exactly where
  coverage and boundary sets can hold memory back).
- Held-out accuracy is the *expected* solver accuracy of a memory on fresh tasks from the final world,
  so it has no sampling noise; the evaluator a gate calls samples one solve (an LLM at T > 0).
- Per-task consistency: an LLM answers the same question the same way most of the time, and a question
  that is hard with one memory tends to be hard with another. Each task has a latent difficulty
  quantile u ~ U(0, 1); with solver accuracy p for the memory state, the task's probability is
  ``consistency * [u < p] + (1 - consistency) * p`` (mean p over tasks either way). ``consistency = 0``
  is the independent-coin model (every solve an independent Bernoulli(p)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

FAMILIES = ("algebra", "geometry", "dates", "units", "strings", "graphs", "probability", "logic")
CONTEXTS = ("basic", "negative", "large", "nested")
RULES = ("carry", "invert", "round", "modulo", "sort", "pivot", "halve", "square", "shift", "swap", "count", "merge")
STREAMS = ("steady", "shifting", "rule_drift")


@dataclass(frozen=True)
class SimTask:
    id: int
    family: str
    context: str
    rule: str
    """Gold rule when the task was seen; in a drifting stream it can be stale later."""
    text: str
    difficulty: float = 0.5
    """Latent quantile u in [0, 1): the task is solved reliably iff u < the memory state's accuracy."""

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class WorldSpec:
    families: int = 6
    p_right: float = 0.9
    p_misled: float = 0.1
    p_none: float = 0.35
    consistency: float = 0.8


@dataclass(frozen=True)
class UpdaterProfile:
    """Probabilities of each edit kind after a success / after a failure (each row sums to 1)."""

    kinds: tuple[str, ...] = ("correct", "overgeneral", "overspecific", "wrong", "drop", "noop")
    after_success: tuple[float, ...] = (0.55, 0.10, 0.10, 0.05, 0.05, 0.15)
    after_failure: tuple[float, ...] = (0.40, 0.15, 0.10, 0.20, 0.05, 0.10)


@dataclass
class World:
    """Hidden rules of one seed; ``rules[(family, scope)]`` with scope "all" or the exception context."""

    spec: WorldSpec
    families: tuple[str, ...]
    rules: dict[tuple[str, str], str]
    exception: dict[str, str]
    rng: np.random.Generator = field(repr=False)

    @classmethod
    def create(cls, seed: int, spec: WorldSpec | None = None) -> World:
        spec = spec or WorldSpec()
        rng = np.random.default_rng([seed, 101])
        fams = tuple(FAMILIES[: spec.families])
        rules: dict[tuple[str, str], str] = {}
        exception: dict[str, str] = {}
        for f in fams:
            general, special = rng.choice(RULES, size=2, replace=False)
            exception[f] = str(rng.choice(CONTEXTS))
            rules[(f, "all")], rules[(f, exception[f])] = str(general), str(special)
        return cls(spec, fams, rules, exception, rng)

    def true_rule(self, family: str, context: str) -> str:
        return self.rules.get((family, context)) or self.rules[(family, "all")]

    def drift(self, families: Sequence[str]) -> None:
        """Change the general rule of ``families`` (to one differing from both old rules)."""
        for f in families:
            banned = {self.rules[(f, "all")], self.rules[(f, self.exception[f])]}
            self.rules[(f, "all")] = str(self.rng.choice([r for r in RULES if r not in banned]))

    def task(self, task_id: int, family: str, rng: np.random.Generator) -> SimTask:
        context = str(rng.choice(CONTEXTS))
        topic = [f"{family[:3]}{i}" for i in rng.choice(8, size=4, replace=False)]
        noise = [f"w{i}" for i in rng.choice(40, size=3, replace=False)]
        text = " ".join([family, context, *topic, *noise])
        return SimTask(task_id, family, context, self.true_rule(family, context), text, float(rng.random()))

    def p_correct(self, memory: Sequence[str], task: SimTask) -> float:
        """Expected solver accuracy of ``memory`` on ``task`` against the task's own gold rule."""
        return self.p_solve(parse_memory(memory), task)

    def p_solve(self, items: dict[tuple[str, str], str], task: SimTask) -> float:
        used = items.get((task.family, task.context)) or items.get((task.family, "all"))
        if used is None:
            p = self.spec.p_none
        else:
            p = self.spec.p_right if used == task.rule else self.spec.p_misled
        c = self.spec.consistency
        return c * float(task.difficulty < p) + (1.0 - c) * p


def item(family: str, scope: str, rule: str) -> str:
    return f"{family}: {scope}: use {rule}"


def parse_memory(memory: Sequence[str]) -> dict[tuple[str, str], str]:
    """Key -> rule; a later item with the same key wins (the solver reads the cheat-sheet top-down and
    the most recent note overrides). Items that do not parse are ignored, as a solver would."""
    return dict(_parse(tuple(memory)))


@lru_cache(maxsize=8192)
def _parse(memory: tuple[str, ...]) -> dict[tuple[str, str], str]:
    out: dict[tuple[str, str], str] = {}
    for text in memory:
        parts = [p.strip() for p in text.split(":")]
        if len(parts) == 3 and parts[2].startswith("use "):
            out[(parts[0], parts[1])] = parts[2][4:].strip()
    return out


def propose(
    memory: Sequence[str], task: SimTask, correct: bool, world: World, rng: np.random.Generator,
    profile: UpdaterProfile = UpdaterProfile(),
) -> tuple[str, ...]:
    """One curator edit from the last task (see the module docstring for the edit kinds)."""
    probs = profile.after_success if correct else profile.after_failure
    kind = profile.kinds[int(rng.choice(len(profile.kinds), p=probs))]
    items = parse_memory(memory)
    f, c, gold = task.family, task.context, task.rule
    if kind == "correct":
        items[(f, c if world.exception[f] == c else "all")] = gold
    elif kind == "overgeneral":
        items[(f, "all")] = gold
    elif kind == "overspecific":
        items.pop((f, "all"), None)
        items[(f, c)] = gold
    elif kind == "wrong":
        items[(f, "all")] = str(rng.choice([r for r in RULES if r != gold]))
    elif kind == "drop":
        others = [k for k in items if k[0] != f]
        if others and len(items) > 1:
            items.pop(others[int(rng.integers(len(others)))])
    return tuple(item(fam, scope, rule) for (fam, scope), rule in items.items())


@dataclass
class Stream:
    """One seed's task stream plus the world as it is at the end (for held-out tasks)."""

    kind: str
    tasks: list[SimTask]
    world: World
    heldout: list[SimTask]


def make_stream(kind: str, seed: int, steps: int, heldout: int = 400, spec: WorldSpec | None = None) -> Stream:
    if kind not in STREAMS:
        raise ValueError(f"stream kind must be one of {STREAMS}, got {kind!r}")
    world = World.create(seed, spec)
    rng = np.random.default_rng([seed, 202, STREAMS.index(kind)])
    fams = world.families
    tasks: list[SimTask] = []
    for t in range(steps):
        if kind == "rule_drift" and t == steps // 2:
            world.drift(fams[: len(fams) // 2])
        if kind == "shifting":
            active = fams[: 1 + min(len(fams) - 1, t * len(fams) // max(1, steps - steps // 4))]
            fam = active[-1] if rng.random() < 0.5 else str(rng.choice(active))
        else:
            fam = str(rng.choice(fams))
        tasks.append(world.task(t, fam, rng))
    hrng = np.random.default_rng([seed, 303])
    held = [world.task(-1 - i, str(hrng.choice(fams)), hrng) for i in range(heldout)]
    return Stream(kind, tasks, world, held)


def heldout_accuracy(stream: Stream, memory: Sequence[str]) -> float:
    items = parse_memory(memory)
    return float(np.mean([stream.world.p_solve(items, t) for t in stream.heldout]))
