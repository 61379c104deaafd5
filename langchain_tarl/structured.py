"""A structured reply from any LangChain chat model: through its structured output where it has one, as
JSON asked for in plain chat where it has none.

Why: ``with_structured_output`` needs ``bind_tools``, which ``BaseChatModel`` leaves unimplemented, so a
chat model without tool calling (LangChain's own ``GenericFakeChatModel`` and ``FakeMessagesListChatModel``
as they ship) raised ``NotImplementedError`` from ``TarlStore.open(judge=...)`` and from the middleware's
``judge=``/``extractor=``, and could not serve at all. LlamaIndex's ``structured_predict`` falls back to a
JSON output parser the same way; the core's parsers read JSON in a code fence or a sentence.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage

from .messages import structured_reply


class Structured:
    """``model`` asked for ``schema``: ``invoke``/``ainvoke`` return the parsed object, a tool call's
    arguments or the reply's text (see :func:`~langchain_tarl.messages.structured_reply`); ``plain`` says
    the model has no structured output, so ``json_reply`` (the core's instruction) ends the first message."""

    def __init__(self, model: BaseChatModel, schema: type, json_reply: str) -> None:
        try:
            self.runnable: Any = model.with_structured_output(schema, include_raw=True)
            self.plain = False
        except NotImplementedError:
            self.runnable, self.plain = model, True
        self.json_reply = json_reply

    def _asked(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        if not self.plain or not messages or not isinstance(messages[0].content, str):
            return messages
        first = messages[0].model_copy(update={"content": messages[0].content + self.json_reply})
        return [first, *messages[1:]]

    def _read(self, result: Any) -> Any:
        return result.text if self.plain and isinstance(result, BaseMessage) else structured_reply(result)

    def invoke(self, messages: list[BaseMessage]) -> Any:
        return self._read(self.runnable.invoke(self._asked(messages)))

    async def ainvoke(self, messages: list[BaseMessage]) -> Any:
        return self._read(await self.runnable.ainvoke(self._asked(messages)))
