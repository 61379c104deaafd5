"""``tarl bench escalation``: what sending the CPU policy's least confident decisions to an LLM judge buys,
measured without an LLM, on the hand-written TARL corpus (fit and choose on dev, report on test).

Decisions are teacher-forced (each on the gold state before it), grounded as the engine grounds them,
and run through the shipped :class:`~shared_core.escalation.EscalatingPolicy` (validation included)
with simulated judges:

- ``oracle``: answers the gold action and gold target. Its answer is still validated: when the gold
  target is not among the candidates the judge is shown, the answer is refused and the CPU decision
  stands (``oracle_fallback_share``).
- ``judge80``: right with probability 0.8; otherwise an action drawn uniformly among the other actions
  feasible here (a targeted action gets a random candidate). Mean over ``JUDGE80_SEEDS`` seeds.

The uncertainty rule measured is the shipped file (``doubt.WEIGHTS``), or ``--weights PATH``;
``--refit`` first refits it on dev for the policy the checkout ships (``escalation_fit``: top probability
alone, a logistic model of "the CPU is wrong" over ``doubt.doubt_terms``, or one with crosses, chosen by
episode-grouped cross-validation on the dev decisions the policy was not trained on) and writes it; every
run prints that comparison and each signal's AUROC on dev. Share s is a budget (``EscalatingPolicy(share=s)``
as a user writes it: a ``doubt.ShareGate`` seeded with the rule's dev percentiles): the decisions whose
doubt ranks in the top s of the recent stream escalate. Metrics per system (``escalate_S``): ``escalated_share``, ``accuracy_kept`` /
``macro_f1_kept`` (the CPU decisions not escalated), ``macro_f1_oracle`` / ``macro_f1_judge80`` (the
whole stream), ``judge_calls_per_1000``; and ``wrong_in_escalated`` (share of the escalated the CPU got
wrong), ``errors_caught`` (share of the CPU's errors escalated), ``candidate_recall`` (escalated
decisions whose gold target was among the candidates shown). The main table is free text (no slot
given); the side table is the same claims with their slots.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..doubt import TERMS, WEIGHTS, Uncertainty
from ..escalation import EscalatingPolicy
from ..judging import JudgeRequest, candidates
from ..policy import LearnedPolicy, Policy
from ..policy.contract import enforce
from ..schema import Decision
from . import tarl_mem_metrics as m
from .escalation_fit import (ACTIONS, P_ONLY, REFIT_COMMAND, SHARES, Scored, calibrated, choose, decision_rows,
                             MODELS, auroc, dev_test, kept_accuracy, refit, shipped, signals)
from .report import Report, bench_args

__all__ = ["dev_test", "main"]
JUDGE80_SEEDS = 5


class SimulatedJudge:
    """Answers for the example currently being decided (``current``): gold with probability ``accuracy``,
    else a random other feasible action."""

    def __init__(self, accuracy: float, seed: int) -> None:
        self.accuracy, self.rng, self.current = accuracy, random.Random(seed), None  # type: Example | None

    def judge(self, request: JudgeRequest) -> dict[str, Any]:
        e = self.current
        assert e is not None
        gold = ACTIONS[e.label]
        if self.rng.random() < self.accuracy:
            return {"action": gold, "target_id": e.gold_target, "rationale": "gold"}
        accepted = [c.id for c in request.candidates if c.ledger.value == "accepted"]
        options = [a for a in ACTIONS if a != gold and (accepted or a not in ("revise", "reject_conflict"))]
        action = self.rng.choice(options)
        target = self.rng.choice(accepted) if accepted and action != "append" else None
        return {"action": action, "target_id": target, "rationale": "simulated wrong answer"}


@dataclass(frozen=True)
class Setting:
    """How decisions are sent: the rule, and the share budget (None: the rule's threshold). Each run
    builds its policy as a user's ``share=`` does (a fresh ``ShareGate`` seeded with the rule's dev
    percentiles), so every run sees the same sequence and measures what ships."""

    rule: Uncertainty
    share: float | None = None

    def policy(self, base: Policy, judge: Any) -> EscalatingPolicy:
        return EscalatingPolicy(base, judge, uncertainty=self.rule, share=self.share, calls_per_minute=None)


def run(policy: Policy, rows: Sequence[Scored], setting: Setting, accuracy: float, seed: int) -> list[Decision]:
    judge = SimulatedJudge(accuracy, seed)
    esc = setting.policy(policy, judge)
    out = []
    for r in rows:
        judge.current = r.example
        out.append(shipped(esc, r.example))
    return out


def metrics(policy: Policy, rows: Sequence[Scored], setting: Setting) -> dict[str, float]:
    gold = [r.gold for r in rows]
    oracle = run(policy, rows, setting, 1.0, 0)
    escalated = [d.decided_by != "policy" for d in oracle]
    kept = [r for r, e in zip(rows, escalated) if not e]
    sent = [r for r, e in zip(rows, escalated) if e]
    f1_80 = [m.macro_f1(gold, [d.action.value for d in run(policy, rows, setting, 0.8, s + 1)]) for s in range(JUDGE80_SEEDS)]
    n, wrong = len(rows), sum(not r.correct for r in rows)
    return {
        "escalated_share": sum(escalated) / n,
        "accuracy_kept": float(np.mean([r.correct for r in kept])) if kept else float("nan"),
        "macro_f1_kept": m.macro_f1([r.gold for r in kept], [r.base.action.value for r in kept]),
        "macro_f1_oracle": m.macro_f1(gold, [d.action.value for d in oracle]),
        "macro_f1_judge80": float(np.mean(f1_80)),
        "judge_calls_per_1000": 1000 * sum(escalated) / n,
        "accuracy_oracle": float(np.mean([d.action.value == g for d, g in zip(oracle, gold)])),
        "oracle_fallback_share": sum(d.decided_by == "fallback" for d in oracle) / max(1, sum(escalated)),
        "errors_caught": sum(not r.correct for r in sent) / max(1, wrong),
        **({"wrong_in_escalated": sum(not r.correct for r in sent) / len(sent), "candidate_recall": recall(sent)}
           if sent else {}),
        "decisions": float(n),
    }


def recall(rows: Sequence[Scored]) -> float:
    """Share of ``rows`` with a gold target whose target is among the candidates the judge is shown."""
    targeted = [r.example for r in rows if r.example.gold_target is not None]
    return sum(e.gold_target in {c.id for c, _ in candidates(e.claim, e.grounding)} for e in targeted) / max(1, len(targeted))


def risk_coverage(rule: Uncertainty, rows: Sequence[Scored]) -> tuple[list[float], list[float]]:
    """Coverage (share kept by the CPU) vs risk (error rate of the kept), least doubtful kept first."""
    order = sorted(rows, key=lambda r: rule.p(r.terms))
    wrong = np.cumsum([not r.correct for r in order])
    k = np.arange(1, len(order) + 1)
    return list(k / len(order)), list(wrong / k)


def perfect_curve(rows: Sequence[Scored]) -> tuple[list[float], list[float]]:
    """The risk-coverage curve of a perfect sense of doubt (every error escalates before any right
    decision): the floor that no rule over this base policy can go below."""
    n, wrong = len(rows), sum(not r.correct for r in rows)
    k = np.arange(1, n + 1)
    return list(k / n), list(np.maximum(0, wrong - (n - k)) / k)


def overhead_ms(policy: Policy, rows: Sequence[Scored], setting: Setting, repeats: int = 5) -> float:
    """Median extra time per decision of the escalating wrapper (with its share gate) over its base,
    on the decisions it does not escalate: each side as ``decision.decide`` runs it, the policy and then
    the contract on its proposal (the wrapper enforces the proposal to weigh its doubt, and that result
    is the one ``decide`` then uses)."""
    esc = setting.policy(policy, lambda r: None)
    extra = []
    for _ in range(repeats):
        for r in rows:
            e = r.example
            t0 = time.perf_counter()
            enforce(policy.decide(e.claim, e.grounding, e.comparison), e.grounding)
            t1 = time.perf_counter()
            d = enforce(esc.decide(e.claim, e.grounding, e.comparison), e.grounding)
            if d.decided_by == "policy":
                extra.append((time.perf_counter() - t1) - (t1 - t0))
    return float(np.median(extra) * 1000)


def bound(rows: Sequence[Scored], share: float) -> dict[str, float]:
    """The ceiling at ``share`` with a perfect sense of doubt: the CPU's wrong decisions escalate first
    and an oracle answers them, every answer accepted (the contract's refusals ignored)."""
    k = int(round(share * len(rows)))
    wrong = [i for i, r in enumerate(rows) if not r.correct][:k]
    fixed = [r.gold if i in set(wrong) else r.base.action.value for i, r in enumerate(rows)]
    kept = [r for i, r in enumerate(rows) if i not in set(wrong)]
    return {"escalated_share": len(wrong) / len(rows), "accuracy_kept": float(np.mean([r.correct for r in kept])),
            "macro_f1_kept": m.macro_f1([r.gold for r in kept], [r.base.action.value for r in kept]),
            "macro_f1_oracle": m.macro_f1([r.gold for r in rows], fixed),
            "accuracy_oracle": float(np.mean([f == r.gold for f, r in zip(fixed, rows)]))}


def refusals(policy: Policy, rows: Sequence[Scored], setting: Setting) -> dict[str, int]:
    """Why the oracle's (gold) answers were refused by validation, by reason."""
    out: dict[str, int] = {}
    for d in run(policy, rows, setting, 1.0, 0):
        if d.decided_by == "fallback":
            why = d.judge_rationale
            key = ("gold_target_not_a_candidate" if "is not one of the candidates" in why else
                   "contract" if "labelling contract" in why else
                   "no_accepted_target" if "needs an Accepted target" in why else "other")
            out[key] = out.get(key, 0) + 1
    return out


def bookkeeping_ms(writes: int = 200, repeats: int = 2000) -> float:
    """Median time of what ``MemoryEngine.write`` adds for a policy that ``asks_judge`` (it decides
    before the write lock): a cache refresh and the head read before, the namespace-changed check
    under the lock; on an in-memory SQLite store holding ``writes`` entries."""
    from ..engine import MemoryEngine
    from ..schema import Claim

    with MemoryEngine.open(policy=LearnedPolicy()) as engine:
        engine.write_many([Claim(text=f"fact {i} is {3 * i}", namespace="ns") for i in range(writes)])
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            with engine._lock:
                engine._refresh()
                seen = engine.store.head()
            next(iter(engine.store.log("ns", after=seen)), None)
            times.append(time.perf_counter() - t0)
    return float(np.median(times) * 1000)


def main(argv: list[str]) -> int:
    p = bench_args("escalation", __doc__ or "")
    p.add_argument("--refit", action="store_true",
                   help="first refit the doubt model on dev (after a policy change) and write it to --weights")
    p.add_argument("--weights", type=Path, default=None, help=f"doubt model file (default: the shipped {WEIGHTS.name})")
    args = p.parse_args(argv)
    if args.refit and args.quick:
        p.error("--refit fits on the whole dev split: drop --quick")
    parts, how = dev_test()
    if args.quick:
        parts = {part: raws[: max(5, len(raws) // 4)] for part, raws in parts.items()}
    policy = LearnedPolicy()
    rows = decision_rows(parts, policy)
    dev = rows[("free", "dev")] + rows[("slot", "dev")]
    data = f"hand-written corpus, dev {len(parts['dev'])} / test {len(parts['test'])} episodes ({how})"
    path = args.weights or WEIGHTS
    if args.refit:
        rule, chosen, cv = refit(dev, data, path)
        origin = f"refitted now on dev ({REFIT_COMMAND}) and written to {path}"
    else:
        rule = Uncertainty.load(path)
        fresh_name, fresh, cv = choose(dev)
        chosen, fresh = "as shipped", calibrated(fresh, dev)
        origin = (f"{path} as it is; on dev, accuracy kept at 20%: this file {dev_kept(rule, dev):.3f}, a fit made now "
                  f"({fresh_name}) {dev_kept(fresh, dev):.3f} (in-sample; refit with `{REFIT_COMMAND}` after a policy change)")
    report = Report("escalation", f"{data}; rows: test split, free text, teacher-forced")
    slot_rows: dict[str, dict[str, float]] = {}

    def setting(variant: str, share: float) -> Setting:
        return Setting(rule, share)

    for share in SHARES:
        name = "cpu_only" if share == 0 else f"escalate_{share}"
        report.add(name, **metrics(policy, rows[("free", "test")], setting("free", share / 100)))
        slot_rows[name] = metrics(policy, rows[("slot", "test")], setting("slot", share / 100))
    report.add("perfect_doubt_20", **bound(rows[("free", "test")], 0.2))
    slot_rows["perfect_doubt_20"] = bound(rows[("slot", "test")], 0.2)
    why_refused = {v: refusals(policy, rows[(v, "test")], setting(v, 0.2)) for v in ("free", "slot")}
    recall_all = {f"{v}_{part}": recall(rows[(v, part)]) for v in ("free", "slot") for part in ("dev", "test")}
    curves = {f"{label} ({v})": risk_coverage(r, rows[(v, "test")])
              for v in ("free", "slot") for label, r in (("chosen rule", rule), ("1 - p only", P_ONLY))}
    curves.update({f"perfect doubt ({v})": perfect_curve(rows[(v, "test")]) for v in ("free", "slot")})
    fitted = {name: make(dev) for name, make in MODELS.items()}
    on_test = {name: [(f.p(r.terms), r.correct) for r in rows[("free", "test")]] for name, f in fitted.items()}
    curves.update({f"{name} fitted on dev (free)": risk_coverage(f, rows[("free", "test")])
                   for name, f in fitted.items() if name != "top_probability"})
    decide_extra = overhead_ms(policy, rows[("free", "test")], setting("free", 0.2))
    report.add("cpu_only", judge_overhead_ms=decide_extra, judge_overhead_write_ms=decide_extra + bookkeeping_ms())
    report.extra = {"handwritten_slot": slot_rows, "oracle_refusals_at_20": why_refused, "candidate_recall": recall_all,
                    "uncertainty": {"origin": origin, "chosen": chosen, "cv": cv, "terms": TERMS, "weights": rule.weights,
                                    "crosses": rule.crosses, "bias": rule.bias, "threshold_20_dev": rule.threshold},
                    "risk_coverage": {k: {"coverage": c, "risk": r} for k, (c, r) in curves.items()}}
    report.extra["doubt_signals_dev"] = signals(dev)
    report.extra["model_classes_on_free_test"] = {name: {"auroc": auroc(v), **{f"kept_{s}": kept_accuracy(v, s / 100)
                                                                               for s in SHARES if s}}
                                                  for name, v in on_test.items()}
    report.notes.append("the same claims with their slots (handwritten_slot):\n" + table(slot_rows))
    report.notes.append("model classes on dev (episode-grouped 5-fold CV, 3 fold draws; mean accuracy kept over the "
                        "shares 5-50% and AUROC, on all of dev and on the dev decisions the policy was not trained on, "
                        "which the choice reads):\n" + table(cv))
    report.notes.append("each model class fitted on all of dev, ranking free-text test (for the record; the choice "
                        "reads dev only): " + "; ".join(f"{k} AUROC {auroc(v):.3f}, accuracy kept at 20% {kept_accuracy(v, 0.2):.3f}"
                                                         for k, v in on_test.items()))
    report.notes.append("each signal alone on dev (no fit; higher escalates first):\n" + table(
        {t: {k: v for k, v in row.items() if not k.startswith(("kept_5", "kept_10"))} for t, row in sorted(
            report.extra["doubt_signals_dev"].items(), key=lambda kv: -abs(kv[1]["auroc_unseen"] - 0.5))}))
    weights = {t: w for t, w in zip(TERMS, rule.weights) if w}
    report.notes.append(f"doubt model: {origin}; chosen: {chosen}; bias {rule.bias}, weights {weights} (others 0), "
                        f"crosses {[f'{a}*{b}={w}' for a, b, w in rule.crosses or ()]}; P(wrong) threshold escalating 20% "
                        f"of dev {rule.threshold:.3f}; shares are budgets (ShareGate seeded with the rule's dev "
                        f"percentiles, as share= does)")
    report.notes.append(f"oracle answers refused by validation at escalate_20, by reason: {why_refused}")
    report.notes.append("candidate recall (gold target among the <= 3 candidates shown), all decisions with a gold "
                        "target: " + ", ".join(f"{k} {v:.3f}" for k, v in recall_all.items()))
    report.notes.append("accuracy of the kept at 80% coverage on test: " + ", ".join(
        f"{k} {1 - risk_at_curve(c):.3f}" for k, c in curves.items()))
    report.notes.append("perfect_doubt_20: the ceiling at 20% with a perfect sense of doubt (the CPU's errors escalate "
                        "first, an oracle answers, the contract's refusals ignored); the same ceiling at every share, "
                        "free text, accuracy_kept / macro_f1_oracle: " + ", ".join(
                            f"{s}% {c['accuracy_kept']:.3f} / {c['macro_f1_oracle']:.3f}"
                            for s, c in ((s, bound(rows[("free", "test")], s / 100)) for s in SHARES if s)))
    for v in ("free", "slot"):
        test, caught = rows[(v, "test")], (report.systems if v == "free" else slot_rows)["escalate_20"]["errors_caught"]
        wrong = sum(not r.correct for r in test)
        report.notes.append(f"ceiling analysis ({v}): the CPU errs on {wrong} of {len(test)} test decisions; escalate_20 "
                            f"sends {caught:.1%} of those errors to the judge, a perfect sense of doubt would send "
                            f"{min(wrong, round(0.2 * len(test))) / max(1, wrong):.1%}")
    base_acc = float(np.mean([r.correct for r in rows[("free", "test")]]))
    report.notes.append(f"kept accuracy >= 0.92 at 20% escalation needs, even with a perfect sense of doubt, a CPU "
                        f"accuracy >= 0.8 * 0.92 = 0.736 on the whole stream; the CPU's on free-text test: {base_acc:.3f}")
    report.notes.append("judge_overhead_ms: median extra time per non-escalated decision of EscalatingPolicy (share "
                        "gate at 20%) over its base, each followed by the contract as decision.decide runs it (same process, "
                        "same decisions, wall clock; a median of differences, so it can fall below 0); judge_overhead_write_ms "
                        "adds what MemoryEngine.write does for a policy that asks a judge (refresh, head read, "
                        "namespace-changed check: bookkeeping_ms, in-memory SQLite)")

    def draw(ax: Any) -> None:
        for label, (cov, risk) in curves.items():
            ax.plot(cov, risk, label=label, ls="-" if "chosen" in label else ":" if "perfect" in label else
                    "-." if "fitted" in label else "--")
        ax.set_xlabel("coverage (share decided by the CPU)")
        ax.set_ylabel("risk (error rate of the kept decisions)")
        ax.set_title("escalation: risk-coverage on hand-written test")
        ax.legend(fontsize=8)

    report.plot("escalation_risk_coverage.png", draw)
    report.emit(args)
    return 0


def table(rows: dict[str, dict[str, float]]) -> str:
    """Rows of metrics as the report prints its own."""
    side = Report("side", "")
    for name, row in rows.items():
        side.add(name, **row)
    return side.table()


def dev_kept(rule: Uncertainty, dev: Sequence[Scored], share: float = 0.2) -> float:
    return kept_accuracy([(rule.p(r.terms), r.correct) for r in dev], share)


def risk_at_curve(curve: tuple[list[float], list[float]], coverage: float = 0.8) -> float:
    cov, risk = curve
    return risk[min(range(len(cov)), key=lambda j: abs(cov[j] - coverage))]
