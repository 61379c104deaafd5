"""``TarlBeliefMiddleware``: the belief tools (``shared_core.beliefs.tools``) for ``create_agent``, and
the belief summary in the prompt before every model call."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import SystemMessage
from langchain_core.tools import BaseTool, StructuredTool
from shared_core import MemoryEngine
from shared_core.beliefs.tools import DEFAULT_RULE, BeliefTools, Rule, ToolSpec, validation_message


class TarlBeliefMiddleware(AgentMiddleware):
    """Memory that forgets, in an R&D agent's hands.

    .. code-block:: python

        from langchain.agents import create_agent
        from langchain_tarl import TarlBeliefMiddleware
        from shared_core import MemoryEngine

        beliefs = TarlBeliefMiddleware(MemoryEngine.open("project-store"), "catalysis")
        agent = create_agent(model, middleware=[beliefs])
        agent.invoke({"messages": [("user", "Carry on with the catalyst search")]})
        # tools: declare_question, propose_hypothesis, start_experiment, record_result,
        #        next_to_test, frontier, explain -- ids such as Q1, H3 are stable across sessions

    Before every model call (sync and async) the system message gets a ``<beliefs>`` block: the
    frontier, what is established, and what the latest result pruned or deduced. ``rule``: how
    ``next_to_test`` picks ("argmax" or "sample"). Tools and summary are defined in the core; this
    class only translates.
    """

    def __init__(self, engine: MemoryEngine, namespace: str, *, rule: Rule = DEFAULT_RULE,
                 seed: int | None = None) -> None:
        super().__init__()
        self.beliefs = BeliefTools(engine, namespace, rule=rule, seed=seed)
        self.tools: list[BaseTool] = belief_tools(self.beliefs)

    @staticmethod
    def _with(request: ModelRequest, summary: str) -> ModelRequest:
        if not summary:
            return request
        return request.override(system_message=SystemMessage(f"{request.system_prompt or ''}\n\n{summary}".strip()))

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        return handler(self._with(request, self.beliefs.briefing()))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
        return await handler(self._with(request, await asyncio.to_thread(self.beliefs.briefing)))


def belief_tools(beliefs: BeliefTools) -> list[BaseTool]:
    """The core's belief tools as LangChain tools (bad input comes back as an ``error: ...`` reply)."""
    return [_tool(beliefs, spec) for spec in beliefs.specs]


def _tool(beliefs: BeliefTools, spec: ToolSpec) -> BaseTool:
    run, arun = beliefs.functions(spec.name)
    return StructuredTool.from_function(func=run, coroutine=arun, name=spec.name, description=spec.description,
                                        args_schema=spec.schema, handle_validation_error=validation_message)
