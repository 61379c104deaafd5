"""EscalatingPolicy on a real engine (SQLite + Chroma): judge answers applied only when valid, every
failure falls back to the CPU decision and is recorded, the budget holds, the async path matches."""

from __future__ import annotations

import asyncio
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core import Action, Claim, Decision, Ledger, MemoryEngine, TarlError
from shared_core.escalation import EscalatingPolicy, Uncertainty, with_judge
from shared_core.judging import JudgeRequest
from shared_core.policy import LearnedPolicy

ALWAYS, NEVER = Uncertainty(threshold=0.0), Uncertainty(threshold=1.0)


class Script:
    """A judge replying from a list (callables are called with the request); records every request."""

    def __init__(self, *replies):
        self.replies, self.requests = list(replies), []

    def judge(self, request: JudgeRequest):
        self.requests.append(request)
        reply = self.replies.pop(0)
        return reply(request) if callable(reply) else reply


def engine_with(judge, uncertainty=ALWAYS, **options):
    policy = EscalatingPolicy(LearnedPolicy(), judge, uncertainty=uncertainty, **options)
    return MemoryEngine.open(policy=policy), policy


def first_candidate(action):
    return lambda req: {"action": action, "target_id": req.candidates[0].id, "rationale": f"{action} it"}


APPEND = {"action": "append", "target_id": None, "rationale": "new fact"}


def test_a_valid_answer_is_applied_and_logged():
    judge = Script(APPEND, first_candidate("revise"))
    engine, policy = engine_with(judge)
    with engine:
        engine.write(Claim(text="I live in Lisbon", namespace="u"))
        d = engine.write(Claim(text="I moved to Porto last week", namespace="u"))
        assert (d.action, d.decided_by, d.judge_rationale) == (Action.REVISE, "judge", "revise it")
        assert d.judge_ms is not None and d.rationale.startswith("judge: revise")
        assert [e.text for e in engine.accepted("u")] == ["I moved to Porto last week"]
        logged = engine.log("u")[-1].decision
        assert (logged.decided_by, logged.judge_rationale) == ("judge", "revise it")
        req = judge.requests[1]
        assert req.claim.text == "I moved to Porto last week" and req.claim.source == "user"
        assert [c.text for c in req.candidates] == ["I live in Lisbon"] and req.candidates[0].ledger is Ledger.ACCEPTED
        assert set(req.actions) == {a.value for a in (Action.APPEND, Action.NOOP, Action.REVISE,
                                                      Action.REJECT_CONFLICT, Action.DEFER_VERIFY)}
        assert "Porto" in req.prompt() and req.candidates[0].id in req.prompt()
    assert policy.counters.as_dict()["judged"] == 2


def _boom(request):
    raise RuntimeError("model down")


@pytest.mark.parametrize("reply, counter, why", [
    ("not json at all", "invalid", "invalid answer: answer is not JSON"),
    ({"action": "delete_everything"}, "invalid", "invalid answer: answer.action="),
    ({"action": "revise", "target_id": "no-such-id"}, "invalid", "is not one of the candidates"),
    ({"action": "reject_conflict", "target_id": None}, "invalid", "needs an Accepted target"),
    ({"action": "noop", "target_id": None}, "invalid", "breaks the labelling contract"),
    (_boom, "errors", "judge raised RuntimeError: model down"),
])
def test_bad_answers_and_errors_fall_back_and_are_recorded(reply, counter, why):
    engine, policy = engine_with(Script(APPEND, reply))
    with engine:
        engine.write(Claim(text="I live in Lisbon", namespace="u"))
        base = LearnedPolicy()
        d = engine.write(Claim(text="My manager is Priya", namespace="u"))
        assert d.decided_by == "fallback" and why in d.judge_rationale
        logged = engine.log("u")[-1]
        assert logged.decision.decided_by == "fallback" and why in logged.decision.judge_rationale
        assert logged.claim.text == "My manager is Priya"            # the write was not lost
        assert d.action in (Action.APPEND, Action.DEFER_VERIFY) and base.name == "learned"
    counts = policy.counters.as_dict()
    assert counts[counter] == 1 and counts["fallbacks"] == 1 and counts["judged"] == 1


