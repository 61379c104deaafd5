"""``JanusReflectionMiddleware``: lessons the agent learns after each run, kept only when they prove useful."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, Field
from shared_core import MemoryEngine

from . import namespaces
from .messages import last_user_text, latest_turn, transcript

if TYPE_CHECKING:
    from shared_core.janus import JanusConfig, JanusDecision

    from .store import TarlStore

REFLECT_PROMPT = (
    "You keep a short list of lessons that help an assistant do its tasks better. Given the current "
    "lessons, the last task and what happened, return the full updated list: keep what still helps, fix "
    "what misled, add at most one new lesson. Return the list unchanged if nothing was learned."
)


class Lessons(BaseModel):
    """The full, updated list of lessons."""

    lessons: list[str] = Field(default_factory=list, description="One short, general lesson per item.")


class JanusReflectionMiddleware(AgentMiddleware):
    """After each run, ask ``reflector`` for updated lessons; the Janus gate decides whether they deploy.

    .. code-block:: python

        from langchain_tarl import JanusReflectionMiddleware, TarlStore

        store = TarlStore.open("mem/")
        def evaluate(lessons, task):            # your check: replay the task with these lessons, score 0..1
            return float(run_task(task, lessons).correct)

        reflect = JanusReflectionMiddleware(reflector=chat_model, evaluate=evaluate, memory=store)
        agent = create_agent(model, tools, middleware=[reflect], store=store)
        agent.invoke({"messages": [("user", "convert 5 miles to km")]})
        reflect.controller.memory                # the deployed lessons
        reflect.last.explain()                   # e.g. "janus step 7: current_better; candidate 0.40 vs ..."

    - After every run (sync and async) the latest turn becomes a task (``task_of``, default: the last
      user message) and feedback (``feedback_of``, default: the turn's transcript); the reflector
      proposes the full updated list (structured output) and ``JanusController.step`` keeps the better
      of old and new on its evaluation set, calling your ``evaluate(lessons, task) -> float``.
    - With ``memory`` (a :class:`TarlStore` or ``MemoryEngine``) every decision is written through
      ``JanusLedger`` into ``namespace`` (accepted lessons Accepted, rejected ones in History with the
      reason), and the gate starts from the lessons accepted there before.
    - Before each model call the deployed lessons are appended to the system message in ``<lessons>``.

    One controller per middleware: runs are serialised through it (a lock), as Janus is sequential.
    """

    def __init__(self, reflector: BaseChatModel, evaluate: Callable[[tuple[str, ...], Any], float], *,
                 memory: TarlStore | MemoryEngine | None = None, namespace: Sequence[str] = ("reflections",),
                 config: JanusConfig | None = None, embed: Callable[[Sequence[str]], Any] | None = None,
                 task_of: Callable[[list[BaseMessage]], Any] = last_user_text,
                 feedback_of: Callable[[list[BaseMessage]], Any] = transcript,
                 task_text: Callable[[Any], str] = str, inject: bool = True) -> None:
        super().__init__()
        from shared_core.janus import JanusController, JanusLedger     # numpy only; loaded when built

        engine = memory.engine if memory is not None and not isinstance(memory, MemoryEngine) else memory
        self.ledger = JanusLedger(engine, namespaces.to_engine(namespace)) if engine is not None else None
        self.reflector = reflector.with_structured_output(Lessons)
        self.task_of, self.feedback_of, self.task_text, self.inject = task_of, feedback_of, task_text, inject
        self.controller: JanusController[Any] = JanusController(
            self._propose, evaluate, embed, config=config, task_text=task_text, sink=self.ledger,
            memory=self.ledger.memory() if self.ledger is not None else (),
        )
        self.last: JanusDecision | None = None
        self._lock = threading.Lock()

    def _propose(self, lessons: tuple[str, ...], task: Any, feedback: Any) -> list[str]:
        current = "\n".join(f"- {item}" for item in lessons) or "(none yet)"
        prompt = [SystemMessage(REFLECT_PROMPT),
                  HumanMessage(f"Current lessons:\n{current}\n\nTask:\n{self.task_text(task)}\n\n"
                               f"What happened:\n{feedback}")]
        result = self.reflector.invoke(prompt)
        proposed = result if isinstance(result, Lessons) else Lessons.model_validate(result)
        return [item.strip() for item in proposed.lessons if item.strip()]

    def _step(self, messages: list[BaseMessage]) -> None:
        task = self.task_of(messages)
        if not task:
            return
        with self._lock:
            self.last = self.controller.step(task, self.feedback_of(latest_turn(messages)))

    def after_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        self._step(list(state["messages"]))
        return None

    async def aafter_agent(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        await asyncio.to_thread(self._step, list(state["messages"]))
        return None

    def _with_lessons(self, request: ModelRequest) -> ModelRequest:
        lessons = self.controller.memory
        if not self.inject or not lessons:
            return request
        items = "\n".join(f"- {item}" for item in lessons)
        body = f"{request.system_prompt or ''}\n\n<lessons>\n{items}\n</lessons>".strip()
        return request.override(system_message=SystemMessage(body))

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        return handler(self._with_lessons(request))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
        return await handler(self._with_lessons(request))
