"""A LangChain v1 agent with tarl-memory: long-term memory that decides, and a history trimmed by LRE.

Runs offline: the chat model is a scripted fake that calls tools the way a real model would, so what you
see is the memory's behaviour, not a model's. Swap in any tool-calling chat model
(``init_chat_model("...")``) and drop the script to use it for real.

    python examples/langchain_agent.py            # in-memory
    python examples/langchain_agent.py mem/       # persisted: ledger.db (sqlite3-readable) + chroma/

Thread 1: the agent reads the city from the user's profile (a real tool) and relays it to memory as the
tool's fact, the user corrects it, a cousin's hearsay contradicts it. Thread 2, a new conversation: the
agent recalls the corrected fact without being told. The script asserts what the labelling contract
(``tarl_labels.md``) says each write must be under the default policy: append, revise, reject_conflict.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from shared_core import Action

from langchain_tarl import LRETrimMiddleware, TarlMemoryMiddleware, TarlStore
from langchain_tarl.testing import ScriptedToolModel, call


def remember(call_id: str, fact: str, source: str) -> AIMessage:
    """The model files the fact under a topic: the store key, so later facts on it are weighed against it."""
    args = {"fact": fact, "source": source, "topic": "home_city"}
    return call("remember", call_id, **args)


@tool
def customer_profile() -> str:
    """The signed-in customer's profile from the CRM."""
    return '{"name": "Alice", "city": "Lisbon"}'


@dataclass
class Ctx:
    user_id: str


EXPECTED = [Action.APPEND, Action.REVISE, Action.REJECT_CONFLICT]
"""What each remember must be under the default policy (tool fact, user's correction, hearsay)."""

CONVERSATION = [  # (thread, user says, scripted model replies)
    ("t1", "Please check my customer profile and note my city.",
     [call("customer_profile", "p1"), remember("c1", "The user lives in Lisbon", "tool"),
      AIMessage("Your profile says Lisbon; noted.")]),
    ("t1", "Correction: I live in Porto, not Lisbon.",
     [remember("c2", "The user lives in Porto", "user"), AIMessage("Updated: Porto.")]),
    ("t1", "My cousin insists I live in Madrid.",
     [remember("c3", "The user lives in Madrid", "third_party"), AIMessage("I'll keep Porto.")]),
    ("t2", "Which city should I search for restaurants in?", [AIMessage("Porto, where you live.")]),
]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    model = ScriptedToolModel(disable_streaming=True,
                          messages=iter([reply for _, _, replies in CONVERSATION for reply in replies]))
    with TarlStore.open(argv[0] if argv else None) as store:
        memory = TarlMemoryMiddleware(namespace=lambda rt: ("memories", rt.context.user_id), k=3)
        agent = create_agent(model, [customer_profile], system_prompt="You are a concise assistant.", store=store,
                             middleware=[memory, LRETrimMiddleware(budget=2048)],
                             checkpointer=InMemorySaver(), context_schema=Ctx)
        for thread, text, _ in CONVERSATION:
            print(f"[{thread}] user: {text}")
            out = agent.invoke({"messages": [HumanMessage(text)]}, {"configurable": {"thread_id": thread}},
                               context=Ctx("alice"))
            start = max(i for i, m in enumerate(out["messages"]) if isinstance(m, HumanMessage))
            for m in out["messages"][start:]:
                if isinstance(m, ToolMessage) and m.name == "remember":
                    print(f"[{thread}]   memory: {m.content}")
            print(f"[{thread}] agent: {out['messages'][-1].content}")
        system = model.prompts[-1][0].content
        print("\nWhat the model saw in thread 2 (system message):\n" + system)
        ns = "memories.alice"
        print("\nAccepted:", [e.text for e in store.engine.accepted(ns)])
        print("History: ", [(e.text, e.reason.value if e.reason else None) for e in store.engine.history(ns)])
        for tx in store.engine.log(ns):
            print(f"  tx {tx.tx}: {tx.action.value:<16} {tx.claim.text if tx.claim else ''}"
                  f"  ({tx.decision.rationale if tx.decision else ''})")
        done = [tx.action for tx in store.engine.log(ns)]
        if done != EXPECTED:
            print(f"\nUNEXPECTED: the labelling contract says {[a.value for a in EXPECTED]}, "
                  f"the default policy did {[a.value for a in done]}")
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
