"""Sequential rollout of one system over episodes, through THE decision function.

Per the labelling contract's metrics, the system sees only its own past decisions: each step's
candidates come from the state its earlier decisions built, ``decision.decide`` (the function
``MemoryEngine.write`` calls) chooses, and its steps (a decision, or noop + promote on corroboration) run
through the real executor. Each scored step is compared with the gold action and the gold state. Teacher-forced twins
(``*_tf``: the decision made on the gold state before the step) are reported beside them.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..decision import decide
from ..errors import InvalidStep
from ..executor import MemoryState, execute
from ..policy.base import Policy
from ..schema import Ledger
from . import tarl_mem_metrics as m
from .episodes import Episode, entry_id, gold_states, run_step
from .tarl_mem_examples import Vectors, candidates

CONTRACT = frozenset({"learned", "learned_label_only", "rules"})
"""Systems that are this project's policies: the labelling contract applies to them. External
baselines (full_history, mem0_add_only, ...) and the content-free probe are measured as they are."""


@dataclass(frozen=True)
class Step:
    kind: str
    gold: str
    pred: str
    target: str | None
    confidence: float
    state_ok: bool
    state_ok_ah: bool
    polluted: bool | None
    conflict_kept: bool | None
    new_accepted: bool
    old_accepted: bool | None
    ms: float
    tf_pred: str
    tf_state_ok: bool
    tf_state_ok_ah: bool
    """Teacher-forced: the same claim decided on the gold state before it (one long episode, such as a
    HaluMem user, never recovers its exact rollout state after one error; this view still compares)."""


def _apply(state: MemoryState, steps: Sequence, i: int) -> MemoryState:
    nxt = state.copy()
    at = steps[0].claim.observed_at
    try:
        for s in steps:
            nxt = nxt.apply(execute(nxt, s, namespace=state.namespace, tx=nxt.tx + 1, at=at, make_id=lambda: entry_id(i)))
        return nxt
    except InvalidStep:
        return state.copy()


def same_ah(a: MemoryState, b: MemoryState) -> bool:
    return all(m.contents(a, lg) == m.contents(b, lg) for lg in (Ledger.ACCEPTED, Ledger.HISTORY))


def rollout(name: str, policy: Policy, episodes: Sequence[Episode], vectors: Vectors) -> list[Step]:
    out: list[Step] = []
    for ep in episodes:
        gold = gold_states(ep)
        state = MemoryState(ep.namespace)
        for i, s in enumerate(ep.steps):
            if not s.scored:                 # context (seeds): gold, so every system starts from the same memory
                state = run_step(state, s.claim, s.action, entry_id(s.target) if s.target is not None else None, i)
                continue
            near, slot = candidates(s.claim, state, vectors)
            t0 = time.perf_counter()
            outcome = decide(s.claim, near, slot, policy, contract=name in CONTRACT)
            ms = (time.perf_counter() - t0) * 1000
            state = _apply(state, outcome.steps, i)
            d, created = outcome.decision, entry_id(i)
            tid = entry_id(s.target) if s.target is not None else None
            new, old = state.entry(created), state.entry(tid) if tid else None
            forced = decide(s.claim, *candidates(s.claim, gold[i], vectors), policy, contract=name in CONTRACT)
            tf_state = _apply(gold[i], forced.steps, i)
            out.append(Step(
                kind=s.kind, gold=s.action.value, pred=d.action.value, target=d.target_id, confidence=m.confidence(d),
                state_ok=m.same_state(state, gold[i + 1]), state_ok_ah=same_ah(state, gold[i + 1]),
                polluted=m.polluted(state, created, s.action) if s.action in m.HOLD else None,
                conflict_kept=m.conflict_kept(state, created, s.action, tid),
                new_accepted=new is not None and new.ledger is Ledger.ACCEPTED,
                old_accepted=(old is not None and old.ledger is Ledger.ACCEPTED) if tid else None, ms=ms,
                tf_pred=forced.decision.action.value, tf_state_ok=m.same_state(tf_state, gold[i + 1]),
                tf_state_ok_ah=same_ah(tf_state, gold[i + 1])))
    return out


def _mean(xs: Sequence[bool | None]) -> float:
    v = [x for x in xs if x is not None]
    return float(np.mean(v)) if v else float("nan")


def metrics(steps: Sequence[Step]) -> dict[str, float]:
    gold, pred = [s.gold for s in steps], [s.pred for s in steps]
    correct = [g == p for g, p in zip(gold, pred)]
    return {"macro_f1": m.macro_f1(gold, pred), "next_state_acc": _mean([s.state_ok for s in steps]),
            "next_state_acc_AH": _mean([s.state_ok_ah for s in steps]), "pollution": _mean([s.polluted for s in steps]),
            "conflict_preservation": _mean([s.conflict_kept for s in steps]),
            "ece": m.ece([s.confidence for s in steps], correct), "accuracy": _mean(correct),
            "decision_ms_p50": float(np.median([s.ms for s in steps])) if steps else float("nan"),
            "macro_f1_tf": m.macro_f1(gold, [s.tf_pred for s in steps]),
            "next_state_acc_tf": _mean([s.tf_state_ok for s in steps]),
            "next_state_acc_AH_tf": _mean([s.tf_state_ok_ah for s in steps]),
            "decisions": float(len(steps))}


def halumem_operations(steps: Sequence[Step]) -> dict[str, float]:
    """HaluMem's operation-level view with the memory points given as claims (extraction skipped).

    Update points (gold revise): ``update_correct`` the new point is in Accepted and the point it updates
    is not; ``update_hallucination`` both are (memory now serves the stale fact beside the new one);
    ``update_omission`` the new point never reached Accepted. Interference points: ``false_memory_resistance``
    the share that did not reach Accepted."""
    updates = [s for s in steps if s.kind == "update"]
    interference = [s for s in steps if s.kind.startswith("interference")]
    return {"update_correct": _mean([s.new_accepted and not s.old_accepted for s in updates]),
            "update_hallucination": _mean([s.new_accepted and bool(s.old_accepted) for s in updates]),
            "update_omission": _mean([not s.new_accepted for s in updates]),
            "false_memory_resistance": _mean([not s.new_accepted for s in interference]),
            "update_points": float(len(updates)), "interference_points": float(len(interference))}


def confusion(steps: Sequence[Step]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {a: {b: 0 for b in m.ACTIONS} for a in m.ACTIONS}
    for s in steps:
        table[s.gold][s.pred] += 1
    return table


