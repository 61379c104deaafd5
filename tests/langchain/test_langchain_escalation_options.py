"""``share=`` and the other escalation options through the LangChain side (``TarlStore.open``,
``TarlMemoryMiddleware``), with LangChain's own fake chat model answering as the judge: the options
reach the core unchanged, ``share`` bounds how many writes ask the model, and bad values are refused
by name before anything is created."""

from __future__ import annotations

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage
from langchain_tarl.testing import call, scripted
from shared_core import TarlError
from shared_core.escalation import EscalatingPolicy
from shared_core.judging import JudgeAnswer

from langchain_tarl import TarlMemoryMiddleware, TarlStore

NS = ("memories", "u1")


def judge_model(n: int = 80):
    """A fake chat model whose every reply is a valid structured answer (append, no target)."""
    return scripted(*(call(JudgeAnswer.__name__, f"j{i}", action="append", target_id=None, rationale="new")
                      for i in range(n)))


def offer(store: TarlStore, stream) -> None:
    for text, source in stream:
        store.add(NS, {"text": text, "source": source})


@pytest.mark.parametrize("share", [0.0, 0.5])
def test_share_bounds_the_writes_that_ask_the_model(share, mixed_stream):
    model = judge_model()
    with TarlStore.open(judge=model, share=share, calls_per_minute=None, judge_timeout=5) as store:
        policy = store.engine.policy
        assert isinstance(policy, EscalatingPolicy)
        assert (policy.share, policy.calls_per_minute, policy.timeout) == (share, None, 5.0)
        offer(store, mixed_stream)
        asked = len(model.prompts)
        assert asked == policy.counters.judge_calls
    if share == 0:
        assert asked == 0
    else:        # the most doubtful half of the stream, never more than the budget (share * n + burst 5)
        assert 0.3 * len(mixed_stream) <= asked <= share * len(mixed_stream) + 5


def test_the_middleware_passes_its_options_to_the_store_once(mixed_stream):
    judge = judge_model()
    memory = TarlMemoryMiddleware(namespace=NS, judge=judge, share=0.5, calls_per_minute=7, with_tools=False, k=1)
    with TarlStore.open() as store:
        agent = create_agent(scripted(AIMessage("hi"), AIMessage("hi again")), store=store, middleware=[memory])
        agent.invoke({"messages": [HumanMessage("hello there")]})
        policy = store.engine.policy
        assert isinstance(policy, EscalatingPolicy) and (policy.share, policy.calls_per_minute) == (0.5, 7)
        agent.invoke({"messages": [HumanMessage("and again")]})
        assert store.engine.policy is policy                 # attached once: the gate and counters survive
        offer(store, mixed_stream)
        assert 0 < len(judge.prompts) <= 7                   # at most 7 calls a minute in the namespace
        assert policy.counters.over_budget > 0


def test_share_zero_never_calls_the_model_through_the_remember_tool():
    judge = scripted()                                       # no replies: any call would fail
    agent_model = scripted(call("remember", "c1", fact="The user's manager is Priya", source="user"),
                           call("remember", "c2", fact="my cousin says the manager is Daniel", source="third_party"),
                           AIMessage("Noted."))
    with TarlStore.open() as store:
        agent = create_agent(agent_model, store=store, middleware=[TarlMemoryMiddleware(namespace=NS, judge=judge,
                                                                                        share=0.0, k=0)])
        agent.invoke({"messages": [HumanMessage("My manager is Priya. My cousin says it's Daniel.")]})
        assert store.engine.policy.counters.decisions == 2
    assert judge.prompts == []


@pytest.mark.parametrize("options, field", [
    ({"judge": "MODEL", "share": 1.5}, "share=1.5"),
    ({"judge": "MODEL", "share": "half"}, "share='half'"),
    ({"judge": "MODEL", "calls_per_minute": -1}, "calls_per_minute=-1"),
    ({"judge": "MODEL", "judge_timeout": 0}, "judge_timeout=0"),
    ({"share": 0.2}, "share=0.2: applies only with a judge"),
    ({"calls_per_minute": 5}, "calls_per_minute=5: applies only with a judge"),
])
def test_bad_options_are_refused_by_name_before_anything_is_created(tmp_path, options, field):
    options = {k: judge_model(1) if v == "MODEL" else v for k, v in options.items()}
    with pytest.raises(TarlError, match=field.replace("(", r"\(")):
        TarlStore.open(tmp_path / "store", **options)
    assert not (tmp_path / "store").exists()
    with pytest.raises(TarlError, match=field.replace("(", r"\(")):
        TarlMemoryMiddleware(**options)


def test_a_judge_given_with_an_escalating_policy_replaces_its_judge_instead_of_stacking_two():
    from shared_core.policy import LearnedPolicy

    model = judge_model(1)
    with TarlStore.open(policy=EscalatingPolicy(LearnedPolicy(), lambda r: None), judge=model, share=0.3) as store:
        policy = store.engine.policy
        assert isinstance(policy.base, LearnedPolicy) and policy.share == 0.3 and policy.judge.model is model


def test_a_judge_a_store_cannot_consult_is_refused_not_ignored():
    """With LangGraph's InMemoryStore the judge was silently never asked (found in real agent runs, round 3)."""
    from langgraph.store.memory import InMemoryStore

    with pytest.raises(TarlError, match="judge=.*needs a TarlStore.*InMemoryStore"):
        TarlMemoryMiddleware(namespace=NS, judge=scripted(), store=InMemoryStore())
    agent = create_agent(scripted(AIMessage("Hi.")), store=InMemoryStore(),
                         middleware=[TarlMemoryMiddleware(namespace=NS, judge=scripted(), k=1)])
    with pytest.raises(TarlError, match="judge=.*needs a TarlStore.*InMemoryStore"):
        agent.invoke({"messages": [HumanMessage("hello")]})
