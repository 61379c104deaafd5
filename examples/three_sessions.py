"""Three sessions, three setups: does the agent see the current fact, and never the stale one or the rumour?

    python examples/three_sessions.py                 # all setups; prints the table, exits 1 on a miss
    python examples/three_sessions.py --json out.json

Session 1: the user lives in Lisbon and works as a nurse; an order tool says order A-1001 ships to a
Lisbon address. Session 2: the user moved to Porto, became a teacher, relays a friend's rumour (moving to
Berlin); the order tool now says A-1001 ships to a Porto address; a second order B-2002 appears.
Session 3 runs in a new process on the same store and asks four questions. For each, what the model was
shown (memories in its prompt, or the search tool's output) is checked: current fact shown, stale fact
kept out, rumour kept out.

Setups: ``langchain`` (``create_agent`` + ``TarlStore`` + ``TarlMemoryMiddleware`` + ``LRETrimMiddleware``),
``langmem`` (langmem's manage/search tools on ``TarlStore``), ``llamaindex`` (``FunctionAgent`` +
``TarlMemory`` with its tools; automatic extraction of user statements off), ``llamaindex_auto`` (the
same with ``TarlMemory``'s default extractor on). The chat models are scripted fakes that call the tools
the way the tools' own instructions ask; the memory's behaviour is real.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

SESSIONS = {
    1: ["I live in Lisbon and work as a nurse at Santa Maria hospital.",
        "Can you check where my order A-1001 is going?"],
    2: ["Big news: I moved to Porto last month.",
        "I also changed jobs: I'm a teacher at Escola Azul now.",
        "My friend Bob says I'm moving to Berlin next year.",
        "Has order A-1001 shipped yet?",
        "I placed a second order, B-2002. Where is it going?"],
}
QUESTIONS = [  # (question, current (all shown), stale (none shown))
    ("Where do I live?", ["Porto"], ["Lisbon"]),
    ("Where do I work?", ["Escola Azul"], ["Santa Maria"]),
    ("Where is order A-1001 shipping to?", ["12 Rua Nova"], ["5 Rua Velha"]),
    ("Where is order B-2002 going?", ["B-2002", "12 Rua Nova"], []),
]
RUMOUR = "Berlin"
ADDRESSES = {1: {"A-1001": "5 Rua Velha, Lisbon"}, 2: {"A-1001": "12 Rua Nova, Porto", "B-2002": "12 Rua Nova, Porto"}}
STATE = {"session": 1}


def order_status(order_id: str) -> str:
    """Look up where an order ships to and its status."""
    ship_to = ADDRESSES[STATE["session"]].get(order_id)
    return json.dumps({"order_id": order_id, "ship_to": ship_to, "status": "shipped" if STATE["session"] > 1 else "processing"})


# -- what the scripted model does after each user message: a list of steps, one tool call each ------
Step = Callable[[list[str]], tuple[str, dict[str, Any]]]   # tool outputs so far -> (tool, arguments)


def remember(fact: str, source: str, topic: str) -> Step:
    return lambda _: ("remember", {"fact": fact, "source": source, "topic": topic})


def lookup(order: str) -> Step:
    return lambda _: ("order_status", {"order_id": order})


REMEMBER_PLAN: dict[str, list[Step]] = {
    SESSIONS[1][0]: [remember("The user lives in Lisbon", "user", "home_city"),
                     remember("The user works as a nurse at Santa Maria hospital", "user", "job")],
    SESSIONS[1][1]: [lookup("A-1001"), remember("Order A-1001 ships to 5 Rua Velha, Lisbon", "tool", "order A-1001")],
    SESSIONS[2][0]: [remember("The user lives in Porto", "user", "home_city")],
    SESSIONS[2][1]: [remember("The user works as a teacher at Escola Azul", "user", "job")],
    SESSIONS[2][2]: [remember("The user is moving to Berlin next year", "third_party", "home_city")],
    SESSIONS[2][3]: [lookup("A-1001"), remember("Order A-1001 now ships to 12 Rua Nova, Porto", "tool", "order A-1001")],
    SESSIONS[2][4]: [lookup("B-2002"), remember("Order B-2002 ships to 12 Rua Nova, Porto", "tool", "order B-2002")],
}


def create(content: str) -> Step:
    return lambda _: ("manage_memory", {"content": content, "action": "create"})


def update(found_by: str, content: str) -> Step:
    """Update the memory the previous search found (the way langmem's instructions ask)."""
    def step(outputs: list[str]) -> tuple[str, dict[str, Any]]:
        hits = json.loads(outputs[-1])
        hit = next(h for h in hits if found_by in json.dumps(h["value"]))
        return "manage_memory", {"content": content, "action": "update", "id": hit["key"]}
    return step


def search(query: str) -> Step:
    return lambda _: ("search_memory", {"query": query})


LANGMEM_PLAN: dict[str, list[Step]] = {
    SESSIONS[1][0]: [create("The user lives in Lisbon"), create("The user works as a nurse at Santa Maria hospital")],
    SESSIONS[1][1]: [lookup("A-1001"), create("Order A-1001 ships to 5 Rua Velha, Lisbon")],
    SESSIONS[2][0]: [search("where the user lives"), update("lives in", "The user lives in Porto")],
    SESSIONS[2][1]: [search("the user's job"), update("works as", "The user works as a teacher at Escola Azul")],
    SESSIONS[2][2]: [create("Bob says the user is moving to Berlin next year")],
    SESSIONS[2][3]: [lookup("A-1001"), search("order A-1001"), update("A-1001", "Order A-1001 now ships to 12 Rua Nova, Porto")],
    SESSIONS[2][4]: [lookup("B-2002"), create("Order B-2002 ships to 12 Rua Nova, Porto")],
    **{q: [search(q)] for q, _, _ in QUESTIONS},
}


def next_step(plan: dict[str, list[Step]], said: str, outputs: list[str]) -> tuple[str, dict[str, Any]] | None:
    steps = plan.get(said, [])
    return steps[len(outputs)](outputs) if len(outputs) < len(steps) else None


# -- LangChain: create_agent with the middlewares, or with langmem's tools --------------------------
def langchain_model(plan: dict[str, list[Step]], shown: list[str], seen: Callable[[list[Any]], str]) -> Any:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langchain_core.outputs import ChatGeneration, ChatResult

    class PlanModel(BaseChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self

        @property
        def _llm_type(self) -> str:
            return "scripted-plan"

        def _generate(self, messages: list[Any], stop: Any = None, run_manager: Any = None, **kw: Any) -> ChatResult:
            last = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
            outputs = [m.content for m in messages[last:] if isinstance(m, ToolMessage)]
            step = next_step(plan, messages[last].content, outputs)
            if step is None:
                shown.append(seen(messages))
                reply = AIMessage("OK.")
            else:
                reply = AIMessage("", tool_calls=[{"name": step[0], "args": step[1], "id": f"c{len(outputs)}", "type": "tool_call"}])
            return ChatResult(generations=[ChatGeneration(message=reply)])

    return PlanModel()


def run_langchain(path: Path, session: int, setup: str) -> list[str]:
    from langchain.agents import create_agent
    from langchain_core.messages import SystemMessage, ToolMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver

    from langchain_tarl import LRETrimMiddleware, TarlMemoryMiddleware, TarlStore

    shown: list[str] = []
    with TarlStore.open(path) as store:
        if setup == "langmem":
            from langmem import create_manage_memory_tool, create_search_memory_tool

            ns = ("memories", "alice")
            tools = [tool(order_status), create_manage_memory_tool(ns), create_search_memory_tool(ns)]
            model = langchain_model(LANGMEM_PLAN, shown, lambda ms: (ms[-1].content if isinstance(ms[-1], ToolMessage) else ""))
            middleware: list[Any] = [LRETrimMiddleware(budget=4096)]
        else:
            tools = [tool(order_status)]
            model = langchain_model(REMEMBER_PLAN, shown, lambda ms: next(
                (m.content for m in ms if isinstance(m, SystemMessage)), ""))
            middleware = [TarlMemoryMiddleware(namespace=("memories", "alice"), k=5), LRETrimMiddleware(budget=4096)]
        agent = create_agent(model, tools, store=store, middleware=middleware, checkpointer=InMemorySaver())
        lines = SESSIONS.get(session) or [q for q, _, _ in QUESTIONS]
        for line in lines:
            agent.invoke({"messages": [("user", line)]}, {"configurable": {"thread_id": f"s{session}"}})
    return shown if session == 3 else []


# -- LlamaIndex: FunctionAgent + TarlMemory ---------------------------------------------------------
def run_llamaindex(path: Path, session: int, setup: str) -> list[str]:
    from llama_index.core.agent.workflow import FunctionAgent
    from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
    from llama_index.core.llms import MockFunctionCallingLLM
    from llama_index.core.tools import FunctionTool

    from llamaindex_tarl import TarlMemory

    shown: list[str] = []

    def reply(messages: list[ChatMessage], **kwargs: Any) -> ChatMessage:
        last = max(i for i, m in enumerate(messages) if m.role == MessageRole.USER)
        outputs = [m.content or "" for m in messages[last:] if m.role == MessageRole.TOOL]
        step = next_step(REMEMBER_PLAN, messages[last].content or "", outputs) if kwargs.get("tools") else None
        if step is None:
            shown.append("\n".join(m.content or "" for m in messages if m.role == MessageRole.SYSTEM))
            return ChatMessage(role="assistant", content="OK.")
        return ChatMessage(role="assistant", blocks=[ToolCallBlock(tool_call_id=f"c{len(outputs)}", tool_name=step[0],
                                                                   tool_kwargs=step[1])])

    extractor = None if setup == "llamaindex_auto" else (lambda messages: [])
    with TarlMemory.from_defaults(path, namespace="user:alice", session_id=f"s{session}", extractor=extractor,
                                  token_limit=4096) as memory:
        agent = FunctionAgent(tools=[*memory.tools(), FunctionTool.from_defaults(order_status)],
                              llm=MockFunctionCallingLLM(response_generator=reply, is_chat_model=True),
                              system_prompt="You help Alice.")

        async def run() -> None:
            for line in SESSIONS.get(session) or [q for q, _, _ in QUESTIONS]:
                await agent.run(user_msg=line, memory=memory)
        asyncio.run(run())
    return shown if session == 3 else []


RUNNERS = {"langchain": run_langchain, "langmem": run_langchain, "llamaindex": run_llamaindex,
           "llamaindex_auto": run_llamaindex}


def session_three_in_a_new_process(setup: str, path: Path) -> list[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                         os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, __file__, "--setup", setup, "--path", str(path), "--session", "3"],
                         capture_output=True, text=True, env=env, timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def judge(shown: list[str]) -> list[dict[str, Any]]:
    rows = []
    for (question, current, stale), text in zip(QUESTIONS, shown):
        rows.append({"question": question, "current_shown": all(c in text for c in current),
                     "stale_kept_out": not any(s in text for s in stale), "rumour_kept_out": RUMOUR not in text})
    return rows


def scenario(setup: str) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix=f"tarl-3s-{setup}-") as tmp:
        for session in (1, 2):
            STATE["session"] = session
            RUNNERS[setup](Path(tmp), session, setup)
        return judge(session_three_in_a_new_process(setup, Path(tmp)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", choices=sorted(RUNNERS), action="append")
    parser.add_argument("--path", type=Path)
    parser.add_argument("--session", type=int, choices=[3])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    if args.session == 3:                                   # the child process: ask, print what was shown
        STATE["session"] = 2
        print(json.dumps(RUNNERS[args.setup[0]](args.path, 3, args.setup[0])))
        return 0
    results = {setup: scenario(setup) for setup in (args.setup or list(RUNNERS))}
    print(f"{'setup':<16} {'question':<36} {'current shown':<14} {'stale kept out':<15} rumour kept out")
    for setup, rows in results.items():
        for r in rows:
            print(f"{setup:<16} {r['question']:<36} {str(r['current_shown']):<14} {str(r['stale_kept_out']):<15} "
                  f"{r['rumour_kept_out']}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))
    ok = all(all(v for k, v in r.items() if k != "question") for rows in results.values() for r in rows)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
