""""Forget my address" through a FunctionAgent: ``memory.tools(forget=True)`` adds a forget tool that
retracts the memory the model names (a slot, a text, a copied line); a new session no longer sees it."""

from __future__ import annotations

import pytest
from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock

from llamaindex_tarl import TarlMemory, memory_tools
from shared_core import MemoryEngine, Reason, TarlError

NS = "user:ana"


def scripted(plans):
    def script(messages, kwargs):
        last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
        calls = plans.get(messages[last].content, []) if kwargs.get("tools") else []
        done = [m for m in messages[last:] if m.role == MessageRole.TOOL]
        if not calls or done:
            return ChatMessage(role="assistant", content=" | ".join(m.content for m in done) or "Noted.")
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{i}", tool_name=name, tool_kwargs=args)
                                                     for i, (name, args) in enumerate(calls)])
    return script


async def test_forget_my_address_in_a_function_agent(recorder):
    plans = {"My address is 41 Larch Rd": [("remember", {"fact": "The user's address is 41 Larch Rd",
                                                         "source": "user", "slot": "user.address"})],
             "I have a cat named Miso": [],
             "Forget my address please": [("forget", {"memory": "user.address"})],
             "And forget the cat": [("forget", {"memory": "- I have a cat named Miso"})],
             "Forget my shoe size": [("forget", {"memory": "user.shoe_size"})]}
    recorder.script = scripted(plans)
    with MemoryEngine.open() as engine:
        monday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="monday")
        agent = FunctionAgent(tools=monday.tools(forget=True), llm=recorder.llm)
        replies = [str((await agent.run(user_msg=text, memory=monday)).response.content) for text in plans]
        assert replies[2].startswith("forgotten (no longer recalled; kept in memory's history): ")
        assert "41 Larch Rd" in replies[2]
        assert replies[3] == "forgotten (no longer recalled; kept in memory's history): I have a cat named Miso"
        assert replies[4].startswith("not forgotten: no memory has the slot or text 'user.shoe_size'")
        assert not [e.text for e in engine.accepted(NS) if "Larch" in e.text or "Miso" in e.text]
        assert {e.reason for e in engine.history(NS) if "Larch" in e.text or "Miso" in e.text} == {Reason.RETRACTED}
        tuesday = TarlMemory.from_defaults(engine=engine, namespace=NS, session_id="tuesday")
        shown = "\n".join(m.content or "" for m in tuesday.get(input="what is my address?"))
        assert "Larch" not in shown and "Miso" not in shown


@pytest.mark.parametrize(("memory", "reply"), [
    ("", "not forgotten: memory='': must be a memory's slot or its exact text"),
    ("   ", "not forgotten: memory='   ': must be a memory's slot or its exact text"),
    ("The user lives on Larch Rd", "not forgotten: no memory has the slot or text 'The user lives on Larch Rd'"),
])
async def test_forget_what_is_not_there_says_so_and_retracts_nothing(memory, reply):
    with MemoryEngine.open() as engine:
        _, _, forget = memory_tools(engine, NS, forget=True)
        engine.write({"text": "The user's address is 41 Larch Rd", "namespace": NS, "source": "user"})
        before = len(engine.log(NS))
        assert forget.call(memory=memory).content.startswith(reply)
        assert (await forget.acall(memory=memory)).content.startswith(reply)
        assert len(engine.log(NS)) == before and len(engine.accepted(NS)) == 1


def test_forget_is_opt_in_so_two_tools_still_unpack():
    with MemoryEngine.open() as engine:
        remember, recall = memory_tools(engine, NS)
        assert [t.metadata.name for t in memory_tools(engine, NS, forget=True)] == ["remember", "recall", "forget"]
        with pytest.raises(TarlError, match="forget='yes'"):
            memory_tools(engine, NS, forget="yes")
