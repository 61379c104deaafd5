"""``LRETrimMiddleware``: the model sees a history within a token budget, chosen by LRE."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
import threading
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import BaseMessage, RemoveMessage
from langgraph.config import get_config
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from shared_core import TarlError

from .messages import as_message

MAX_STREAMS = 256
"""Conversations whose scoring state is kept (a dropped one is just scored from scratch next time)."""


def _thread_id() -> Any:
    try:
        return get_config().get("configurable", {}).get("thread_id")
    except RuntimeError:                            # called outside a graph run
        return None


def _is_human(message: BaseMessage) -> bool:
    return as_message(message)["role"] == "user"


def _on_a_human_turn(kept: list[BaseMessage], messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """A trimmed ``kept`` from its first human message on, as ``trim_messages(start_on="human")``
    recommends: providers refuse or misread a history that opens with an assistant turn or a tool
    result. LRE keeps a tool call with its results, and a human message ends a unit, so dropping up
    to one never separates them. If no human message was kept (a tool loop longer than the recent
    window), the latest one opens the view, then the kept messages after it: the question those
    rounds answer, one message over budget as LRE's recent window may be."""
    first = next((i for i, m in enumerate(kept) if _is_human(m)), None)
    if first is not None:
        return kept[first:]
    asked = next((i for i in range(len(messages) - 1, -1, -1) if _is_human(messages[i])), None)
    if asked is None:
        return kept
    after = {id(m) for m in messages[asked + 1:]}
    return [messages[asked], *(m for m in kept if id(m) in after)]


class LRETrimMiddleware(AgentMiddleware):
    """Trim what the model sees to ``budget`` tokens, keeping the load-bearing turns (LRE).

    .. code-block:: python

        from langchain.agents import create_agent
        from langchain_tarl import LRETrimMiddleware

        agent = create_agent(model, tools, middleware=[LRETrimMiddleware(budget=2048)],
                             checkpointer=InMemorySaver())
        agent.invoke({"messages": [("user", "my token is tk-4471")]}, {"configurable": {"thread_id": "t"}})

    Unlike FIFO trimming (``trim_messages``), old turns are not dropped oldest-first: LRE scores every
    older turn for how likely it is to be needed later (identifiers, numbers, errors, ...) and keeps the
    best ones that fit, plus the last ``keep_last`` turns and the system message, verbatim and in order.
    An assistant tool call and its results are kept or dropped together, so the model never sees an
    orphan tool message, and a trimmed history starts on a human message (as ``trim_messages``'
    ``start_on="human"``), in both modes. The system message counts towards the budget.

    By default the trim is a view: the checkpointed history keeps everything, so a later, larger
    budget (or another model) can still see it. ``rewrite_history=True`` instead replaces the saved
    history with the kept messages (``RemoveMessage``) before each model call; the saved history holds
    no system prompt, so there the budget covers the conversation only.
    ``token_counter`` counts one message's text (default: LRE's offline approximation); ``scorer`` is
    an LRE ``Scorer`` (default: the shipped one) or any unit scorer.
    """

    def __init__(self, budget: int = 2048, *, keep_last: int = 5, rewrite_history: bool = False,
                 token_counter: Callable[[str], int] | None = None, scorer: Any = None) -> None:
        super().__init__()
        for field, value in (("budget", budget), ("keep_last", keep_last)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TarlError(field, value, "must be a non-negative integer")
        self.budget, self.keep_last, self.rewrite_history = budget, keep_last, rewrite_history
        self.token_counter, self.scorer = token_counter, scorer
        self._streams: dict[Any, Any] = {}
        self._lock = threading.Lock()

    def trim(self, messages: Sequence[BaseMessage], system: BaseMessage | None = None) -> list[BaseMessage]:
        """The messages to send (originals, in order); ``system`` is pinned and counted, not returned."""
        from shared_core.lre import trim            # numpy scorer, loaded on the first trim only

        with self._lock:                            # a StreamingScorer is stateful: one trim at a time
            return self._trim(trim, messages, system)

    def _stream(self) -> Any:
        """One ``StreamingScorer`` per conversation (thread id), so each turn is scored once; the
        result is the same as scoring from scratch, only faster (least recently used ones dropped)."""
        from shared_core.lre import Scorer, StreamingScorer

        if self.scorer is not None and not isinstance(self.scorer, Scorer):
            return self.scorer                      # a custom unit scorer: used as given
        thread = _thread_id()
        stream = self._streams.pop(thread, None) or StreamingScorer(self.scorer)
        self._streams[thread] = stream
        while len(self._streams) > MAX_STREAMS:
            self._streams.pop(next(iter(self._streams)))
        return stream

    def _trim(self, trim: Callable[..., list[BaseMessage]], messages: Sequence[BaseMessage],
              system: BaseMessage | None) -> list[BaseMessage]:
        kwargs: dict[str, Any] = {"keep_last": self.keep_last, "scorer": self._stream(), "as_message": as_message}
        if self.token_counter is not None:
            kwargs["token_counter"] = self.token_counter
        head = [system] if system is not None else []
        kept = [m for m in trim([*head, *messages], self.budget, **kwargs) if m is not system]
        return kept if len(kept) == len(messages) else _on_a_human_turn(kept, messages)

    def _view(self, request: ModelRequest) -> ModelRequest:
        if self.rewrite_history:
            return request
        kept = self.trim(request.messages, request.system_message)
        return request if len(kept) == len(request.messages) else request.override(messages=kept)

    def wrap_model_call(self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]) -> Any:
        return handler(self._view(request))

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]) -> Any:
        return await handler(self._view(request))

    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        if not self.rewrite_history:
            return None
        messages = list(state["messages"])
        kept = self.trim(messages)
        if len(kept) == len(messages):
            return None
        return {"messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES), *kept]}

    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)
