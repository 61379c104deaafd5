"""The belief tools (``shared_core.beliefs.tools``) as LlamaIndex ``FunctionTool``s, and the belief
summary as a memory block."""

from __future__ import annotations

import asyncio
from typing import Any

from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.memory import BaseMemoryBlock
from llama_index.core.tools import FunctionTool
from pydantic import Field, PrivateAttr

from shared_core import MemoryEngine, TarlError
from shared_core.beliefs.briefing import briefing
from shared_core.beliefs.live import LiveView
from shared_core.beliefs.tools import DEFAULT_RULE, BeliefTools, Rule, ToolSpec


def belief_tools(engine: MemoryEngine, namespace: str, *, rule: Rule = DEFAULT_RULE,
                 seed: int | None = None) -> list[FunctionTool]:
    """declare_question, propose_hypothesis, start_experiment, record_result, next_to_test, frontier,
    explain, bound to one namespace (one research project).

    >>> from shared_core import MemoryEngine
    >>> tools = {t.metadata.name: t for t in belief_tools(MemoryEngine.open(), "lab")}
    >>> tools["propose_hypothesis"].call(text="the enzyme is heat-stable", prior=0.7).content
    "H1 proposed: 'the enzyme is heat-stable' [untested]"
    >>> tools["next_to_test"].call().content.split(".")[0]
    "Test H1 next: 'the enzyme is heat-stable'"

    Bad input (unknown id, cycle, prior outside (0, 1]) is answered with ``error: ...``; nothing is written.
    """
    beliefs = BeliefTools(engine, namespace, rule=rule, seed=seed)
    return [_tool(beliefs, spec) for spec in beliefs.specs]


def _tool(beliefs: BeliefTools, spec: ToolSpec) -> FunctionTool:
    run, arun = beliefs.functions(spec.name)
    return FunctionTool.from_defaults(fn=run, async_fn=arun, name=spec.name, description=spec.description,
                                      fn_schema=spec.schema)


class TarlBeliefBlock(BaseMemoryBlock[str]):
    """The belief summary (frontier, established, what the latest result pruned or deduced) as a block of
    ``llama_index.core.memory.Memory``, so every model call sees it.

    >>> from llama_index.core.memory import Memory
    >>> from shared_core import MemoryEngine
    >>> engine = MemoryEngine.open()
    >>> _ = engine.hypothesis("the enzyme is heat-stable", "lab", prior=0.7)
    >>> memory = Memory.from_defaults(session_id="s1", memory_blocks=[TarlBeliefBlock(engine, namespace="lab")],
    ...                               tokenizer_fn=str.split)
    >>> import asyncio
    >>> "H1 'the enzyme is heat-stable' (0.70)" in asyncio.run(memory.aget())[0].content
    True

    The block never takes messages in (``accept_short_term_memory`` is False): beliefs change only
    through the tools.
    """

    name: str = "tarl_beliefs"
    description: str | None = "Hypotheses, frontier and latest consequences from the belief memory."
    namespace: str = Field(default="default", pattern=r"\S")
    accept_short_term_memory: bool = False
    _engine: MemoryEngine = PrivateAttr()
    _live: LiveView | None = PrivateAttr(default=None)

    def __init__(self, engine: MemoryEngine, **data: Any) -> None:
        super().__init__(**data)
        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        self._engine = engine

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        return await asyncio.to_thread(self.summary)

    def summary(self) -> str:
        """The ``<beliefs>`` text (the same the LangChain middleware puts in the system message)."""
        if self._live is None:
            self._live = LiveView(self._engine, self.namespace)
        self._live.refresh()
        return briefing(self._live)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        return None
