"""LLMJudge on a LlamaIndex MockLLM subclass (scripted completions through structured_predict), behind
a real engine; remember(slot=...) through a FunctionAgent end to end; slot-naming block extraction."""

from __future__ import annotations

import threading

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, CompletionResponse, MessageRole, ToolCallBlock
from llama_index.core.llms import MockLLM
from pydantic import PrivateAttr

from llamaindex_tarl import LLMJudge, TarlMemory, TarlMemoryBlock
from shared_core import Action, Claim, MemoryEngine, TarlError
from shared_core.escalation import EscalatingPolicy, Uncertainty
from shared_core.grounding import ground
from shared_core.policy import LearnedPolicy

NS = "user:ana"
HOLD = threading.Event()


class ScriptedLLM(MockLLM):
    """A real LlamaIndex LLM whose completions come from a list (an Exception is raised, "HANG" waits)."""

    _replies: list = PrivateAttr(default_factory=list)
    _prompts: list = PrivateAttr(default_factory=list)

    def __init__(self, *replies, **kwargs):
        super().__init__(**kwargs)
        self._replies = list(replies)

    def complete(self, prompt, formatted=False, **kwargs):
        self._prompts.append(prompt)
        reply = self._replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        if reply == "HANG":
            HOLD.wait(5)
        return CompletionResponse(text=reply)

    async def acomplete(self, prompt, formatted=False, **kwargs):
        return self.complete(prompt, formatted, **kwargs)


def engine_judged_by(llm, **options):
    policy = EscalatingPolicy(LearnedPolicy(), LLMJudge(llm), uncertainty=Uncertainty(threshold=0.0), **options)
    return MemoryEngine.open(policy=policy)


def test_a_valid_answer_is_applied_with_the_core_prompt():
    llm = ScriptedLLM('{"action": "append", "target_id": null, "rationale": "new fact"}')
    with engine_judged_by(llm) as engine:
        d = engine.write(Claim(text="Ana lives in Lisbon", namespace=NS))
        assert (d.action, d.decided_by, d.judge_rationale) == (Action.APPEND, "judge", "new fact")
        assert engine.log(NS)[-1].decision.decided_by == "judge"
    assert "Ana lives in Lisbon" in llm._prompts[0] and "defer_verify" in llm._prompts[0]


@pytest.mark.parametrize("reply, why", [
    ("no idea, sorry", "judge raised ValueError"),
    ('{"action": "revise", "target_id": "e404", "rationale": "x"}', "target_id='e404' is not one of the candidates"),
    ('{"action": "revise", "target_id": null, "rationale": "x"}', "needs an Accepted target"),
    (RuntimeError("quota exceeded"), "judge raised RuntimeError: quota exceeded"),
    ("HANG", "judge timed out"),
])
def test_bad_answers_errors_and_timeouts_fall_back(reply, why):
    HOLD.clear()
    engine = engine_judged_by(ScriptedLLM(reply), timeout=0.2)
    with engine:
        d = engine.write(Claim(text="Ana's manager is Priya", namespace=NS))
        assert d.decided_by == "fallback" and why in d.judge_rationale
        logged = engine.log(NS)[-1]
        assert logged.decision.decided_by == "fallback" and logged.claim.text == "Ana's manager is Priya"
    HOLD.set()


async def test_async_decide_awaits_astructured_predict():
    llm = ScriptedLLM('{"action": "defer_verify", "target_id": null, "rationale": "hedged"}')
    policy = EscalatingPolicy(LearnedPolicy(), LLMJudge(llm), uncertainty=Uncertainty(threshold=0.0))
    claim = Claim(text="Ana might move to Oslo", namespace=NS)
    d = await policy.adecide(claim, ground(claim, []), None)
    assert (d.action, d.decided_by, d.judge_rationale) == (Action.DEFER_VERIFY, "judge", "hedged")


