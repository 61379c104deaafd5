"""JanusReflectionMiddleware: a useful lesson is deployed, a harmful rewrite is rejected by the gate, both
are in the ledger with their reasons, and the deployed lessons reach the model's prompt."""

from __future__ import annotations

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_tarl.testing import call, scripted
from shared_core import Reason
from shared_core.janus import JanusConfig, Verdict

from langchain_tarl import JanusReflectionMiddleware
from langchain_tarl.reflection_middleware import Lessons

METRIC = "Answer distances in kilometres, converting from miles if needed."
IMPERIAL = "Answer distances in miles."
TASKS = ["How far is 5 miles in km?", "Convert 10 miles to kilometres.", "What is 3 miles in km?"]


def lessons(*items: str) -> AIMessage:
    return call(Lessons.__name__, "l", lessons=list(items))


def evaluate(memory: tuple[str, ...], task: str) -> float:
    """The user's checker: these tasks want kilometres."""
    return float(any("kilometres" in item for item in memory))


def build(store, **kwargs):
    reflector = scripted(lessons(METRIC), lessons(IMPERIAL), lessons(METRIC))
    reflect = JanusReflectionMiddleware(reflector, evaluate, memory=store, namespace=("agent", "lessons"),
                                        config=JanusConfig(warmup=0), **kwargs)
    model = scripted(*(AIMessage(f"answer {i}") for i in range(len(TASKS))))
    return reflect, reflector, model, create_agent(model, system_prompt="Be exact.", middleware=[reflect])


def check(reflect, reflector, model, store):
    assert reflect.controller.memory == (METRIC,)
    history = {e.text: e.reason for e in store.engine.history("agent.lessons")}
    assert history == {IMPERIAL: Reason.REJECTED}
    assert [e.text for e in store.engine.accepted("agent.lessons")] == [METRIC]
    assert [e.source for e in store.engine.accepted("agent.lessons")] == ["reflection"]
    assert reflect.last.verdict is Verdict.UNCHANGED                      # third proposal = current memory
    assert model.prompts[0][0].content == "Be exact."                        # nothing learned yet
    assert model.prompts[1][0].content == f"Be exact.\n\n<lessons>\n- {METRIC}\n</lessons>"
    assert model.prompts[2][0].content == model.prompts[1][0].content       # the harmful rewrite never deployed
    seen = reflector.prompts[0][1].content                                   # what the reflector was asked
    assert "(none yet)" in seen and TASKS[0] in seen and "assistant: answer 0" in seen


def test_useful_lesson_deployed_harmful_rewrite_rejected(store):
    reflect, reflector, model, agent = build(store)
    decisions = []
    for task in TASKS:
        agent.invoke({"messages": [HumanMessage(task)]})
        decisions.append(reflect.last.verdict)
    assert decisions[1] is Verdict.CURRENT_BETTER
    check(reflect, reflector, model, store)


async def test_async_path(store):
    reflect, reflector, model, agent = build(store)
    for task in TASKS:
        await agent.ainvoke({"messages": [HumanMessage(task)]})
    check(reflect, reflector, model, store)


def test_a_new_middleware_resumes_from_the_ledger(store):
    reflect, *_ , agent = build(store)
    agent.invoke({"messages": [HumanMessage(TASKS[0])]})
    again = JanusReflectionMiddleware(scripted(lessons(METRIC)), evaluate, memory=store, namespace=("agent", "lessons"))
    assert again.controller.memory == (METRIC,)


def test_without_a_ledger_the_gate_still_runs():
    reflect = JanusReflectionMiddleware(scripted(lessons(METRIC)), evaluate, config=JanusConfig(warmup=0))
    create_agent(scripted(AIMessage("ok")), middleware=[reflect]).invoke({"messages": [HumanMessage(TASKS[0])]})
    assert reflect.controller.memory == (METRIC,) and reflect.ledger is None
