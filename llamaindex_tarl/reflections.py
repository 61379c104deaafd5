"""``AgentReflections``: lessons a LlamaIndex agent learns from its runs, kept only when Janus finds them useful."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms import LLM

from shared_core import MemoryEngine, TarlError
from shared_core.janus import JanusConfig, JanusController, JanusDecision, JanusLedger, Trigger

from .block import _lines

Propose = Callable[[tuple[str, ...], str, str], Sequence[str]]
Evaluate = Callable[[tuple[str, ...], str], float]

REFLECT_PROMPT = (
    "You keep a short list of lessons that help an assistant do its job.\n"
    "Current lessons:\n{lessons}\n\nLast task: {task}\nWhat happened: {outcome}\n\n"
    "Rewrite the list of lessons (keep what still holds, fix what was wrong, add at most one new lesson), "
    "one lesson per line, at most {limit} lines, nothing else."
)


class AgentReflections:
    """After each agent run, an updater proposes new lessons; the Janus gate compares old and new lessons
    on a small evaluation set when memory moves in a new direction, and the ledger records the outcome
    (accepted lessons in the Accepted ledger, source ``reflection``; rejected ones in History).

    >>> from shared_core import MemoryEngine
    >>> from shared_core.janus import AlwaysTrigger
    >>> engine = MemoryEngine.open()
    >>> propose = lambda lessons, task, outcome: [*lessons, "Quote order ids exactly."]
    >>> score = lambda lessons, task: float("Quote order ids exactly." in lessons)
    >>> reflections = AgentReflections(engine, "agent:support", propose, score, trigger=AlwaysTrigger(warmup=0))
    >>> reflections.reflect("What is my order id?", "Your order id is A-7740.").verdict.value
    'candidate_better'
    >>> print(reflections.render())
    Lessons from earlier tasks:
    - Quote order ids exactly.
    >>> [(e.text, e.source) for e in engine.accepted("agent:support")]
    [('Quote order ids exactly.', 'reflection')]

    With an agent: ``out = await agent.run(user_msg=q, memory=memory)`` then
    ``await reflections.areflect(q, out)``; give the next run the lessons with
    ``FunctionAgent(..., system_prompt=base + "\\n" + reflections.render())``. ``propose`` can be built from
    any LlamaIndex LLM with :meth:`llm_propose`; ``evaluate(lessons, task) -> float`` is yours (e.g.
    re-run the agent on the task with those lessons and check the answer). Lessons persist in the
    engine; the gate's momentum and evaluation sets live in this object.
    """

    def __init__(self, engine: MemoryEngine, namespace: str, propose: Propose, evaluate: Evaluate, *,
                 embed: Callable[[Sequence[str]], Any] | None = None, config: JanusConfig | None = None,
                 trigger: Trigger | None = None) -> None:
        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        for field, fn in (("propose", propose), ("evaluate", evaluate)):
            if not callable(fn):
                raise TarlError(field, fn, "must be callable")
        self.ledger = JanusLedger(engine, namespace)
        self.controller = JanusController(propose, evaluate, embed or engine.index.embed, config=config,
                                          trigger=trigger, memory=self.ledger.memory(), sink=self.ledger)

    @property
    def lessons(self) -> tuple[str, ...]:
        return self.controller.memory

    def render(self) -> str:
        """The lessons as a system-prompt paragraph ('' while there are none)."""
        return "Lessons from earlier tasks:\n" + "\n".join(f"- {x}" for x in self.lessons) if self.lessons else ""

    def reflect(self, task: str, outcome: Any) -> JanusDecision:
        """One Janus step for a finished run; ``outcome`` is the agent's output (or any text about it)."""
        if not isinstance(task, str) or not task.strip():
            raise TarlError("task", task, "must be a non-empty string (the user's request)")
        return self.controller.step(task, outcome_text(outcome))

    async def areflect(self, task: str, outcome: Any) -> JanusDecision:
        return await asyncio.to_thread(self.reflect, task, outcome)

    @staticmethod
    def llm_propose(llm: LLM, limit: int = 8) -> Propose:
        """An updater that asks ``llm`` to rewrite the lessons after each task (one lesson per line)."""
        if not isinstance(llm, LLM):
            raise TarlError("llm", llm, "must be a llama_index LLM")

        def propose(lessons: tuple[str, ...], task: str, outcome: str) -> list[str]:
            prompt = REFLECT_PROMPT.format(lessons="\n".join(f"- {x}" for x in lessons) or "(none yet)",
                                           task=task, outcome=outcome, limit=limit)
            return _lines(llm.chat([ChatMessage(role="user", content=prompt)]).message.content)[:limit]

        return propose


def outcome_text(outcome: Any) -> str:
    """An ``AgentOutput`` (from ``agent.run``) or a chat response as text; anything else via ``str``."""
    response = getattr(outcome, "response", outcome)
    content = getattr(response, "content", None)
    return str(content if content is not None else response)
