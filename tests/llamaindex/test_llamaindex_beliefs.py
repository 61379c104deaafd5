"""Belief tools and the belief block through a real ``FunctionAgent`` driven by a scripted model."""

from __future__ import annotations

import subprocess
import sys

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.memory import Memory

from llamaindex_tarl import TarlBeliefBlock, belief_tools
from shared_core import MemoryEngine

NS = "catalysis"


async def run(engine, recorder, *calls):
    """One agent run: the model makes ``calls`` (name, kwargs) one per turn, then says 'done'."""
    todo = list(calls)

    def script(messages, kwargs):
        if not todo:
            return ChatMessage(role="assistant", content="done")
        name, args = todo.pop(0)
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{len(todo)}", tool_name=name,
                                                                   tool_kwargs=args)])

    recorder.script = script
    recorder.calls.clear()
    memory = Memory.from_defaults(session_id="s", tokenizer_fn=str.split,
                                  memory_blocks=[TarlBeliefBlock(engine, namespace=NS)])
    agent = FunctionAgent(tools=belief_tools(engine, NS), llm=recorder.llm, system_prompt="You run experiments.")
    await agent.run(user_msg="carry on", memory=memory)
    return [m.content for m in recorder.calls[-1] if m.role == MessageRole.TOOL]


def declare(closed, *texts):
    return ("declare_question", {"question": "Which catalyst works?", "closed_world": closed,
                                 "candidates": [{"text": t} for t in texts]})


async def test_a_refuted_premise_prunes_its_dependents_and_the_next_prompt_says_so(recorder):
    with MemoryEngine.open() as engine:
        replies = await run(engine, recorder, declare(True, "A works", "B works", "C works"),
                            ("propose_hypothesis", {"text": "A scales to 10 kg", "rests_on": ["H1"]}),
                            ("record_result", {"hypothesis": "H1", "confirmed": False, "evidence": "no conversion"}))
        assert "- H4: pruned: premise H1 is refuted" in replies[2]
        assert "pruned" not in recorder.system(-2)
        assert "- H4: pruned: premise H1 is refuted" in recorder.system(-1)
        assert "<tarl_beliefs>" in recorder.system(-1) and "Frontier (test only these): H2" in recorder.system(-1)


async def test_closed_question_deduces_open_question_does_not(recorder):
    with MemoryEngine.open() as engine:
        await run(engine, recorder, declare(True, "A works", "B works"),
                  ("record_result", {"hypothesis": "H1", "confirmed": False, "evidence": "no yield"}))
        assert "- H2: deduced: the only member of closed group Q1 still in play" in recorder.system(-1)
    with MemoryEngine.open() as engine:
        await run(engine, recorder, declare(False, "A works", "B works"),
                  ("record_result", {"hypothesis": "H1", "confirmed": False, "evidence": "no yield"}))
        assert "deduced" not in recorder.system(-1) and "Frontier (test only these): H2" in recorder.system(-1)


async def test_a_new_candidate_withdraws_the_deduction(recorder):
    with MemoryEngine.open() as engine:
        replies = await run(engine, recorder, declare(True, "A works", "B works"),
                            ("record_result", {"hypothesis": "H1", "confirmed": False, "evidence": "no yield"}),
                            ("propose_hypothesis", {"text": "D works", "answers": "Q1"}))
        assert replies[2].splitlines()[1] == "- H2: deduction withdrawn: group Q1 has another member in play"
        assert "Established" not in recorder.system(-1)


async def test_bad_tool_input_gets_a_clear_error_and_writes_nothing(recorder):
    with MemoryEngine.open() as engine:
        await run(engine, recorder, declare(True, "A works", "B works"),
                  ("propose_hypothesis", {"text": "A scales", "rests_on": ["H1"]}))
        head = engine.store.head()
        replies = await run(engine, recorder,
                            ("propose_hypothesis", {"text": "C works", "rests_on": ["H9"]}),
                            ("propose_hypothesis", {"text": "C works", "prior": -0.2}),
                            ("propose_hypothesis", {"text": "A works", "answers": "Q1", "rests_on": ["H3"]}),
                            ("explain", {"id": "Q7"}))
        assert replies[0].startswith("error: rests_on[0]='H9': no such hypothesis")
        assert replies[1].startswith("error: prior=-0.2: Input should be greater than 0")
        assert "would make a cycle" in replies[2]
        assert replies[3].startswith("error: id='Q7': no such question (known question ids: Q1)")
        assert engine.store.head() == head


WRITER = """
import sys
from llamaindex_tarl import belief_tools
from shared_core import MemoryEngine
with MemoryEngine.open(sys.argv[1]) as engine:
    tools = {t.metadata.name: t for t in belief_tools(engine, "catalysis")}
    print(tools["record_result"].call(hypothesis="H1", confirmed=True, evidence="full conversion").content)
"""


async def test_two_processes_sharing_a_store_see_each_others_results(tmp_path, recorder):
    with MemoryEngine.open(tmp_path) as engine:          # embedded Chroma: one process at a time
        await run(engine, recorder, declare(True, "A works", "B works"))
    out = subprocess.run([sys.executable, "-c", WRITER, str(tmp_path)], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[:2] == ["R1 recorded: H1 confirmed.", "- H1: confirmed by result R1"]
    with MemoryEngine.open(tmp_path) as engine:
        await run(engine, recorder)
        assert "Established: H1 'A works' (confirmed)" in recorder.system(-1)
        assert "- H2: exhausted: H1 answers closed group Q1" in recorder.system(-1)
