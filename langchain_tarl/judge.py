"""``ChatModelJudge``: the agent's own LangChain chat model as the judge memory asks when it is unsure."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage, HumanMessage
from shared_core import TarlError
from shared_core.judging import JSON_REPLY, JudgeAnswer, JudgeRequest

from .structured import Structured


class ChatModelJudge:
    """Any ``BaseChatModel`` as an escalation judge (sync and async): through its structured output, or
    asked for JSON in plain chat when it has none (:mod:`langchain_tarl.structured`).

    .. code-block:: python

        from langchain_tarl import ChatModelJudge, TarlStore

        store = TarlStore.open(judge=ChatModelJudge(model))   # model: the agent's chat model
        d = store.put(("memories", "u1"), "user.home_city", {"text": "I live in Porto"})
        d.decided_by                     # "policy" on most writes; "judge" when the CPU was unsure

    The prompt is the core's one judge prompt (``JudgeRequest.prompt``); the reply is parsed into a
    ``JudgeAnswer``. A reply the schema refuses is handed on as its raw arguments, so the escalating
    policy records it as an invalid answer (and falls back) rather than as an error.
    """

    def __init__(self, model: BaseChatModel) -> None:
        if not isinstance(model, BaseChatModel):
            raise TarlError("model", model, "must be a langchain_core BaseChatModel")
        self.model = model
        self._structured = Structured(model, JudgeAnswer, JSON_REPLY)   # JSON in plain chat without tools

    @staticmethod
    def _messages(request: JudgeRequest) -> list[BaseMessage]:
        return [HumanMessage(request.prompt())]

    def judge(self, request: JudgeRequest) -> Any:
        return self._structured.invoke(self._messages(request))

    async def ajudge(self, request: JudgeRequest) -> Any:
        return await self._structured.ainvoke(self._messages(request))


def as_judge(judge: Any) -> Any:
    """What an adapter's ``judge=`` accepts: a chat model (wrapped in :class:`ChatModelJudge`), any
    judge the core accepts (``judge(request)`` or a callable), or None."""
    return ChatModelJudge(judge) if isinstance(judge, BaseChatModel) else judge
