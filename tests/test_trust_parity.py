"""One trust rule, two adapters: the same conversation and the same remember calls record the same
sources through LangChain's TarlMemoryMiddleware and LlamaIndex's memory tools."""

from __future__ import annotations

import asyncio
import json

USER_SAYS = "I moved to Porto. Where does order A-1001 ship to now?"
ORDER = {"order_id": "A-1001", "ship_to": "12 Rua Nova, Porto"}
CALLS = [  # (fact, claimed source) the model asks memory to keep, after the order tool ran
    ("The user lives in Porto", "user"),                         # relays the user: granted
    ("Order A-1001 ships to 12 Rua Nova, Porto", "tool"),        # relays the tool: granted
    ("Order A-1001 ships to 12 Rua Nova, Porto", None),          # no claim: memory finds the tool
    ("The user lives in Madrid", "user"),                        # nobody said it: the assistant's
    ("The user's sister lives in Faro", "third_party"),          # lowering is free
]
EXPECTED = ["user", "tool", "tool", "assistant", "third_party"]


def order_status(order_id: str) -> str:
    """Where an order ships to."""
    return json.dumps(ORDER)


def args(fact, source, i):
    out = {"fact": fact, "topic": f"t{i}"}
    if source is not None:
        out["source"] = source
    return out


def langchain_sources() -> list[str]:
    from langchain.agents import create_agent
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool

    from langchain_tarl import TarlMemoryMiddleware, TarlStore
    from langchain_tarl.testing import call, scripted

    model = scripted(call("order_status", "o", order_id="A-1001"),
                     *[call("remember", f"r{i}", **args(f, s, i)) for i, (f, s) in enumerate(CALLS)],
                     AIMessage("Done."))
    with TarlStore.open() as store:
        agent = create_agent(model, [tool(order_status)], store=store,
                             middleware=[TarlMemoryMiddleware(namespace=("m",), k=0)])
        agent.invoke({"messages": [("user", USER_SAYS)]})
        return [tx.claim.source for tx in store.engine.log("m")]


def llamaindex_sources() -> list[str]:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms import MockFunctionCallingLLM
    from llama_index.core.tools import FunctionTool

    from llamaindex_tarl import TarlMemory

    steps = [("order_status", {"order_id": "A-1001"})] + [("remember", args(f, s, i)) for i, (f, s) in enumerate(CALLS)]

    def reply(messages, **kwargs):
        done = sum(m.role == MessageRole.TOOL for m in messages)
        if done < len(steps):
            name, kw = steps[done]
            return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{done}", tool_name=name, tool_kwargs=kw)])
        return ChatMessage(role="assistant", content="Done.")

    with TarlMemory.from_defaults(namespace="m", extractor=lambda messages: []) as memory:
        agent = FunctionAgent(tools=[*memory.tools(), FunctionTool.from_defaults(order_status)],
                              llm=MockFunctionCallingLLM(response_generator=reply, is_chat_model=True))

        async def run():
            await agent.run(user_msg=USER_SAYS, memory=memory)
        asyncio.run(run())
        return [tx.claim.source for tx in memory.engine.log("m")]


def test_both_adapters_record_the_same_sources():
    assert langchain_sources() == EXPECTED
    assert llamaindex_sources() == EXPECTED
