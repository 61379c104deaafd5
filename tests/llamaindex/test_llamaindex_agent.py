"""End to end: a FunctionAgent with TarlMemory and the remember/recall tools across two sessions."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock

from llamaindex_tarl import TarlMemory
from shared_core import MemoryEngine, Reason, TarlError
from shared_core.policy import RulePolicy

NS = "user:ana"


def script(messages: list[ChatMessage], kwargs: dict) -> ChatMessage:
    """A scripted model: 'Can you check my order' -> remember a wrong id; another question -> recall(question); then answer with
    the tool's output; anything else -> 'Noted.'."""
    last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
    said = messages[last].content or ""
    tools_done = [m for m in messages[last:] if m.role == MessageRole.TOOL]
    if tools_done:
        return ChatMessage(role="assistant", content="Done: " + (tools_done[-1].content or ""))
    if kwargs.get("tools") and said.startswith("Can you check my order"):   # the model misremembers
        call = ToolCallBlock(tool_call_id="c1", tool_name="remember", tool_kwargs={"fact": "The user's order id is A-9999"})
        return ChatMessage(role="assistant", blocks=[call])
    if kwargs.get("tools") and said.endswith("?"):
        call = ToolCallBlock(tool_call_id="c2", tool_name="recall", tool_kwargs={"query": said})
        return ChatMessage(role="assistant", blocks=[call])
    return ChatMessage(role="assistant", content="Noted.")


def _agent(memory: TarlMemory, recorder) -> FunctionAgent:
    recorder.script = script
    return FunctionAgent(tools=memory.tools(), llm=recorder.llm, system_prompt="You help Ana.")


async def test_function_agent_two_sessions(tmp_path, recorder):
    engine = MemoryEngine.open(tmp_path, policy=RulePolicy())
    monday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
    agent = _agent(monday, recorder)
    await agent.run(user_msg="My order id is A-7731.", memory=monday)                  # remember
    await agent.run(user_msg="Actually my order id is now A-7740.", memory=monday)     # revise
    reply = await agent.run(user_msg="Can you check my order status?", memory=monday)
    assert "reject_conflict" in str(reply.response.content)       # the agent's paraphrase cannot overwrite
    assert "reject_conflict" in recorder.seen()                   # ... and the LLM was told so
    history = {e.text: e.reason for e in engine.history(NS)}
    assert history["My order id is A-7731."] is Reason.SUPERSEDED
    assert history["The user's order id is A-9999"] is Reason.REJECTED
    assert [m.role.value for m in monday.get_all()][-4:] == ["user", "assistant", "tool", "assistant"]
    engine.close()

    engine = MemoryEngine.open(tmp_path, policy=RulePolicy())
    tuesday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="tuesday")
    recorder.calls.clear()
    reply = await _agent(tuesday, recorder).run(user_msg="What is my order id?", memory=tuesday)
    first, last = recorder.calls[0], recorder.calls[-1]
    assert "A-7740" in "\n".join(m.content or "" for m in first if m.role == MessageRole.SYSTEM)
    tool_results = [m.content for m in last if m.role == MessageRole.TOOL]
    assert tool_results and "A-7740" in tool_results[0]           # recall found the revised id
    everything = "\n".join(recorder.seen(i) for i in range(len(recorder.calls)))
    assert "A-7731" not in everything and "A-9999" not in everything
    assert "A-7740" in str(reply.response.content)
    assert [m.content for m in tuesday.get_all()][0] == "What is my order id?"
    engine.close()


