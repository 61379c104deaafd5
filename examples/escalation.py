"""Ask the agent's own LLM only when unsure: confidence-gated escalation, offline.

The CPU policy decides every write in well under a millisecond; the escalating policy sends only the
decisions it doubts to a judge (in an application: the agent's chat model, through
``langchain_tarl.ChatModelJudge`` or ``llamaindex_tarl.LLMJudge``). Here the judge is a scripted
stand-in that reads the same structured request a model would get, so the run is offline and
repeatable. One of its answers is deliberately malformed, to show that a bad answer falls back to the
CPU's decision and is recorded, never losing the write.

    python examples/escalation.py

Printed: each write as two engines decide it, one with the shipped uncertainty rule (most writes
never reach the judge) and one that asks the judge about every write (threshold 0, to show every
path): the action, who decided it (``policy`` / ``judge`` / ``fallback``) and the judge's rationale or
why its answer was refused; then the counters. The same fields are in the transaction log
(``engine.log(namespace)``).
"""

from __future__ import annotations

from shared_core import Claim, LearnedPolicy, MemoryEngine
from shared_core.escalation import EscalatingPolicy, Uncertainty
from shared_core.judging import JudgeRequest

NS = "user:noor"
STREAM = [
    ("I live in Lisbon", "user"),
    ("My manager is Priya", "user"),
    ("lol ok", "user"),
    ("Big news: I moved to Porto", "user"),
    ("my cousin reckons I live in Madrid now", "third_party"),
    ("Priya left; Daniel is my manager now", "user"),
    ("Ticket ZX-4410 is open", "tool"),
    ("Ticket ZX-4452 is open", "tool"),
    ("some website says the user lives in Berlin", "web"),
    ("I think I might switch to a vegan diet", "user"),
]


def scripted_judge(request: JudgeRequest) -> object:
    """What a model would answer from the request's text and candidates (the prompt is
    ``request.prompt()``); the answer to the ticket ZX-4452 claim is malformed on purpose."""
    text = request.claim.text.lower()
    first = request.candidates[0].id if request.candidates else None
    if "zx-4452" in text:
        return "Sure! I'd append that one."                       # not JSON: refused, CPU decision stands
    if request.claim.source in ("third_party", "web") and first:
        return {"action": "reject_conflict", "target_id": first, "rationale": "hearsay against the user's own word"}
    if any(w in text for w in ("moved", "now")) and first:
        return {"action": "revise", "target_id": first, "rationale": "a completed change of the same attribute"}
    if any(w in text for w in ("think", "might", "maybe")):
        return {"action": "defer_verify", "target_id": None, "rationale": "hedged plan"}
    return {"action": "append", "target_id": None, "rationale": "a new fact"}


def main() -> int:
    shipped = EscalatingPolicy(LearnedPolicy(), scripted_judge, calls_per_minute=30)       # the shipped rule
    everything = EscalatingPolicy(LearnedPolicy(), scripted_judge, uncertainty=Uncertainty(threshold=0.0))
    print(f"{'claim':44} {'source':12} {'shipped rule':28} {'every write asked (threshold 0)':34} judge said")
    with MemoryEngine.open(policy=shipped) as a, MemoryEngine.open(policy=everything) as b:
        for text, source in STREAM:
            da, db = (e.write(Claim(text=text, source=source, namespace=NS)) for e in (a, b))
            print(f"{text[:44]:44} {source:12} {da.action.value + ' by ' + da.decided_by:28} "
                  f"{db.action.value + ' by ' + db.decided_by:34} {db.judge_rationale[:60]}")
        for engine, policy in ((a, shipped), (b, everything)):
            log = engine.log(NS)
            assert len([t for t in log if t.claim is not None]) >= len(STREAM)      # every write is logged
            counts = policy.counters.as_dict()
            asked = [t.decision for t in log if t.decision is not None and t.decision.decided_by != "policy"]
            assert counts["judge_calls"] == len(asked) == counts["judged"] + counts["fallbacks"]
        print("\nshipped rule, counters:", {k: round(v, 2) for k, v in shipped.counters.as_dict().items()})
        print("threshold 0, counters: ", {k: round(v, 2) for k, v in everything.counters.as_dict().items()})
        print("threshold 0, accepted: ", [e.text for e in b.accepted(NS)])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
