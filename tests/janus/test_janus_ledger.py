"""Janus decisions in the TARL ledgers (real engine: SQLite + embedded Chroma): accepted candidates
revise/append/close in one apply, rejected ones are visible in History with their reason."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_core.janus import AlwaysTrigger, JanusConfig, JanusController, JanusError, Verdict
from shared_core.janus.ledger import JanusLedger, memory_diff
from shared_core.index import HashingEmbedder
from shared_core.executor import Step
from shared_core.schema import Action, Claim, Ledger, Reason

NS = "agent/reflections"
EMBED = HashingEmbedder(dim=256, char_dims=64)


def test_memory_diff_pairs_in_place_rewrites():
    d = memory_diff(["a", "b", "c"], ["a", "B", "c", "d"])
    assert d.revised == (("b", "B"),) and d.appended == ("d",) and d.removed == ()
    d = memory_diff(["a", "b", "c"], ["a", "c"])
    assert d.removed == ("b",) and d.revised == () and d.appended == ()
    assert memory_diff(["a"], ["a"]) == memory_diff([], [])


@given(st.lists(st.sampled_from("abcdef"), max_size=6), st.lists(st.sampled_from("abcdefgh"), max_size=6))
def test_memory_diff_rebuilds_the_candidate(current, candidate):
    d = memory_diff(current, candidate)
    kept = Counter(current) - Counter(d.removed) - Counter(old for old, _ in d.revised)
    assert kept + Counter(d.appended) + Counter(new for _, new in d.revised) == Counter(candidate)


def controller(engine, candidates, evaluate):
    ledger = JanusLedger(engine, NS)
    queue = list(candidates)
    return JanusController(
        lambda memory, task, feedback: queue.pop(0), evaluate, EMBED,
        config=JanusConfig(warmup=0), memory=ledger.memory(), trigger=AlwaysTrigger(0), sink=ledger,
    )


def texts(entries):
    return sorted(e.text for e in entries)


def test_accepted_candidate_is_one_atomic_apply(engine):
    g = controller(engine, [("use carry", "check units"), ("use invert", "check units", "halve first"), ("use invert",)],
                   lambda memory, task: 1.0)
    g.step("t0")
    head = engine.log(NS)[-1].tx
    g.step("t1")                                  # revise + append
    g.step("t2")                                  # two items dropped
    assert texts(engine.accepted(NS)) == sorted(g.memory) == ["use invert"]
    hist = {e.text: e for e in engine.history(NS)}
    assert hist["use carry"].reason is Reason.SUPERSEDED
    assert hist["check units"].reason is Reason.SUPERSEDED and "dropped" in hist["check units"].note
    assert all(e.source == "reflection" for e in engine.state(NS).entries.values())
    step1 = [t for t in engine.log(NS) if t.tx > head][:2]
    assert [t.action.value for t in step1] == ["revise", "append"]
    assert "tie" in step1[0].decision.rationale


def test_rejected_candidate_goes_to_history_with_reason(engine):
    scores = {"use carry": 1.0, "use invert": 0.0, "halve first": 0.0}
    evaluate = lambda memory, task: sum(scores[m] for m in memory) / max(1, len(memory))  # noqa: E731
    g = controller(engine, [("use carry",), ("use invert", "halve first")], evaluate)
    g.step("t0")
    before, head = engine.state(NS), engine.log(NS)[-1].tx
    d = g.step("t1")
    assert d.verdict is Verdict.CURRENT_BETTER
    assert g.memory == ("use carry",) and texts(engine.accepted(NS)) == ["use carry"]
    rejected = {e.text: e for e in engine.history(NS)}
    assert set(rejected) == {"use invert", "halve first"}
    for e in rejected.values():
        assert e.reason is Reason.REJECTED and e.note.startswith("janus rejected")
        assert "current_better" in e.note
    assert rejected["use invert"].target_id == engine.accepted(NS)[0].id   # it conflicted with "use carry"
    # replayable: Accepted never changed; the log holds the rejection with Janus's rationale
    assert engine.state(NS, as_of=head).history == []
    assert all("current_better" in t.decision.rationale for t in engine.log(NS) if t.tx > head)
    assert engine.state(NS, as_of=head).accepted == before.accepted == engine.state(NS).accepted


def test_ledger_out_of_sync_is_refused_and_controller_unchanged(engine):
    g = controller(engine, [("use carry",), ("use swap",)], lambda memory, task: 1.0)
    g.step("t0")
    engine.apply(NS, [Step(Action.APPEND, Claim(text="someone else's note", namespace=NS, source="reflection"))])
    with pytest.raises(JanusError, match="differ"):
        g.step("t1")
    assert g.memory == ("use carry",) and g.stats.steps == 1


def test_ledger_memory_restores_a_controller(disk_engine):
    g = controller(disk_engine, [("a rule", "b rule")], lambda memory, task: 1.0)
    g.step("t0")
    assert sorted(JanusLedger(disk_engine, NS).memory()) == sorted(g.memory)
    assert all(e.ledger is Ledger.ACCEPTED for e in disk_engine.accepted(NS))


def test_rejected_drop_is_logged_and_whitespace_is_tolerated(engine):
    scores = {"keep me": 1.0, "other": 0.0}
    evaluate = lambda memory, task: max([scores[m.strip()] for m in memory] or [0.0])  # noqa: E731
    g = controller(engine, [("  keep me ", "other"), ("other",)], evaluate)
    g.step("t0")
    d = g.step("t1")
    assert not d.accepted and texts(engine.accepted(NS)) == ["keep me", "other"]
    last = engine.log(NS)[-1]
    assert last.action.value == "noop" and last.claim.text == "keep me" and "current_better" in last.decision.rationale


def test_every_decision_replays_from_the_log(engine):
    """The simulated curator through Janus into the ledger: after each step, replaying the log up to
    that point gives exactly the controller's memory, and every rejection is in History."""
    import numpy as np

    from shared_core.janus.simulator import make_stream, propose

    stream = make_stream("steady", 4, 40)
    world, judge = stream.world, np.random.default_rng(0)
    ledger = JanusLedger(engine, NS)
    g = JanusController(
        lambda memory, task, ok: propose(memory, task, ok, world, np.random.default_rng(task.id)),
        lambda memory, task: float(judge.random() < world.p_correct(memory, task)),
        EMBED, config=JanusConfig(warmup=5, coverage=3, boundary=2, fresh=2), trigger=AlwaysTrigger(5), sink=ledger,
    )
    heads, rejected, head = [], 0, 0
    for task in stream.tasks:
        d = g.step(task, bool(judge.random() < 0.5))
        rows = engine.log(NS, after=head)
        head = rows[-1].tx if rows else head
        heads.append((head, g.memory))
        if not d.accepted:
            rejected += 1
            assert rows and all(f"step {d.step}: current_better" in t.decision.rationale for t in rows)
    for head, memory in heads:
        assert texts(engine.state(NS, as_of=head).accepted) == sorted(memory)
    assert rejected > 0 and any(e.reason is Reason.REJECTED for e in engine.history(NS))
