"""Belief tools through a real ``create_agent``, driven by a scripted tool-calling model: what the
tools answer, and what the next prompt says (the ``<beliefs>`` block)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_tarl.testing import call, scripted
from shared_core import MemoryEngine
from shared_core.beliefs import Status

from langchain_tarl import TarlBeliefMiddleware

NS = "catalysis"


def run(engine, *replies, seed=0):
    model = scripted(*replies, AIMessage("ok"))
    agent = create_agent(model, system_prompt="You run experiments.",
                         middleware=[TarlBeliefMiddleware(engine, NS, seed=seed)])
    agent.invoke({"messages": [HumanMessage("carry on")]})
    return model


def tool_replies(model):
    return [m.content for m in model.prompts[-1] if isinstance(m, ToolMessage)]


def system(model, i=-1):
    return model.prompts[i][0].content


def declare(closed, *texts):
    return call("declare_question", f"q{closed}", question="Which catalyst works?", closed_world=closed,
                candidates=[{"text": t} for t in texts])


def test_a_refuted_premise_prunes_its_dependents_and_the_next_prompt_says_so():
    with MemoryEngine.open() as engine:
        model = run(engine,
                    declare(True, "catalyst A works", "catalyst B works", "catalyst C works"),
                    call("propose_hypothesis", "p1", text="A scales to 10 kg", rests_on=["H1"], prior=0.6),
                    call("propose_hypothesis", "p2", text="A scales cheaply", rests_on=["H4"]),
                    call("record_result", "r1", hypothesis="H1", confirmed=False, evidence="no conversion at 80C"))
        replies = tool_replies(model)
        assert replies[0].startswith("Q1 declared (closed world")
        assert replies[3].splitlines() == ["R1 recorded: H1 refuted.", "- H1: refuted by result R1",
                                           "- H4: pruned: premise H1 is refuted", "- H5: pruned: premise H4 is pruned"]
        before, after = system(model, -2), system(model, -1)
        assert "pruned" not in before
        assert after.startswith("You run experiments.\n\n<beliefs>")
        assert "- H4: pruned: premise H1 is refuted" in after and "- H5: pruned: premise H4 is pruned" in after
        frontier = next(line for line in after.splitlines() if line.startswith("Frontier"))
        assert "H2" in frontier and "H3" in frontier and "H1" not in frontier and "H4" not in frontier
        ids = {h.text: h.id for h in engine.pending(NS) + engine.history(NS)}
        assert engine.status(ids["A scales cheaply"]) is Status.PRUNED


def test_a_closed_question_deduces_its_last_candidate():
    with MemoryEngine.open() as engine:
        model = run(engine, declare(True, "A works", "B works"),
                    call("record_result", "r1", hypothesis="H1", confirmed=False, evidence="no yield"))
        assert "- H2: deduced: the only member of closed group Q1 still in play" in tool_replies(model)[1]
        assert "Established: H2 'B works' (deduced)" in system(model)
        assert [e.text for e in engine.accepted(NS) if e.metadata.get("kind") == "hypothesis"] == ["B works"]


def test_an_open_question_deduces_nothing():
    with MemoryEngine.open() as engine:
        model = run(engine, declare(False, "A works", "B works"),
                    call("record_result", "r1", hypothesis="H1", confirmed=False, evidence="no yield"))
        assert tool_replies(model)[1].splitlines() == ["R1 recorded: H1 refuted.", "- H1: refuted by result R1"]
        assert "Frontier (test only these): H2 'B works'" in system(model)
        assert "deduced" not in system(model)


def test_a_new_candidate_withdraws_the_deduction_and_reopens_the_question():
    with MemoryEngine.open() as engine:
        model = run(engine, declare(True, "A works", "B works"),
                    call("record_result", "r1", hypothesis="H1", confirmed=False, evidence="no yield"),
                    call("propose_hypothesis", "p1", text="D works", answers="Q1", prior=0.4))
        reply = tool_replies(model)[2]
        assert reply.splitlines() == ["H3 proposed: 'D works' [untested]",
                                      "- H2: deduction withdrawn: group Q1 has another member in play"]
        assert "Frontier (test only these): H2 'B works' (0.50); H3 'D works' (0.40)" in system(model)
        assert "Established" not in system(model)


def test_bad_tool_input_gets_a_clear_error_and_writes_nothing():
    with MemoryEngine.open() as engine:
        run(engine, declare(True, "A works", "B works"),
            call("propose_hypothesis", "p0", text="A scales", rests_on=["H1"]))
        head = engine.store.head()
        model = run(engine,
                    call("propose_hypothesis", "b1", text="C works", rests_on=["H9"]),
                    call("propose_hypothesis", "b2", text="C works", prior=1.5),
                    call("propose_hypothesis", "b3", text="A works", answers="Q1", rests_on=["H3"]),
                    call("record_result", "b4", hypothesis="Q1", confirmed=True, evidence="x"),
                    call("start_experiment", "b5", hypothesis="H7"),
                    call("declare_question", "b6", question="Which?", closed_world=True,
                         candidates=[{"text": "x", "prior": 0}]))
        replies = tool_replies(model)
        assert replies[0].startswith("error: rests_on[0]='H9': no such hypothesis (known hypothesis ids: H1, H2, H3)")
        assert replies[1].startswith("error: prior=1.5: Input should be less than or equal to 1")
        assert replies[2].startswith("error: rests_on=['H3']: would make a cycle: 'A works' is H1, "
                                     "and H3 already rests on H1")
        assert replies[3].startswith("error: hypothesis='Q1': is a question, not a hypothesis")
        assert replies[4].startswith("error: hypothesis='H7': no such hypothesis")
        assert replies[5].startswith("error: candidates.0.prior=0: Input should be greater than 0")
        assert all(r.endswith("Nothing was written; fix the call and retry.") for r in replies)
        assert engine.store.head() == head


async def test_async_agent_sees_the_same_tools_and_summary():
    with MemoryEngine.open() as engine:
        model = scripted(declare(True, "A works", "B works"),
                         call("record_result", "r1", hypothesis="H2", confirmed=True, evidence="98% yield"),
                         AIMessage("done"))
        agent = create_agent(model, middleware=[TarlBeliefMiddleware(engine, NS)])
        await agent.ainvoke({"messages": [HumanMessage("go")]})
        assert "- H1: exhausted: H2 answers closed group Q1" in tool_replies(model)[1]
        assert "Established: H2 'B works' (confirmed)" in system(model)


WRITER = textwrap.dedent("""
    import sys
    from shared_core import MemoryEngine
    from shared_core.beliefs.tools import BeliefTools
    with MemoryEngine.open(sys.argv[1]) as engine:
        print(BeliefTools(engine, "catalysis").call(sys.argv[2], {"hypothesis": "H1", "confirmed": False,
                                                                  "evidence": "the other lab saw nothing"}))
""")


def test_two_processes_sharing_a_store_see_each_others_results(tmp_path):
    """One process after the other (embedded Chroma serves one process at a time; concurrent processes
    share a store through a Chroma server)."""
    with MemoryEngine.open(tmp_path) as engine:
        run(engine, declare(True, "A works", "B works", "C works"))
    other = subprocess.run([sys.executable, "-c", WRITER, str(tmp_path), "record_result"],
                           capture_output=True, text=True, check=True)
    assert other.stdout.startswith("R1 recorded: H1 refuted.")      # the same ids in the other process
    with MemoryEngine.open(tmp_path) as engine:
        model = run(engine, call("record_result", "r2", hypothesis="H2", confirmed=False, evidence="no yield"))
        assert "- H3: deduced: the only member of closed group Q1 still in play" in tool_replies(model)[0]
        assert "Hypotheses in 'catalysis': 1 deduced, 2 refuted" in system(model)
        assert "R2" in system(model)                                # our result numbered after theirs