def test_from_defaults_takes_an_llm_as_judge_and_checks_it_first(tmp_path):
    memory = TarlMemory.from_defaults(namespace=NS, judge=ScriptedLLM())
    assert isinstance(memory.engine.policy, EscalatingPolicy) and isinstance(memory.engine.policy.judge, LLMJudge)
    with pytest.raises(TarlError, match="judge"):
        TarlMemory.from_defaults(tmp_path / "store", namespace=NS, judge=42)
    assert not (tmp_path / "store").exists()                  # refused before anything was created


def manager_script(messages: list[ChatMessage], kwargs: dict) -> ChatMessage:
    """The model files each manager under one slot; after the tool result it just acknowledges."""
    last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
    said = messages[last].content or ""
    if any(m.role == MessageRole.TOOL for m in messages[last:]) or not kwargs.get("tools"):
        return ChatMessage(role="assistant", content="Noted.")
    name = said.split()[-1].strip(".")
    args = {"fact": f"Ana's manager is {name}", "source": "user", "slot": "User.Manager", "many": False}
    return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=name, tool_name="remember", tool_kwargs=args)])


async def test_function_agent_remembers_with_a_slot_and_the_second_value_revises(recorder):
    recorder.script = manager_script
    memory = TarlMemory.from_defaults(namespace=NS, session_id="s1")
    agent = FunctionAgent(tools=memory.tools(), llm=recorder.llm, system_prompt="You help Ana.")
    await agent.run(user_msg="My manager is Priya.", memory=memory)
    await agent.run(user_msg="I changed teams, my manager is Daniel.", memory=memory)
    by_text = {t.claim.text: t for t in memory.engine.log(NS) if t.claim is not None}
    priya, daniel = by_text["Ana's manager is Priya"], by_text["Ana's manager is Daniel"]
    assert priya.claim.slot == daniel.claim.slot == "user.manager"              # canonical, from "User.Manager"
    assert daniel.action is Action.REVISE and daniel.target_id == priya.created[0].id
    assert "Ana's manager is Priya" in {e.text for e in memory.engine.history(NS)}


async def test_block_extraction_names_slots(engine, recorder):
    replies = iter([
        '{"facts": [{"text": "Ana\'s manager is Priya", "source": "user", "slot": "user.manager", "many": false}]}',
        '{"facts": [{"text": "Ana\'s manager is Daniel", "source": "user", "slot": "user.manager", "many": false},'
        ' {"text": "Ana\'s locker is 12", "source": "user", "slot": "0123456789abcdef0123"}]}'])
    recorder.script = lambda messages, kw: ChatMessage(role="assistant", content=next(replies))
    block = TarlMemoryBlock(engine, namespace=NS, extractor=recorder.llm)
    await block.aremember([ChatMessage(role="user", content="Priya is my manager")])
    await block.aremember([ChatMessage(role="user", content="New manager: Daniel. Locker 12.")])
    accepted = {e.text: e.slot for e in engine.accepted(NS)}
    assert accepted == {"Ana's manager is Daniel": "user.manager", "Ana's locker is 12": None}
    assert "subject.attribute" in recorder.seen(0)


def reuses_a_shown_slot(messages, kwargs) -> ChatMessage:
    """An LLM that follows the prompt: it files the manager under a slot memory already shows for it, and
    otherwise under a name of its own ("user.line_manager"), as a model extracting each turn afresh does."""
    prompt = messages[-1].content
    slot = "user.manager" if "- user.manager (one value): " in prompt else "user.line_manager"
    name = "Daniel" if "Daniel" in prompt.split("Conversation:")[-1] else "Priya"
    return ChatMessage(role="assistant", content=f'{{"facts": [{{"text": "Ana\'s manager is {name}", '
                                                 f'"source": "user", "slot": "{slot}", "many": false}}]}}')