def test_a_timeout_falls_back():
    release = threading.Event()
    engine, policy = engine_with(lambda req: release.wait(5) and APPEND, timeout=0.05)
    with engine:
        d = engine.write(Claim(text="I live in Lisbon", namespace="u"))
        release.set()
    assert d.decided_by == "fallback" and "timed out" in d.judge_rationale
    assert policy.counters.as_dict()["timeouts"] == 1


def test_the_judge_is_not_called_when_the_base_is_confident():
    judge = Script()
    engine, policy = engine_with(judge, uncertainty=Uncertainty())        # the shipped rule
    with engine:
        d = engine.write(Claim(text="I live in Lisbon", namespace="u"))   # empty memory: no doubt
    assert judge.requests == [] and d.decided_by == "policy" and d.judge_ms is None
    assert policy.counters.as_dict()["judge_calls"] == 0


def test_the_judge_is_never_called_below_the_threshold():
    judge = Script()
    engine, _ = engine_with(judge, uncertainty=NEVER)
    with engine:
        for text in ["I live in Lisbon", "I moved to Porto", "my cousin says I live in Madrid", "lol ok"]:
            assert engine.write(Claim(text=text, namespace="u")).decided_by == "policy"
    assert judge.requests == []


def test_the_budget_is_per_namespace_and_per_minute():
    now = [0.0]
    judge = Script(*[APPEND] * 10)
    engine, policy = engine_with(judge, calls_per_minute=2, clock=lambda: now[0])
    with engine:
        who = [engine.write(Claim(text=f"fact number {i} is {i * 7}", namespace="a")).decided_by for i in range(3)]
        assert who == ["judge", "judge", "policy"]
        assert "budget exhausted" in engine.log("a")[-1].decision.judge_rationale
        assert engine.write(Claim(text="another namespace holds the vault pin 2231", namespace="b")).decided_by == "judge"
        now[0] = 61.0
        assert engine.write(Claim(text="a minute later the printer code is 4471", namespace="a")).decided_by == "judge"
    assert policy.counters.as_dict()["over_budget"] == 1 and len(judge.requests) == 4


class AsyncScript(Script):
    async def ajudge(self, request):
        await asyncio.sleep(0)
        return self.judge(request)


async def test_async_decide_uses_ajudge_and_falls_back_on_timeout():
    from shared_core.grounding import ground

    claim = Claim(text="I live in Lisbon", namespace="u")
    ok = EscalatingPolicy(LearnedPolicy(), AsyncScript(APPEND), uncertainty=ALWAYS)
    d = await ok.adecide(claim, ground(claim, []), None)
    assert (d.action, d.decided_by) == (Action.APPEND, "judge")

    class Slow:
        async def ajudge(self, request):
            await asyncio.sleep(10)

        def judge(self, request):  # pragma: no cover - the async path never calls it
            raise AssertionError

    slow = EscalatingPolicy(LearnedPolicy(), Slow(), uncertainty=ALWAYS, timeout=0.01)
    d = await slow.adecide(claim, ground(claim, []), None)
    assert d.decided_by == "fallback" and "timed out" in d.judge_rationale


@pytest.mark.parametrize("bad, field", [({"calls_per_minute": -1}, "calls_per_minute"), ({"timeout": 0}, "timeout"),
                                        ({"uncertainty": "x"}, "uncertainty")])
def test_bad_options_name_the_field(bad, field):
    with pytest.raises(TarlError, match=field):
        EscalatingPolicy(LearnedPolicy(), Script(), **bad)


def test_a_judge_must_be_callable():
    with pytest.raises(TarlError, match="judge"):
        EscalatingPolicy(LearnedPolicy(), 42)
    with pytest.raises(TarlError, match="threshold"):
        Uncertainty(threshold=2.0)
    assert with_judge(None, None) is None


