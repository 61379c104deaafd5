"""The Janus gate: wraps any reflection updater and commits its candidate only when it proves useful.

    >>> from shared_core.janus import JanusController, JanusConfig
    >>> gate = JanusController(propose, evaluate, embed, config=JanusConfig(warmup=20))
    >>> decision = gate.step(task, feedback)      # propose, maybe compare, deploy
    >>> gate.memory, decision.accepted, gate.stats

A memory is a sequence of reflection items (strings). Each step the updater proposes a candidate from
the current memory and the last task; the momentum trigger decides whether this update is worth a
comparison; if so both memories are scored on the hybrid evaluation set and the better one is kept
(ties go to the candidate: an update that does no measurable harm is kept, as in the paper).

phi(memory) is the *mean* of the item embeddings ([WD] choice): it keeps phi on the scale of a single
item whatever the memory size, so momentum built up while memory was small does not swamp later steps
(a plain sum grows with every item), and it lets item embeddings be cached across steps (one new item
costs one embedding, not a re-embedding of the whole memory as the authors' single-text encoding does).
The empty memory embeds to the zero vector.

A step is atomic: the controller computes everything first and commits at the end, so an exception
(bad candidate, evaluator error, a failing ``sink`` such as a ledger write) leaves memory, momentum,
evaluation sets and statistics exactly as they were.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from numbers import Real
from typing import Any, Generic, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from shared_core.janus.errors import EmbeddingError, EmptyMemoryError, EvaluatorError, MemoryFormatError
from shared_core.janus.evalset import EvalSet, compose, coverage_set, fresh_set, refresh_boundary
from shared_core.janus.trigger import MomentumTrigger, Trigger

T = TypeVar("T")
Memory = tuple[str, ...]
Propose = Callable[[Memory, Any, Any], Sequence[str]]
Evaluate = Callable[[Memory, Any], float]
Embed = Callable[[Sequence[str]], np.ndarray]


class JanusConfig(BaseModel):
    """Knobs, defaults from the paper (K = 20 warm-up, K' = 12 coverage, K - K' = 8 boundary, L = 5)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    beta: float = Field(0.9, ge=0.0, lt=1.0)
    tau: float = Field(0.0, ge=-1.0, le=1.0)
    warmup: int = Field(20, ge=0)
    coverage: int = Field(12, ge=0)
    boundary: int = Field(8, ge=0)
    fresh: int = Field(5, ge=0)
    correct_at: float = 0.5
    """A score >= this counts as correct when looking for flips (scores 0/1 from a checker, or a judge's
    probability); the accept rule itself compares mean scores."""
    allow_empty: bool = False
    """An updater that empties a non-empty memory has almost always failed (a parse error, a truncated
    rewrite); refuse that unless emptiness is a legitimate state for this updater. (Proposing nothing
    while memory is still empty is just "no lesson yet" and always allowed.)"""
    seed: int = 0

    @model_validator(mode="after")
    def _some_evaluation(self) -> JanusConfig:
        if self.coverage + self.boundary + self.fresh == 0:
            raise ValueError("coverage, boundary and fresh are all 0: a comparison would have no tasks")
        return self


class Verdict(StrEnum):
    WARMUP = "warmup"
    UNCHANGED = "unchanged"
    NO_TRIGGER = "no_trigger"
    CANDIDATE_BETTER = "candidate_better"
    TIE = "tie"
    CURRENT_BETTER = "current_better"


@dataclass(frozen=True)
class JanusDecision:
    """One step, enough to explain it later: what was proposed, whether it was compared, on what,
    with which scores, and what was deployed."""

    step: int
    verdict: Verdict
    current: Memory
    candidate: Memory
    cosine: float | None = None
    eval_set: EvalSet | None = None
    score_current: float | None = None
    score_candidate: float | None = None
    flips: tuple[int, ...] = ()

    @property
    def triggered(self) -> bool:
        return self.eval_set is not None

    @property
    def accepted(self) -> bool:
        return self.verdict is not Verdict.CURRENT_BETTER

    @property
    def memory(self) -> Memory:
        """The memory deployed after this step."""
        return self.candidate if self.accepted else self.current

    def explain(self) -> str:
        if self.eval_set is None:
            return f"janus step {self.step}: {self.verdict.value}, accepted without comparison"
        es = self.eval_set
        return (
            f"janus step {self.step}: {self.verdict.value}; candidate {self.score_candidate:.3f} vs current "
            f"{self.score_current:.3f} mean score on {len(es)} tasks (coverage {len(es.coverage)}, "
            f"boundary {len(es.boundary)}, fresh {len(es.fresh)}); cosine {self.cosine}"
        )


@dataclass
class JanusStats:
    steps: int = 0
    triggers: int = 0
    comparisons: int = 0
    evaluator_calls: int = 0
    accepted: int = 0
    rejected: int = 0


