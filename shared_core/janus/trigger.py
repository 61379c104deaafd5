"""When to compare: the memory momentum trigger (MMT) and the budget baselines it is measured against.

A comparison costs 2 x |evaluation set| evaluator calls (LLM solves), so Janus compares only when an
update turns away from the direction memory has been moving in: with z_t = phi(candidate) - phi(current)
and the momentum m_t = beta * m_{t-1} + (1 - beta) * z_t, a comparison fires iff cos(z_t, m_{t-1}) < tau.
A consistent run of updates (memory growing along a stable direction) passes without cost; a reversal
(a rule overwritten by its opposite, a section dropped) points against the momentum and gets checked.

Every trigger here has the same two-phase interface so that the controller can stay atomic:
``check(z)`` only reads state, ``advance(z)`` commits the step once the controller's decision stood.
All triggers accept the first ``warmup`` tasks without comparison (nothing to compare on yet).

Deviation from the authors' code (documented, [WD]): the momentum is updated on every step including
warm-up, as the issue asks ("updated every step"), so the trigger can already fire on the first task
after warm-up; the authors start the momentum at the first post-warm-up step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

EPS = 1e-12
"""Below this norm a vector has no direction; its cosine with anything is defined as 0 (paper)."""


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine similarity, 0.0 when either vector is (numerically) zero or the shapes differ."""
    a = np.asarray(a, dtype=float).ravel()
    b = np.asarray(b, dtype=float).ravel()
    if a.shape != b.shape:
        return 0.0
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na < EPS or nb < EPS:
        return 0.0
    return float(np.dot(a, b) / (na * nb))


def momentum_update(m_prev: np.ndarray | None, z: np.ndarray, beta: float) -> np.ndarray:
    """m_t = beta * m_{t-1} + (1 - beta) * z_t; the first update initialises m to z (paper)."""
    z = np.asarray(z, dtype=float).ravel()
    if m_prev is None or np.shape(m_prev) != z.shape:
        return z.copy()
    return beta * np.asarray(m_prev, dtype=float) + (1.0 - beta) * z


def should_trigger(z: np.ndarray, m_prev: np.ndarray | None, tau: float) -> tuple[bool, float | None]:
    """(fire, cosine). No momentum yet means no direction to deviate from, hence no trigger."""
    if m_prev is None:
        return False, None
    c = cosine(z, m_prev)
    return c < tau, c


@dataclass(frozen=True)
class TriggerCheck:
    """What a trigger said about one step; ``cosine`` is None when it was not computed."""

    fired: bool
    warmup: bool
    cosine: float | None = None


class Trigger(Protocol):
    """Decides whether the controller compares at this step. ``check`` must not change state."""

    warmup: int
    steps: int

    def check(self, z: np.ndarray) -> TriggerCheck: ...

    def advance(self, z: np.ndarray) -> None: ...


def _check_warmup(warmup: int) -> int:
    if isinstance(warmup, bool) or not isinstance(warmup, int) or warmup < 0:
        raise ValueError(f"warmup must be an integer >= 0, got {warmup!r}")
    return warmup


@dataclass
class MomentumTrigger:
    """Janus's MMT. Defaults from the paper: beta = 0.9, tau = 0.0, warm-up 20 tasks."""

    beta: float = 0.9
    tau: float = 0.0
    warmup: int = 20
    steps: int = 0
    momentum: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not (isinstance(self.beta, (int, float)) and 0.0 <= self.beta < 1.0):
            raise ValueError(f"beta must be within [0, 1), got {self.beta!r}")
        if not (isinstance(self.tau, (int, float)) and math.isfinite(self.tau) and -1.0 <= self.tau <= 1.0):
            raise ValueError(f"tau must be a cosine threshold within [-1, 1], got {self.tau!r}")
        self.warmup = _check_warmup(self.warmup)

    def check(self, z: np.ndarray) -> TriggerCheck:
        fire, c = should_trigger(z, self.momentum, self.tau)
        in_warmup = self.steps < self.warmup
        return TriggerCheck(fired=fire and not in_warmup, warmup=in_warmup, cosine=c)

    def advance(self, z: np.ndarray) -> None:
        self.momentum = momentum_update(self.momentum, z, self.beta)
        self.steps += 1


@dataclass
class AlwaysTrigger:
    """Compare after every warm-up step: the accuracy ceiling of gating, at the highest cost."""

    warmup: int = 20
    steps: int = 0

    def __post_init__(self) -> None:
        self.warmup = _check_warmup(self.warmup)

    def check(self, z: np.ndarray) -> TriggerCheck:
        in_warmup = self.steps < self.warmup
        return TriggerCheck(fired=not in_warmup, warmup=in_warmup)

    def advance(self, z: np.ndarray) -> None:
        self.steps += 1


@dataclass
class RandomTrigger:
    """Compare with probability ``rate``: the budget-matched baseline MMT must beat.

    The draw is a pure function of (seed, step), so ``check`` can be repeated without changing the
    answer (the controller may retry a step after an evaluator error).
    """

    rate: float
    seed: int = 0
    warmup: int = 20
    steps: int = 0

    def __post_init__(self) -> None:
        if not (isinstance(self.rate, (int, float)) and 0.0 <= self.rate <= 1.0):
            raise ValueError(f"rate must be a probability within [0, 1], got {self.rate!r}")
        self.warmup = _check_warmup(self.warmup)

    def check(self, z: np.ndarray) -> TriggerCheck:
        in_warmup = self.steps < self.warmup
        draw = float(np.random.default_rng([self.seed, self.steps]).random())
        return TriggerCheck(fired=not in_warmup and draw < self.rate, warmup=in_warmup)

    def advance(self, z: np.ndarray) -> None:
        self.steps += 1


@dataclass
class PeriodicTrigger:
    """Compare every ``period``-th step after warm-up: the other budget-matched baseline."""

    period: int
    warmup: int = 20
    steps: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.period, bool) or not isinstance(self.period, int) or self.period < 1:
            raise ValueError(f"period must be an integer >= 1, got {self.period!r}")
        self.warmup = _check_warmup(self.warmup)

    def check(self, z: np.ndarray) -> TriggerCheck:
        in_warmup = self.steps < self.warmup
        due = (self.steps - self.warmup + 1) % self.period == 0
        return TriggerCheck(fired=not in_warmup and due, warmup=in_warmup)

    def advance(self, z: np.ndarray) -> None:
        self.steps += 1
