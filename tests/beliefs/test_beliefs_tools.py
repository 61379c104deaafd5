"""The core belief tools: short ids that every reader agrees on, replies that say what followed, the
selection rules, and bad input that writes nothing."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core import MemoryEngine, TarlError
from shared_core.beliefs import Status
from shared_core.beliefs.aliases import Aliases
from shared_core.beliefs.tools import BeliefTools

NS = "lab"

OPS = st.lists(st.one_of(
    st.tuples(st.just("propose"), st.integers(0, 9), st.integers(0, 3)),
    st.tuples(st.just("declare"), st.integers(1, 3), st.booleans()),
    st.tuples(st.just("record"), st.integers(1, 12), st.booleans()),
    st.tuples(st.just("start"), st.integers(1, 12), st.booleans()),
), max_size=14)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=OPS)
def test_two_tool_sets_on_one_store_always_agree_with_a_fresh_read(ops):
    """Two writers (think: two processes) interleave; each one's incremental ids equal a fresh read's."""
    with MemoryEngine.open() as engine:
        tools = [BeliefTools(engine, NS), BeliefTools(engine, NS)]
        for i, op in enumerate(ops):
            t = tools[i % 2]
            if op[0] == "propose":
                t.call("propose_hypothesis", {"text": f"h{i}", "rests_on": [f"H{op[1]}"] if op[1] else [],
                                              **({"answers": f"Q{op[2]}"} if op[2] else {})})
            elif op[0] == "declare":
                t.call("declare_question", {"question": f"q{i}", "closed_world": op[2],
                                            "candidates": [{"text": f"c{i}.{k}"} for k in range(op[1])]})
            elif op[0] == "record":
                t.call("record_result", {"hypothesis": f"H{op[1]}", "confirmed": op[2], "evidence": "seen"})
            else:
                t.call("start_experiment", {"hypothesis": f"H{op[1]}"})
            fresh = Aliases(engine.state(NS).entries.values())
            for other in tools:
                state, live = other.view()
                assert live.by_id == fresh.by_id
                assert state == engine.state(NS)


def test_restating_a_hypothesis_returns_it_and_retest_proposes_it_anew(engine):
    t = BeliefTools(engine, NS)
    assert t.call("propose_hypothesis", {"text": "The enzyme is heat-stable."}).startswith("H1 proposed")
    head = engine.store.head()
    assert t.call("propose_hypothesis", {"text": "the enzyme is  heat-stable"}) == \
        "already proposed as H1 [untested]; nothing written."
    t.call("record_result", {"hypothesis": "h1", "confirmed": False, "evidence": "denatured at 60C"})
    head = engine.store.head()
    assert "H1 'The enzyme is heat-stable.' is refuted" in t.call("propose_hypothesis", {"text": "The enzyme is heat-stable"})
    assert engine.store.head() == head
    assert t.call("propose_hypothesis", {"text": "The enzyme is heat-stable", "retest": True}).startswith("H2 proposed")


def test_record_result_completes_the_open_experiment(engine):
    t = BeliefTools(engine, NS)
    t.call("propose_hypothesis", {"text": "P"})
    assert t.call("start_experiment", {"hypothesis": "H1", "description": "assay"}).startswith("E1 started on H1 'P'")
    assert engine.status(engine.pending(NS)[0].id) is Status.IN_PROGRESS
    assert t.call("record_result", {"hypothesis": "H1", "confirmed": True, "evidence": "signal"}).startswith(
        "R1 recorded: H1 confirmed.")
    assert [e.reason.value for e in engine.history(NS)] == ["completed"]         # E1, by its result
    assert "evidence" in t.call("explain", {"id": "H1"})


@pytest.mark.parametrize("rule, expected", [("argmax", "H3"), ("deepest", "H4")])
def test_next_to_test_rules_say_why(engine, rule, expected):
    t = BeliefTools(engine, NS, rule=rule)
    t.call("propose_hypothesis", {"text": "root", "prior": 0.5})
    t.call("record_result", {"hypothesis": "H1", "confirmed": True, "evidence": "ok"})
    t.call("propose_hypothesis", {"text": "sibling", "prior": 0.3})
    t.call("propose_hypothesis", {"text": "rival", "prior": 0.9})
    t.call("propose_hypothesis", {"text": "child", "prior": 0.4, "rests_on": ["H1"]})
    reply = t.call("next_to_test")
    assert reply.startswith(f"Test {expected} next")
    assert ("the highest prior (0.90)" if rule == "argmax" else "the deepest (rests on 1 confirmed") in reply


def test_sampling_is_seeded(engine):
    for k in range(4):
        engine.hypothesis(f"h{k}", NS, prior=0.25)
    picks = [BeliefTools(engine, NS, rule="sample", seed=7).call("next_to_test") for _ in range(2)]
    assert picks[0] == picks[1] and "a 25% chance" in picks[0]


def test_bad_input_is_a_reply_and_writes_nothing(engine):
    t = BeliefTools(engine, NS)
    t.call("propose_hypothesis", {"text": "P"})
    head = engine.store.head()
    replies = [t.call("propose_hypothesis", {"text": ""}),
               t.call("propose_hypothesis", {"text": "Q", "prior": "high"}),
               t.call("declare_question", {"question": "which?", "candidates": [{"text": "a"}, {"text": "A"}],
                                           "closed_world": True}),
               t.call("explain", {"id": "R9"}),
               t.call("record_result", {"hypothesis": "H1", "confirmed": True, "evidence": "x", "experiment": "E1"})]
    assert replies[0].startswith("error: text='': String should have at least 1 character")
    assert replies[1].startswith("error: prior='high': Input should be a valid number")
    assert replies[2].startswith("error: candidates=['a', 'A']: lists the same candidate twice")
    assert replies[3].startswith("error: id='R9': no such result (no result exists yet)")
    assert replies[4].startswith("error: experiment='E1': no such experiment")
    assert engine.store.head() == head
    with pytest.raises(TarlError, match="rule"):
        BeliefTools(engine, NS, rule="random")                           # type: ignore[arg-type]
    with pytest.raises(TarlError, match="no such belief tool"):
        t.call("delete_everything", {})


def test_briefing_is_empty_without_hypotheses_and_bounded_with_many(engine):
    t = BeliefTools(engine, NS)
    assert t.briefing() == ""
    for k in range(20):
        engine.hypothesis(f"h{k}", NS, prior=0.5)
    frontier = next(line for line in t.briefing().splitlines() if line.startswith("Frontier"))
    assert frontier.endswith("; and 12 more") and "Hypotheses in 'lab': 20 untested" in t.briefing()