@dataclass
class _Pending:
    """Everything a step will commit; built first, applied only if nothing failed."""

    memory: Memory
    vector: np.ndarray
    stats: JanusStats
    pending_from: int | None = None
    boundary: tuple[int, ...] | None = None
    coverage: tuple[int, ...] = ()
    centroids: np.ndarray | None = field(default=None, repr=False)


class JanusController(Generic[T]):
    """Gate for a reflection updater; works on plain strings and callables, with or without an engine.

    ``embed`` defaults to the project's offline embedder (``shared_core.index.default_embedder()``).
    ``sink(decision)`` (optional) is called before the step is committed, e.g. to write it to the
    ledger; if it raises, the controller does not move either, so the two never disagree.
    """

    def __init__(
        self,
        propose: Callable[[Memory, T, Any], Sequence[str]],
        evaluate: Callable[[Memory, T], float],
        embed: Embed | None = None,
        *,
        config: JanusConfig | None = None,
        memory: Sequence[str] = (),
        trigger: Trigger | None = None,
        task_text: Callable[[T], str] = str,
        sink: Callable[[JanusDecision], Any] | None = None,
    ) -> None:
        self.config = config or JanusConfig()
        if embed is None:
            from shared_core.index.embedders import default_embedder

            embed = default_embedder()
        self._propose, self._evaluate, self._embed, self._task_text = propose, evaluate, embed, task_text
        self.sink = sink
        self.trigger: Trigger = trigger or MomentumTrigger(self.config.beta, self.config.tau, self.config.warmup)
        self._memory: Memory = as_memory(memory, allow_empty=True, what="memory")
        self.stats = JanusStats()
        self._tasks: list[T] = []
        self._vectors: list[np.ndarray] = []
        self._pending_from = 0
        self._coverage: tuple[int, ...] = ()
        self._boundary: tuple[int, ...] = ()
        self._centroids: np.ndarray | None = None
        self._cache: dict[str, np.ndarray] = {}
        self._dim: int | None = None

    @property
    def memory(self) -> Memory:
        return self._memory

    @property
    def tasks(self) -> tuple[T, ...]:
        """Every task seen, in order; the indices in decisions and evaluation sets point here."""
        return tuple(self._tasks)

    @property
    def boundary(self) -> tuple[int, ...]:
        return self._boundary

    @property
    def coverage(self) -> tuple[int, ...]:
        return self._coverage

    def step(self, task: T, feedback: Any = None) -> JanusDecision:
        """Ask the updater for a candidate from the current memory and the last task, then decide."""
        return self.consider(task, self._propose(self._memory, task, feedback))

    def consider(self, task: T, candidate: Sequence[str]) -> JanusDecision:
        """Decide about a candidate produced elsewhere (the updater already ran)."""
        current, n = self._memory, len(self._tasks)
        candidate = as_memory(candidate, allow_empty=self.config.allow_empty or not current, what="candidate")
        task_vec, phi_cur, phi_cand = self._step_vectors(task, current, candidate)
        z = phi_cand - phi_cur
        check = self.trigger.check(z)
        stats = JanusStats(**vars(self.stats))
        stats.steps += 1
        plan = _Pending(memory=candidate, vector=task_vec, stats=stats)
        if candidate == current:
            decision = JanusDecision(n, Verdict.UNCHANGED, current, candidate, check.cosine)
        elif not check.fired:
            verdict = Verdict.WARMUP if check.warmup else Verdict.NO_TRIGGER
            decision = JanusDecision(n, verdict, current, candidate, check.cosine)
        else:
            decision = self._compare(task, task_vec, current, candidate, check.cosine, plan)
        if decision.verdict is Verdict.CURRENT_BETTER:
            stats.rejected += 1
            plan.memory = current
        elif decision.verdict is not Verdict.UNCHANGED:
            stats.accepted += 1
        if self.sink is not None:
            self.sink(decision)
        self._commit(task, z, plan)
        return decision

    def _compare(
        self,
        task: T,
        task_vec: np.ndarray,
        current: Memory,
        candidate: Memory,
        cos: float | None,
        plan: _Pending,
    ) -> JanusDecision:
        cfg, n, stats = self.config, len(self._tasks), plan.stats
        rng = np.random.default_rng([cfg.seed, stats.triggers])
        stats.triggers += 1
        seen = np.stack([*self._vectors, task_vec])
        fresh = fresh_set(range(self._pending_from, n + 1), cfg.fresh, rng)
        plan.coverage, plan.centroids = coverage_set(seen, cfg.coverage, init=self._centroids, seed=cfg.seed)
        es = compose(plan.coverage, self._boundary, fresh)
        tasks = [*self._tasks, task]
        old = [self._score(current, tasks[i], i, "current") for i in es.tasks]
        new = [self._score(candidate, tasks[i], i, "candidate") for i in es.tasks]
        stats.evaluator_calls += 2 * len(es)
        stats.comparisons += 1 if len(es) else 0
        sum_old, sum_new = math.fsum(old), math.fsum(new)     # same tasks: compare sums, exact for 0/1
        at = cfg.correct_at
        flips = tuple(i for i, a, b in zip(es.tasks, old, new) if (a >= at) != (b >= at))
        plan.boundary = refresh_boundary(self._boundary, flips, es.coverage, cfg.boundary, rng)
        plan.pending_from = n + 1
        if sum_new == sum_old:
            verdict = Verdict.TIE
        else:
            verdict = Verdict.CANDIDATE_BETTER if sum_new > sum_old else Verdict.CURRENT_BETTER
        size = max(1, len(es))
        return JanusDecision(n, verdict, current, candidate, cos, es, sum_old / size, sum_new / size, flips)

    def _commit(self, task: T, z: np.ndarray, plan: _Pending) -> None:
        self.trigger.advance(z)
        self._tasks.append(task)
        self._vectors.append(plan.vector)
        self._memory = plan.memory
        self.stats = plan.stats
        if plan.boundary is not None:
            self._boundary = plan.boundary
            self._coverage = plan.coverage
        if plan.centroids is not None:
            self._centroids = plan.centroids
        if plan.pending_from is not None:
            self._pending_from = plan.pending_from
        if len(self._tasks) == self.config.warmup:
            self._bootstrap()

    def _bootstrap(self) -> None:
        """End of warm-up (authors): coverage from k-means on the warm-up tasks, the remaining warm-up
        tasks seed the boundary set until real flips replace them; warm-up tasks count as seen."""
        cfg = self.config
        self._coverage, self._centroids = coverage_set(np.stack(self._vectors), cfg.coverage, seed=cfg.seed)
        rest = [i for i in range(len(self._tasks)) if i not in self._coverage]
        self._boundary = tuple(rest[: cfg.boundary])
        self._pending_from = len(self._tasks)

    def _score(self, memory: Memory, task: T, index: int, which: str) -> float:
        try:
            value = self._evaluate(memory, task)
        except Exception as exc:
            raise EvaluatorError(f"evaluate(memory={which}, task #{index}) raised {exc!r}") from exc
        if isinstance(value, (bool, np.bool_)):
            return float(value)
        if not isinstance(value, Real) or not math.isfinite(float(value)):
            raise EvaluatorError(
                f"evaluate(memory={which}, task #{index}) returned {value!r}; expected a finite number"
            )
        return float(value)

    def _step_vectors(self, task: T, current: Memory, candidate: Memory) -> tuple[np.ndarray, ...]:
        text = self._task_text(task)
        if not isinstance(text, str):
            raise MemoryFormatError(f"task_text(task) must return str, got {type(text).__name__}")
        missing = [t for t in dict.fromkeys((*current, *candidate)) if t not in self._cache]
        vectors = self._embed_checked([text, *missing])
        for item, vec in zip(missing, vectors[1:]):
            self._cache[item] = vec
        if len(self._cache) > 50_000:
            self._cache = {t: self._cache[t] for t in (*current, *candidate)}
        return vectors[0], self.phi(current), self.phi(candidate)

    def phi(self, memory: Memory) -> np.ndarray:
        """Mean item embedding (zero vector for the empty memory); items must already be embedded."""
        if not memory:
            return np.zeros(self._dim or 0)
        return np.mean([self._cache[t] for t in memory], axis=0)

    def _embed_checked(self, texts: list[str]) -> np.ndarray:
        try:
            out = np.asarray(self._embed(texts), dtype=float)
        except (TypeError, ValueError) as exc:
            raise EmbeddingError(f"embed() returned something that is not a numeric array: {exc}") from exc
        if out.ndim != 2 or out.shape[0] != len(texts):
            raise EmbeddingError(f"embed() returned shape {out.shape} for {len(texts)} texts; expected (n, d)")
        if self._dim is not None and out.shape[1] != self._dim:
            raise EmbeddingError(f"embed() returned dimension {out.shape[1]}, earlier {self._dim}")
        if not np.all(np.isfinite(out)):
            raise EmbeddingError("embed() returned NaN or infinite values")
        self._dim = out.shape[1]
        return out


def as_memory(value: Any, *, allow_empty: bool, what: str) -> Memory:
    """Validate and freeze a memory: a sequence of non-empty strings (a bare string is refused, it
    would otherwise be read as one item per character)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise MemoryFormatError(f"{what} must be a sequence of strings, got {type(value).__name__}")
    items = tuple(value)
    for i, item in enumerate(items):
        if not isinstance(item, str) or not item.strip():
            raise MemoryFormatError(f"{what}[{i}] must be a non-empty string, got {item!r}")
    if not items and not allow_empty:
        raise EmptyMemoryError(f"{what} is empty; set JanusConfig(allow_empty=True) if that is intended")
    return items
