"""tarl-memory with LlamaIndex, offline: a chat engine and an agent that remember across sessions.

    python examples/llamaindex_chat.py                    # a fresh temporary store, the default policy
    python examples/llamaindex_chat.py --path ./store --policy rules

The "LLM" is LlamaIndex's MockFunctionCallingLLM driven by a tiny script, so this runs without a network
or an API key; swap in any real LLM (``OpenAI(...)``, ``Ollama(...)``) and nothing else changes.

Under the default policy the script checks that each of Monday's statements got the decision the
labelling contract (``tarl_labels.md``) gives it, and exits 1 (saying which) when one did not.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from llama_index.core.agent.workflow import FunctionAgent
from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.chat_engine import SimpleChatEngine
from llama_index.core.llms import MockFunctionCallingLLM

from llamaindex_tarl import TarlMemory
from shared_core import Action
from shared_core.policy import Policy, RulePolicy

USER = "user:ana"


def scripted_llm() -> MockFunctionCallingLLM:
    """Prints the memory it is given; asks ``recall`` for questions when it has tools; otherwise says 'Noted.'"""

    def reply(messages: list[ChatMessage], **kwargs) -> ChatMessage:
        memory = [m.content or "" for m in messages if m.role == MessageRole.SYSTEM and "Long-term" in (m.content or "")]
        for text in memory:
            print("    [LLM sees]", text.replace("\n", " | "))
        last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
        results = [m.content or "" for m in messages[last:] if m.role == MessageRole.TOOL]
        if results:
            return ChatMessage(role="assistant", content="recall says: " + results[-1].replace("\n", " "))
        if not (messages[last].content or "").endswith("?"):
            return ChatMessage(role="assistant", content="Noted.")
        if kwargs.get("tools"):
            call = ToolCallBlock(tool_call_id="r1", tool_name="recall", tool_kwargs={"query": messages[last].content})
            return ChatMessage(role="assistant", blocks=[call])
        return ChatMessage(role="assistant", content="my memory says: " + " ".join(memory[-1:]).split("\n", 1)[-1])

    return MockFunctionCallingLLM(response_generator=reply, is_chat_model=True)


MONDAY = [  # what Ana says, and the decision the labelling contract gives it
    ("My order id is A-7731.", Action.APPEND),
    ("I live in Lisbon.", Action.APPEND),
    ("Actually my order id is now A-7740.", Action.REVISE),                 # a completed change
    ("I think my order id is B-1234.", Action.DEFER_VERIFY),                # hedged: waits
]


def chat_session(path: Path, session: str, lines: list[str], policy: Policy | None) -> list[Action]:
    done: list[Action] = []
    with TarlMemory.from_defaults(path, namespace=USER, session_id=session, token_limit=2048, policy=policy) as memory:
        chat = SimpleChatEngine.from_defaults(llm=scripted_llm(), memory=memory, system_prompt="You help Ana.")
        print(f"\n== chat engine, session {session!r}")
        for line in lines:
            print(f"  user: {line}")
            print(f"  bot:  {chat.chat(line)}".replace("\n", " "))
            for d in memory.block.last_decisions if not line.endswith("?") else []:
                print(f"    [TARL] {d.action.value}: {d.rationale}")
                done.append(d.action)
    return done


async def agent_session(path: Path, question: str) -> None:
    with TarlMemory.from_defaults(path, namespace=USER, session_id="agent-1") as memory:
        agent = FunctionAgent(tools=memory.tools(), llm=scripted_llm(), system_prompt="You help Ana.")
        print("\n== FunctionAgent with remember/recall tools")
        print(f"  user:  {question}")
        print(f"  agent: {(await agent.run(user_msg=question, memory=memory)).response.content}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, default=None, help="store folder (default: a temporary one)")
    parser.add_argument("--policy", choices=["default", "rules"], default="default",
                        help="default: the engine's (learned) policy; rules: one-sentence explanations")
    args = parser.parse_args(argv)
    policy = RulePolicy() if args.policy == "rules" else None
    with tempfile.TemporaryDirectory(prefix="tarl-li-") as tmp:
        path = args.path or Path(tmp)
        done = chat_session(path, "monday", [line for line, _ in MONDAY], policy)
        chat_session(path, "tuesday", ["What is my order id?"], policy)
        asyncio.run(agent_session(path, "Where do I live?"))
    expected = [action for _, action in MONDAY]
    if policy is None and done != expected:
        print(f"\nUNEXPECTED: the labelling contract says {[a.value for a in expected]}, "
              f"the default policy did {[a.value for a in done]}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