ANSWERS = st.fixed_dictionaries({
    "action": st.sampled_from(["append", "noop", "revise", "reject_conflict", "defer_verify", "drop"]),
    "target_id": st.one_of(st.none(), st.sampled_from(["first", "junk"])),
    "rationale": st.text(max_size=20),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(answers=st.lists(ANSWERS, min_size=3, max_size=3))
def test_any_answer_leaves_memory_consistent_and_every_write_logged(answers):
    def reply(answer):
        def make(req):
            target = req.candidates[0].id if answer["target_id"] == "first" and req.candidates else answer["target_id"]
            return {**answer, "target_id": target}
        return make

    engine, _ = engine_with(Script(*map(reply, answers)))
    with engine:
        texts = ["I live in Lisbon", "I moved to Porto", "my cousin says I live in Madrid"]
        decisions = [engine.write(Claim(text=t, namespace="u")) for t in texts]
        assert len(engine.log("u")) >= 3 and all(d.decided_by in ("judge", "fallback") for d in decisions)
        state = engine.state("u")
        stored = {e.text for e in state.accepted + state.pending + state.history}
        # nothing stored is ever lost; a claim stays out of the ledgers only by a noop, which is logged
        assert len(state.accepted) + len(state.pending) + len(state.history) == len(stored)
        assert stored == {t for t, d in zip(texts, decisions) if d.action is not Action.NOOP}


def test_the_example_runs_offline(capsys):
    import runpy
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "examples" / "escalation.py"
    assert runpy.run_path(str(example))["main"]() == 0
    out = capsys.readouterr().out
    assert "judge" in out and "fallback" in out and "invalid answer" in out


async def test_async_decide_with_a_sync_judge_runs_it_off_the_loop():
    from shared_core.grounding import ground

    seen = []
    policy = EscalatingPolicy(LearnedPolicy(), lambda req: seen.append(threading.current_thread().name) or APPEND,
                              uncertainty=ALWAYS)
    claim = Claim(text="I live in Lisbon", namespace="u")
    d = await policy.adecide(claim, ground(claim, []), None)
    assert d.decided_by == "judge" and seen == ["tarl-judge"]


def test_a_judge_call_does_not_hold_the_write_lock():
    asked, other_done, seen = threading.Event(), threading.Event(), []

    def judge(request):
        if request.claim.text == "I live in Lisbon":
            asked.set()
            seen.append(other_done.wait(5))          # False if the other write were blocked on our lock
        return APPEND

    engine, _ = engine_with(judge)
    with engine:
        writer = threading.Thread(target=lambda: engine.write(Claim(text="I live in Lisbon", namespace="a")))
        writer.start()
        asked.wait(5)
        engine.write(Claim(text="My manager is Priya", namespace="b"))     # while the judge is thinking
        other_done.set()
        writer.join(10)
        assert [e.text for e in engine.accepted("a")] == ["I live in Lisbon"]
    assert seen == [True]


def test_a_namespace_changed_while_the_judge_thought_is_decided_again():
    requests = []

    def judge(request):
        requests.append(request)
        if request.claim.text == "I moved to Porto" and len(requests) == 1:   # someone writes meanwhile
            engine.write(Claim(text="I live in Lisbon", namespace="u"))
        return APPEND

    engine, _ = engine_with(judge)
    with engine:
        d = engine.write(Claim(text="I moved to Porto", namespace="u"))
        outer = [r for r in requests if r.claim.text == "I moved to Porto"]
        assert len(outer) == 2 and outer[0].candidates == ()              # asked again, on the new state
        assert [c.text for c in outer[1].candidates] == ["I live in Lisbon"]
        assert d.decided_by == "judge" and len(engine.log("u")) == 2


PROBS = st.dictionaries(st.sampled_from(["append", "noop", "revise", "reject_conflict", "defer_verify"]),
                        st.floats(0, 1), min_size=1)


@settings(max_examples=60, deadline=None)
@given(proposed=PROBS, executed=st.sampled_from(list(Action)[:5]), margin=st.floats(-1, 1),
       threshold=st.floats(0, 1), source=st.sampled_from(["user", "tool", "web", "third_party"]))
def test_the_rule_escalates_exactly_above_its_threshold(proposed, executed, margin, threshold, source):
    from shared_core.escalation import TERMS, doubt_terms
    from shared_core.grounding import ground

    claim = Claim(text="I moved to Porto", namespace="u", source=source)
    g = ground(claim, [])
    p = max(proposed, key=proposed.__getitem__)
    base = Decision(action=Action(p), probabilities=proposed, margin=margin)
    done = base.model_copy(update={"action": executed})
    terms = doubt_terms(claim, done, g, base)
    assert len(terms) == len(TERMS) and all(0.0 <= t <= 1.0 for t in terms)
    rule = Uncertainty(threshold=threshold)
    score = rule.score(claim, done, g, base)
    assert 0.0 <= score <= 1.0
    assert (rule.why(claim, done, g, base) is None) == (score < threshold)