def test_tools_follow_the_trust_rule_and_report_errors():
    memory = TarlMemory.from_defaults(namespace=NS)
    memory.put(ChatMessage(role="user", content="My cat is called Miso"))
    remember, recall = memory.tools()
    relayed = remember.call(fact="Ana's cat is called Miso", source="user", ctx=None).content
    assert relayed.startswith("append") and "recorded as user's" in relayed
    guessed = remember.call(fact="Ana's dog is called Rex", source="user", ctx=None).content
    assert "recorded as assistant's: no user message of this conversation says it" in guessed
    assert "Miso" in recall.call(query="cat name").content
    assert remember.call(fact="   ", ctx=None).content.startswith("not stored: fact=")
    assert remember.call(fact="Ana is an admin", source="system", ctx=None).content.startswith("not stored: source=")
    assert {e.text: e.source for e in memory.engine.accepted(NS)}["Ana's cat is called Miso"] == "user"
    memory.engine.close()


@pytest.mark.parametrize("args, reply", [
    ({"fact": None}, "not stored: fact=None: must be a string"),
    ({"fact": 42}, "not stored: fact=42: must be a string"),
    ({"fact": "x" * 9000}, "not stored: fact='xxx"),
    ({"fact": "Ana likes tea", "slot": "user.drinks", "many": "perhaps"}, "not stored: many='perhaps'"),
])
async def test_remember_answers_bad_arguments_in_one_line(args, reply):
    remember, _ = TarlMemory.from_defaults(namespace=NS).tools()
    out = (await remember.acall(ctx=None, **args)).content
    assert out.startswith(reply) and "\n" not in out and len(out) < 400
    assert remember.call(ctx=None, **args).content == out


@pytest.mark.parametrize("query", ["", "   ", None, 7])
async def test_recall_answers_bad_arguments_in_one_line(query):
    _, recall = TarlMemory.from_defaults(namespace=NS).tools()
    out = recall.call(query=query).content
    assert out == f"not searched: query={query!r}: must be a non-empty string"
    assert (await recall.acall(query=query)).content == out


async def test_an_agent_gets_a_clear_answer_for_odd_arguments(recorder):
    calls = [("remember", {"fact": None}), ("recall", {"query": ""})]

    def odd(messages, kwargs):
        done = [m for m in messages if m.role == MessageRole.TOOL]
        if len(done) == len(calls):
            return ChatMessage(role="assistant", content=" | ".join(m.content for m in done))
        name, args = calls[len(done)]
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{len(done)}", tool_name=name,
                                                                   tool_kwargs=args)])

    memory = TarlMemory.from_defaults(namespace=NS)
    recorder.script = odd
    reply = await FunctionAgent(tools=memory.tools(), llm=recorder.llm).run(user_msg="hi", memory=memory)
    assert reply.response.content == ("not stored: fact=None: must be a string (one short sentence) | "
                                      "not searched: query='': must be a non-empty string")


@pytest.mark.parametrize("policy", [None, RulePolicy()], ids=["default_policy", "rule_policy"])
async def test_a_slotted_remember_revises_the_turn_stored_without_a_slot(recorder, policy):
    """Every user turn is stored as free text; a remember with a slot was weighed against its key only,
    so "I live in Lisbon" (a turn the model made no call for) stayed current beside the new city."""
    plans = {"We moved to Berlin": {"fact": "The user lives in Berlin", "source": "user", "slot": "user.home_city"}}

    def script(messages, kwargs):
        last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
        args = plans.get(messages[last].content) if kwargs.get("tools") else None
        if args is None or any(m.role == MessageRole.TOOL for m in messages[last:]):
            return ChatMessage(role="assistant", content="Noted.")
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id="c1", tool_name="remember",
                                                                   tool_kwargs=args)])

    with MemoryEngine.open(policy=policy) as engine:
        monday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
        recorder.script = script
        agent = FunctionAgent(tools=monday.tools(), llm=recorder.llm)
        await agent.run(user_msg="I live in Lisbon", memory=monday)
        await agent.run(user_msg="We moved to Berlin", memory=monday)
        assert "Lisbon" not in " ".join(e.text for e in engine.accepted(NS))
        assert "I live in Lisbon" in {e.text for e in engine.history(NS)}
        tuesday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="tuesday")
        shown = tuesday.get(input="where do I live?")[0].content
        assert "Berlin" in shown and "Lisbon" not in shown
