"""Confidence-gated escalation: decide on the CPU when sure, ask the agent's own LLM only when not.

Every peer pays an LLM call on every write. :class:`EscalatingPolicy` wraps any :class:`Policy`: the
base decides first (a fraction of a millisecond); only when :class:`Uncertainty` says the decision is in
doubt is the claim sent to ``judge`` with one structured request (:mod:`shared_core.judging`). The
judge's answer is applied only after validation; an invalid answer, an exception or a timeout falls
back to the base decision, so escalation can never lose a write or crash one. A budget caps judge calls
per minute and namespace (beyond it the base decides). Each decision says who decided
(``decided_by``: ``policy``, ``judge``, ``fallback``), the judge's rationale and latency, and the
transaction log stores that decision, so ``tarl inspect`` shows it. Counters are in :attr:`counters`.

The uncertainty rule is measured, not guessed: a logistic model of "the base policy is wrong" over the
signals of doubt a decision exposes (:mod:`shared_core.doubt`), fitted on the hand-written dev split by
``tarl bench escalation`` (which prints the fitted weights and chose this model over top probability
alone by cross-validation on dev). ``share=0.2`` makes the escalated share a budget (the top 20% of
doubt in the recent stream) rather than whatever a fixed threshold lets through.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .config import PolicyConfig
from .errors import TarlError
from .doubt import TERMS, ShareGate, Uncertainty, check_share, doubt_terms
from .grounding import Grounding
from .judging import JudgeRequest, parse_answer, request_for, validated
from .policy.base import Policy
from .policy.contract import enforce
from .reliability import Comparison
from .schema import Claim, Decision

__all__ = ["CALLS_PER_MINUTE", "TERMS", "TIMEOUT", "Counters", "EscalatingPolicy", "Judge", "ShareGate", "Uncertainty",
           "attach", "check_escalation", "check_options", "doubt_terms", "judge_call", "with_judge"]

CALLS_PER_MINUTE = 30
"""Default judge calls per minute and namespace: a cost cap, well above what a chat's writes need."""
TIMEOUT = 10.0
"""Default seconds a judge may take; the write decided meanwhile waits for it, so well below SQLite's busy timeout."""


def check_options(share: float | ShareGate | None = None, calls_per_minute: int | None = CALLS_PER_MINUTE,
                  timeout: float = TIMEOUT, *, timeout_name: str = "timeout") -> None:
    """``TarlError`` naming the first escalation option that is not valid, so an adapter can check what a
    user passed before it opens anything (a store at a path creates files). ``timeout_name``: what the
    caller calls the timeout (the adapters say ``judge_timeout``)."""
    if share is not None and not isinstance(share, ShareGate):
        check_share(share)
    if calls_per_minute is not None and (isinstance(calls_per_minute, bool) or not isinstance(calls_per_minute, int)
                                         or calls_per_minute < 0):
        raise TarlError("calls_per_minute", calls_per_minute, "must be None or a non-negative integer")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise TarlError(timeout_name, timeout, "must be a positive number of seconds")


def judge_call(judge: Any) -> Callable[[JudgeRequest], Any]:
    """The function to call for ``judge`` (its ``judge`` method, or itself); ``TarlError`` otherwise,
    so adapters can check a ``judge=`` argument before they open anything."""
    call = getattr(judge, "judge", None) or (judge if callable(judge) else None)
    if call is None:
        raise TarlError("judge", judge, "must have judge(request) or be a callable request -> answer")
    return call


class Judge(Protocol):
    """Anything with ``judge(request) -> answer`` (``JudgeAnswer``, dict or JSON text); may also have
    ``async ajudge(request)``. A plain callable ``request -> answer`` works too."""

    def judge(self, request: JudgeRequest) -> Any: ...


@dataclass
class Counters:
    """What escalation did, for monitoring and cost: decisions seen, how many were uncertain, judge
    calls made, answers applied (``judged``) or refused (``fallbacks`` = ``invalid`` + ``errors`` +
    ``timeouts``), uncertain decisions left to the policy by the budget, total judge time."""

    decisions: int = 0
    uncertain: int = 0
    judge_calls: int = 0
    judged: int = 0
    fallbacks: int = 0
    invalid: int = 0
    errors: int = 0
    timeouts: int = 0
    over_budget: int = 0
    judge_ms_total: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **deltas: float) -> None:
        with self._lock:
            for k, v in deltas.items():
                setattr(self, k, getattr(self, k) + v)

    def as_dict(self) -> dict[str, float]:
        with self._lock:
            return {k: v for k, v in vars(self).items() if not k.startswith("_")}


