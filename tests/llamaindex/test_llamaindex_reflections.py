"""Janus-gated reflections for a FunctionAgent: useful lessons are committed, harmful ones rejected."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole

from llamaindex_tarl import AgentReflections, TarlMemory
from shared_core import Reason, TarlError
from shared_core.janus import AlwaysTrigger, JanusConfig

NS = "agent:support"
GOOD, BAD = "Quote order ids exactly as stored.", "Never mention order ids."


def score(lessons: tuple[str, ...], task: str) -> float:
    """The task checker: answers about orders are right only when ids are quoted."""
    return float(GOOD in lessons) - float(BAD in lessons)


async def test_agent_run_then_reflection_committed_or_rejected(engine, recorder, updater):
    proposals = iter([[GOOD], [GOOD, BAD]])
    updater.script = lambda messages, kw: ChatMessage(role="assistant", content="\n".join(f"- {x}" for x in next(proposals)))
    reflections = AgentReflections(engine, NS, AgentReflections.llm_propose(updater.llm), score,
                                   config=JanusConfig(warmup=0), trigger=AlwaysTrigger(warmup=0))
    memory = TarlMemory.from_defaults(engine=engine, namespace="user:ana", session_id="s1")
    question = "What is my order id?"

    out = await FunctionAgent(llm=recorder.llm, tools=[], system_prompt="Help.").run(user_msg=question, memory=memory)
    first = await reflections.areflect(question, out)
    assert first.accepted and reflections.lessons == (GOOD,)
    assert question in updater.seen() and "Noted." in updater.seen()         # the updater saw task and outcome

    agent = FunctionAgent(llm=recorder.llm, tools=[], system_prompt="Help.\n" + reflections.render())
    out = await agent.run(user_msg=question, memory=memory)
    assert GOOD in recorder.system()                                          # the next run got the lesson
    second = await reflections.areflect(question, out)
    assert not second.accepted and reflections.lessons == (GOOD,)

    assert [(e.text, e.source) for e in engine.accepted(NS)] == [(GOOD, "reflection")]
    rejected = [e for e in engine.history(NS) if e.reason is Reason.REJECTED]
    assert [e.text for e in rejected] == [BAD] and "janus" in (rejected[0].note or "")
    again = AgentReflections(engine, NS, lambda lessons, task, outcome: lessons, score)  # e.g. after a restart
    assert again.lessons == (GOOD,)


def test_reflection_bad_input_writes_nothing(engine):
    with pytest.raises(TarlError, match="llm"):
        AgentReflections.llm_propose("gpt")
    with pytest.raises(TarlError, match="evaluate"):
        AgentReflections(engine, NS, lambda *a: [], None)
    reflections = AgentReflections(engine, NS, lambda lessons, task, outcome: ["x"], score)
    with pytest.raises(TarlError, match="task=''"):
        reflections.reflect("", "outcome")
    assert engine.log(NS) == [] and reflections.lessons == ()
