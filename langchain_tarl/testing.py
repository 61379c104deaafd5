"""Offline fakes for tests and examples: a scripted tool-calling chat model that records its prompts.

LangChain's stock fakes refuse ``bind_tools`` (so ``create_agent`` with tools fails on them) and drop
tool calls when streaming; this one does neither. Not imported by ``langchain_tarl`` itself.
"""

from __future__ import annotations

from typing import Any

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage


class ScriptedToolModel(GenericFakeChatModel):
    """``create_agent`` binds tools (stock fakes refuse); replies are scripted, so binding is a no-op."""

    prompts: list[list[BaseMessage]] = []

    def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
        return self

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def scripted(*replies: AIMessage) -> ScriptedToolModel:
    return ScriptedToolModel(disable_streaming=True, messages=iter(replies))


def call(name: str, call_id: str, **args: Any) -> AIMessage:
    return AIMessage("", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}])