class EscalatingPolicy:
    """A :class:`Policy` that asks ``judge`` about the decisions ``base`` is unsure of.

    >>> from shared_core import MemoryEngine, LearnedPolicy
    >>> def judge(request):                      # the agent's LLM; here a scripted stand-in
    ...     return {"action": "append", "target_id": None, "rationale": "a new fact"}
    >>> policy = EscalatingPolicy(LearnedPolicy(), judge, calls_per_minute=20)
    >>> engine = MemoryEngine.open(policy=policy)
    >>> engine.write({"text": "I live in Lisbon", "namespace": "u"}).decided_by in {"policy", "judge"}
    True
    >>> sorted(policy.counters.as_dict())[:3]
    ['decisions', 'errors', 'fallbacks']

    ``share`` (None: the rule's fixed threshold decides) escalates that fraction of decisions, the most
    doubtful of the recent stream (a :class:`ShareGate` seeded with the rule's dev percentiles, so the
    first writes of a fresh store are ranked against dev; pass a gate of your own to seed it otherwise).
    ``calls_per_minute`` (None: unlimited) is per namespace; ``timeout`` in seconds bounds each judge
    call (sync calls run in a worker thread, async ones under ``asyncio.wait_for``). ``MemoryEngine.write``
    decides with this policy before taking the ledger's write lock (``asks_judge``) and executes that
    decision only if nothing touched the namespace meanwhile; otherwise it decides again under the lock,
    where a judge call would hold the lock: hence a 10 s default, well below SQLite's busy timeout. ``clock`` (seconds, monotonic) drives the budget window,
    so tests need no sleeping. ``config``: the engine's ``PolicyConfig`` (None: the shipped one), used
    to check the judge's target as the engine would.
    The rule reads the base decision as the labelling contract would execute it; what this policy
    returns when it does not use the judge is the base's own proposal (``decision.decide`` applies the
    contract once, as for the base alone); a judge's validated answer is exempt from it there.
    """

    asks_judge = True
    """Tells ``MemoryEngine.write`` to decide before taking its write lock, so a judge call never holds it."""

    def __init__(self, base: Policy, judge: Judge | Callable[[JudgeRequest], Any], *,
                 uncertainty: Uncertainty | None = None, share: float | ShareGate | None = None,
                 calls_per_minute: int | None = CALLS_PER_MINUTE,
                 timeout: float = TIMEOUT, clock: Callable[[], float] = time.monotonic,
                 config: PolicyConfig | None = None) -> None:
        if not hasattr(base, "decide"):
            raise TarlError("base", base, "must be a Policy (an object with decide(claim, grounding, comparison))")
        self._call = judge_call(judge)
        check_options(share, calls_per_minute, timeout)
        if uncertainty is not None and not isinstance(uncertainty, Uncertainty):
            raise TarlError("uncertainty", uncertainty, "must be an Uncertainty rule or None (the shipped one)")
        self.base, self.judge = base, judge
        self._acall = getattr(judge, "ajudge", None)
        self.uncertainty = uncertainty or Uncertainty()
        self.share = share
        self.gate = share if isinstance(share, ShareGate) or share is None else ShareGate(
            share, self.uncertainty.threshold, seed=self.uncertainty.seed or ())
        self.calls_per_minute, self.timeout, self.clock = calls_per_minute, float(timeout), clock
        self.config = config
        self.name = f"escalating_{getattr(base, 'name', 'policy')}"
        self.counters = Counters()
        self._calls: dict[str, deque[float]] = {}
        self._budget_lock = threading.Lock()

    # -- the Policy protocol --------------------------------------------------------------------
    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        base, why = self._triage(claim, grounding, comparison)
        if why is None:
            return base
        request, t0 = request_for(claim, grounding), time.perf_counter()
        try:
            raw, error = self._sync_call(request), None
        except Exception as exc:  # the judge is user code: nothing it raises may lose the write
            raw, error = None, exc
        return self._settle(claim, grounding, base, why, t0, raw, error)

    def report(self, claim: Claim, decision: Decision) -> Decision:
        """The confidence the base policy reports for what the contract settled (a judge's answer as given)."""
        report = getattr(self.base, "report", None)
        return decision if report is None else report(claim, decision)

    async def adecide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        """The async twin: awaits the judge's ``ajudge`` (or runs ``judge`` in a thread)."""
        base, why = self._triage(claim, grounding, comparison)
        if why is None:
            return base
        request, t0 = request_for(claim, grounding), time.perf_counter()
        try:
            pending = self._acall(request) if self._acall is not None else self._in_thread(request)
            raw, error = await asyncio.wait_for(pending, self.timeout), None
        except Exception as exc:
            raw, error = None, exc
        return self._settle(claim, grounding, base, why, t0, raw, error)

    # -- steps ------------------------------------------------------------------------------------
    def _triage(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> tuple[Decision, str | None]:
        """The base policy's decision as proposed, and why it goes to the judge (None: it does not).
        The rule reads the decision the contract would execute; the proposal itself is returned, so
        that ``decision.decide`` applies the contract once, exactly as for the base policy alone."""
        proposed = self.base.decide(claim, grounding, comparison)
        why = self.uncertainty.why(claim, enforce(proposed, grounding), grounding, proposed, self.gate)
        base = proposed
        self.counters.add(decisions=1, uncertain=why is not None)
        if why is not None and not self._spend(claim.namespace):
            self.counters.add(over_budget=1)
            return base.model_copy(update={"judge_rationale": f"{why}; judge budget exhausted, policy decided"}), None
        return base, why

    def _spend(self, namespace: str) -> bool:
        """Take one call from ``namespace``'s budget (a sliding 60 s window); False when it is spent."""
        if self.calls_per_minute is None:
            return True
        now = self.clock()
        with self._budget_lock:
            window = self._calls.setdefault(namespace, deque())
            while window and window[0] <= now - 60.0:
                window.popleft()
            if len(window) >= self.calls_per_minute:
                return False
            window.append(now)
            return True

    def _sync_call(self, request: JudgeRequest) -> Any:
        """Call the judge in a daemon thread and wait at most ``timeout``: a judge that never returns
        costs one parked thread, never the write, and never blocks the interpreter's exit (a pool's
        workers are joined at exit)."""
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["answer"] = self._call(request)
            except Exception as exc:  # handed to the caller, which falls back
                box["error"] = exc

        worker = threading.Thread(target=run, name="tarl-judge", daemon=True)
        worker.start()
        worker.join(self.timeout)
        if worker.is_alive():
            raise TimeoutError(f"judge did not answer within {self.timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box.get("answer")

    def _in_thread(self, request: JudgeRequest) -> asyncio.Future[Any]:
        """A sync judge from async code, in a daemon thread (``asyncio.to_thread`` would make
        ``asyncio.run`` wait at exit for a judge that never returns)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(answer: Any, error: Exception | None) -> None:
            if not future.done():                       # wait_for may have given up already
                future.set_exception(error) if error is not None else future.set_result(answer)

        def run() -> None:
            try:
                answer, error = self._call(request), None
            except Exception as exc:
                answer, error = None, exc
            try:
                loop.call_soon_threadsafe(settle, answer, error)
            except RuntimeError:                        # the loop closed while the judge thought
                pass

        threading.Thread(target=run, name="tarl-judge", daemon=True).start()
        return future

    def _settle(self, claim: Claim, grounding: Grounding, base: Decision, why: str, t0: float, raw: Any,
                error: Exception | None) -> Decision:
        """The judge's validated answer, or the base decision marked as a fallback with the reason."""
        if isinstance(error, TimeoutError):
            return self._fallback(base, why, f"judge timed out after {self.timeout:g} s", t0, "timeouts")
        if error is not None:
            return self._fallback(base, why, f"judge raised {type(error).__name__}: {error}", t0, "errors")
        try:
            answer = parse_answer(raw)
            action, target, _ = validated(claim, grounding, answer, self.config)
        except ValueError as exc:
            return self._fallback(base, why, f"invalid answer: {exc}", t0, "invalid")
        ms = (time.perf_counter() - t0) * 1000
        self.counters.add(judge_calls=1, judged=1, judge_ms_total=ms)
        said = f"{base.action.value} p={base.probabilities.get(base.action.value, 1.0):.2f}"
        return base.model_copy(update={
            "action": action, "target_id": target, "decided_by": "judge", "judge_ms": ms,
            "judge_rationale": answer.rationale,
            "rationale": f"judge: {action.value}: {answer.rationale} (policy said {said}; {why})"})

    def _fallback(self, base: Decision, why: str, reason: str, t0: float, counter: str) -> Decision:
        ms = (time.perf_counter() - t0) * 1000
        self.counters.add(judge_calls=1, fallbacks=1, judge_ms_total=ms, **{counter: 1})
        return base.model_copy(update={"decided_by": "fallback", "judge_ms": ms, "judge_rationale": reason,
                                       "rationale": f"{base.rationale} ({why}; {reason})"})


def with_judge(policy: Policy | None, judge: Any, *, share: float | ShareGate | None = None,
               calls_per_minute: int | None = CALLS_PER_MINUTE, judge_timeout: float = TIMEOUT,
               config: PolicyConfig | None = None) -> Policy | None:
    """What an adapter's ``judge=`` and its options mean: ``policy`` (None: the default learned policy)
    escalating to ``judge`` (:class:`EscalatingPolicy` with ``share``, ``calls_per_minute`` and
    ``timeout=judge_timeout``; a ``policy`` that already escalates is replaced over its base, as
    :func:`attach` does); ``judge`` None leaves ``policy`` as it is. Raises ``TarlError`` naming the field
    for an invalid option, or for an option given without a judge (it would silently do nothing)."""
    check_escalation(judge, share=share, calls_per_minute=calls_per_minute, judge_timeout=judge_timeout)
    if judge is None:
        return policy
    from .policy import LearnedPolicy

    if isinstance(policy, EscalatingPolicy):
        policy = policy.base
    return EscalatingPolicy(policy if policy is not None else LearnedPolicy(), judge, share=share,
                            calls_per_minute=calls_per_minute, timeout=judge_timeout, config=config)


def attach(engine: Any, judge: Any, *, share: float | ShareGate | None = None,
           calls_per_minute: int | None = CALLS_PER_MINUTE, judge_timeout: float = TIMEOUT) -> None:
    """Make an open ``engine`` escalate to ``judge`` (None: leave it as it is) with the options given:
    its policy becomes an :class:`EscalatingPolicy` over the policy it had (over that one's base, if it
    already escalated). Attaching the same judge with the same options again changes nothing, so its
    gate and counters survive (middlewares attach on every call). For adapters handed an engine or store
    they did not open; raises like :func:`with_judge`."""
    check_escalation(judge, share=share, calls_per_minute=calls_per_minute, judge_timeout=judge_timeout)
    if judge is None:
        return
    policy = engine.policy
    if isinstance(policy, EscalatingPolicy):
        if policy.judge is judge and (policy.share, policy.calls_per_minute, policy.timeout) == (
                share, calls_per_minute, float(judge_timeout)):
            return
        policy = policy.base
    engine.policy = EscalatingPolicy(policy, judge, share=share, calls_per_minute=calls_per_minute,
                                     timeout=judge_timeout, config=getattr(engine, "config", None))


def check_escalation(judge: Any, *, share: Any = None, calls_per_minute: Any = CALLS_PER_MINUTE,
                     judge_timeout: Any = TIMEOUT) -> None:
    """The adapters' ``judge=`` and its options checked in one place, before anything is opened: each
    option valid, none given without a judge, the judge callable. Raises ``TarlError`` naming the field."""
    check_options(share, calls_per_minute, judge_timeout, timeout_name="judge_timeout")
    if judge is not None:
        judge_call(judge)
        return
    for name, value, default in (("share", share, None), ("calls_per_minute", calls_per_minute, CALLS_PER_MINUTE),
                                 ("judge_timeout", judge_timeout, TIMEOUT)):
        if value != default:
            raise TarlError(name, value, "applies only with a judge (judge=...); without one nothing escalates")
