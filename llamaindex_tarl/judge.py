"""``LLMJudge``: the agent's own LlamaIndex LLM as the judge memory asks when it is unsure."""

from __future__ import annotations

from typing import Any

from llama_index.core.llms import LLM
from llama_index.core.prompts import PromptTemplate

from shared_core import TarlError
from shared_core.judging import JudgeAnswer, JudgeRequest

_TEMPLATE = PromptTemplate("{question}")


class LLMJudge:
    """Any LlamaIndex ``LLM`` as an escalation judge, through ``structured_predict`` /
    ``astructured_predict`` (function calling where the LLM has it, a JSON output parser otherwise).

    >>> from llama_index.core.llms import MockLLM
    >>> judge = LLMJudge(MockLLM())
    >>> type(judge).__name__
    'LLMJudge'

    .. code-block:: python

        memory = TarlMemory.from_defaults(namespace="user:ana", judge=LLMJudge(llm))

    The prompt is the core's one judge prompt (``JudgeRequest.prompt``). A reply that does not parse
    raises here; the escalating policy records that as a fallback to the CPU decision.
    """

    def __init__(self, llm: LLM) -> None:
        if not isinstance(llm, LLM):
            raise TarlError("llm", llm, "must be a llama_index LLM")
        self.llm = llm

    def judge(self, request: JudgeRequest) -> Any:
        return self.llm.structured_predict(JudgeAnswer, _TEMPLATE, question=request.prompt())

    async def ajudge(self, request: JudgeRequest) -> Any:
        return await self.llm.astructured_predict(JudgeAnswer, _TEMPLATE, question=request.prompt())


def as_judge(judge: Any) -> Any:
    """What an adapter's ``judge=`` accepts: a LlamaIndex ``LLM`` (wrapped in :class:`LLMJudge`), any
    judge the core accepts (``judge(request)`` or a callable), or None."""
    return LLMJudge(judge) if isinstance(judge, LLM) else judge