@pytest.mark.parametrize("asynchronous", [False, True])
async def test_extraction_is_shown_the_slots_in_memory_so_a_changed_value_revises(engine, recorder, asynchronous):
    engine.write(Claim(text="Ana's manager is Priya", namespace=NS, source="user", slot="user.manager", many=False))
    engine.write(Claim(text="Ana likes sushi", namespace=NS, source="user", slot="user.likes_food", many=True))
    recorder.script = reuses_a_shown_slot
    block = TarlMemoryBlock(engine, namespace=NS, extractor=recorder.llm)
    turn = [ChatMessage(role="user", content="I changed teams, my manager is Daniel now")]
    [decision] = await block.aremember(turn) if asynchronous else block.remember(turn)
    assert "- user.manager (one value): Ana's manager is Priya" in recorder.seen(0)
    assert "- user.likes_food (several values): Ana likes sushi" in recorder.seen(0)
    assert decision.action is Action.REVISE
    assert [e.text for e in engine.accepted(NS) if e.slot == "user.manager"] == ["Ana's manager is Daniel"]


JUDGE_APPENDS = '{"action": "append", "target_id": null, "rationale": "new"}'


@pytest.mark.parametrize("share", [0.0, 0.5])
def test_from_defaults_passes_share_and_it_bounds_the_writes_that_ask_the_llm(share, mixed_stream):
    llm = ScriptedLLM(*[JUDGE_APPENDS] * len(mixed_stream))
    memory = TarlMemory.from_defaults(namespace=NS, judge=llm, share=share, calls_per_minute=None, judge_timeout=5,
                                      chat_history=[ChatMessage(role="user", content=t) for t, _ in mixed_stream])
    with memory:
        policy = memory.engine.policy
        assert (policy.share, policy.calls_per_minute, policy.timeout) == (share, None, 5.0)
        remember = memory.tools()[0]
        for text, source in mixed_stream:
            remember.call(fact=text, source=source, ctx=None)
        assert policy.counters.decisions >= len(mixed_stream)
    asked = len(llm._prompts)
    if share == 0:
        assert asked == 0
    else:        # the most doubtful half of the stream, never more than the budget (share * n + burst 5)
        assert 0.3 * len(mixed_stream) <= asked <= share * len(mixed_stream) + 5


@pytest.mark.parametrize("options, field", [
    ({"judge": "LLM", "share": -0.1}, "share=-0.1"),
    ({"judge": "LLM", "calls_per_minute": 2.5}, "calls_per_minute=2.5"),
    ({"judge": "LLM", "judge_timeout": "soon"}, "judge_timeout='soon'"),
    ({"share": 0.5}, "share=0.5: applies only with a judge"),
    ({"judge_timeout": 3}, "judge_timeout=3: applies only with a judge"),
])
def test_from_defaults_refuses_bad_escalation_options_by_name_before_creating_files(tmp_path, options, field):
    options = {k: ScriptedLLM() if v == "LLM" else v for k, v in options.items()}
    with pytest.raises(TarlError, match=field):
        TarlMemory.from_defaults(tmp_path / "store", namespace=NS, **options)
    assert not (tmp_path / "store").exists()


RECALL_THEN_RELAY = [
    ("remember", {"fact": "Ana's seat preference is aisle", "source": "assistant", "slot": "user.seat"}),
    ("recall", {"query": "seat preference"}),
    ("remember", {"fact": "Ana's seat preference is aisle", "source": "tool", "slot": "user.seat"})]


def recall_then_relay(messages: list[ChatMessage], kwargs: dict) -> ChatMessage:
    last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
    n = sum(1 for m in messages[last:] if m.role == MessageRole.TOOL)
    if n == len(RECALL_THEN_RELAY):
        return ChatMessage(role="assistant", content="Done.")
    name, args = RECALL_THEN_RELAY[n]
    return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{n}", tool_name=name, tool_kwargs=args)])


async def test_what_recall_returned_is_no_tools_word(recorder):
    """The model's own note, read back through recall, cannot be relayed as a tool's reading: the memory
    tools' replies are not evidence."""
    recorder.script = recall_then_relay
    memory = TarlMemory.from_defaults(namespace=NS, session_id="s1")
    await FunctionAgent(tools=memory.tools(), llm=recorder.llm).run(user_msg="Book me a flight to Rome.", memory=memory)
    relayed = [t for t in memory.engine.log(NS) if t.claim is not None][-1].claim
    assert relayed.source == "assistant" and "no tool message" in relayed.metadata["attribution"]
