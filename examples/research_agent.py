"""An R&D agent over several sessions, each a new process sharing one store: memory that forgets.

Runs offline. The "model" is a scripted scientist (a fake chat model that reads its prompt and the tool
replies and calls tools the way a tool-calling LLM would); the lab is a seeded hidden truth. What you
see is the belief memory's behaviour: the agent states the problem once, then every session starts
from a fresh history with only the ``<beliefs>`` block in its prompt, follows ``next_to_test``, and
records results; the engine prunes what rested on a refuted catalyst and deduces the last candidate
standing. Session 3 is a forgetful model proposing a refuted catalyst again: it is told so, and
nothing is written; it then asks why A's scale-up is off the table (``explain``).

    python examples/research_agent.py                  # temporary store, seed 5
    python examples/research_agent.py --store lab/ --seed 0

Swap ``Scientist`` for any tool-calling chat model (``init_chat_model("...")``) to use it for real.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
from typing import Any

from langchain.agents import create_agent
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from langchain_tarl import TarlBeliefMiddleware
from langchain_tarl.testing import ScriptedToolModel, call
from shared_core import MemoryEngine

NS = "coupling"
EXPERIMENTS_PER_SESSION = 2
CATALYSTS = {"A": 0.5, "B": 0.3, "C": 0.2}
TEMPERATURES = ("60 C", "90 C")
PLAN = [  # session 1: the model states the problem (ids are assigned in this order: Q1 H1-H3, ...)
    ("declare_question", dict(question="Which catalyst gives >90% yield on the coupling?", closed_world=True,
                              candidates=[{"text": f"catalyst {c} gives >90% yield", "prior": p}
                                          for c, p in CATALYSTS.items()])),
    ("propose_hypothesis", dict(text="catalyst A survives a 10 kg scale-up", rests_on=["H1"], prior=0.6)),
    ("propose_hypothesis", dict(text="the A route is cheaper than the current process", rests_on=["H4"])),
    *[("declare_question", dict(question=f"Which temperature works for catalyst {c}?", closed_world=True,
                                rests_on=[h], candidates=[{"text": f"catalyst {c} works at {t}", "prior": p}
                                                          for t, p in zip(TEMPERATURES, (0.6, 0.4))]))
      for c, h in (("B", "H2"), ("C", "H3"))],
]


def lab(seed: int) -> dict[str, bool]:
    """The hidden truth: one catalyst works, at one temperature; A's scale-up holds if A works."""
    rng = random.Random(seed)
    catalyst, temperature = rng.choice(sorted(CATALYSTS)), rng.choice(TEMPERATURES)
    truth = {f"catalyst {c} gives >90% yield": c == catalyst for c in CATALYSTS}
    truth |= {f"catalyst {c} works at {t}": c == catalyst and t == temperature for c in CATALYSTS for t in TEMPERATURES}
    truth |= {"catalyst A survives a 10 kg scale-up": catalyst == "A", "the A route is cheaper than the current process": True}
    return truth


class Scientist(ScriptedToolModel):
    """Reads the tool replies of the current turn and decides the next call, like an LLM would."""

    truth: dict[str, bool] = {}
    session: int = 1

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any) -> Any:
        self.prompts.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.decide(messages))])

    def decide(self, messages: list[BaseMessage]) -> AIMessage:
        start = max(i for i, m in enumerate(messages) if isinstance(m, HumanMessage))
        replies = [str(m.content) for m in messages[start:] if isinstance(m, ToolMessage)]
        n, last = len(replies), (replies[-1] if replies else "")
        if self.session == 1 and n < len(PLAN):
            name, args = PLAN[n]                               # the first session states the problem
            return call(name, f"s{self.session}c{n}", **args)
        if self.session == 3 and n == 0:                        # a forgetful model restates a dead end
            return call("propose_hypothesis", "s3c0", text="catalyst A gives >90% yield", answers="Q1")
        done = sum(r.startswith("R") for r in replies)
        if found := re.match(r"Test (H\d+) next: '(.+?)'", last):
            return call("start_experiment", f"s{self.session}c{n}", hypothesis=found.group(1),
                        description=f"bench run: {found.group(2)}")
        if found := re.match(r"(E\d+) started on (H\d+) '(.+?)'", last):
            outcome = self.truth[found.group(3)]
            return call("record_result", f"s{self.session}c{n}", hypothesis=found.group(2), confirmed=outcome,
                        evidence=f"{'clean' if outcome else 'no'} conversion in the {found.group(3)} run")
        if last.startswith("Nothing to test") and self.session == 3:     # why is the scale-up off the table?
            return call("explain", "s3c9", id="H5")
        if done >= EXPERIMENTS_PER_SESSION or last.startswith(("Nothing to test", "H5 [")):
            return AIMessage(f"Session {self.session} done ({done} experiments).")
        return call("next_to_test", f"s{self.session}c{n}")


def session(store: str, number: int, seed: int) -> int:
    """One working session: a new process, a new agent, a fresh conversation; only the store is shared."""
    model = Scientist(disable_streaming=True, messages=iter(()), truth=lab(seed), session=number)
    with MemoryEngine.open(store) as engine:
        agent = create_agent(model, system_prompt="You are a research chemist. Test one hypothesis at a time.",
                             middleware=[TarlBeliefMiddleware(engine, NS)])
        out = agent.invoke({"messages": [HumanMessage(f"Session {number}: continue the catalyst search.")]})
        first = str(model.prompts[0][0].content)
        print(f"=== session {number} (a new process) ===")
        print("prompt:", first[first.index("<beliefs>"):] if "<beliefs>" in first else "(no beliefs yet)")
        for m in out["messages"][1:]:
            if isinstance(m, AIMessage) and m.tool_calls:
                c = m.tool_calls[0]
                print(f"> {c['name']}({', '.join(f'{k}={v!r}' for k, v in c['args'].items())})")
            elif isinstance(m, ToolMessage):
                print("  " + str(m.content).replace("\n", "\n  "))
            elif isinstance(m, AIMessage):
                print(f"model: {m.content}")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--store", default=None, help="store folder (default: a temporary one)")
    p.add_argument("--seed", type=int, default=5, help="which catalyst and temperature work (hidden)")
    p.add_argument("--session", type=int, default=None, help=argparse.SUPPRESS)
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    if args.session is not None:
        return session(args.store, args.session, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or tmp
        for number in (1, 2, 3):
            done = subprocess.run([sys.executable, __file__, "--store", store, "--seed", str(args.seed),
                                   "--session", str(number)], capture_output=True, text=True)
            print(done.stdout, end="")
            if done.returncode:
                print(done.stderr, file=sys.stderr)
                return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
