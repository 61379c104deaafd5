"""Translation between LlamaIndex ``ChatMessage`` objects and what the core reads: plain text and turns.

A *turn* is a user message and everything that answers it (assistant replies, tool calls, tool
results) up to the answer that calls no tool: a closed turn is what TARL receives as claims. What LRE
keeps or evicts are the core's units (:func:`as_message` feeds ``shared_core.lre``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole, ToolCallBlock
from llama_index.core.storage.chat_store.base_db import MessageStatus

from shared_core import TarlError

_ROLE = {
    MessageRole.SYSTEM: "system", MessageRole.DEVELOPER: "system", MessageRole.USER: "user",
    MessageRole.ASSISTANT: "assistant", MessageRole.CHATBOT: "assistant", MessageRole.MODEL: "assistant",
    MessageRole.TOOL: "tool", MessageRole.FUNCTION: "tool",
}


def role_of(message: ChatMessage) -> str:
    """One of system / user / assistant / tool (LlamaIndex has synonyms for several of them)."""
    return _ROLE[MessageRole(message.role)]


def tool_calls_of(message: ChatMessage) -> list[str]:
    """Tool calls rendered as ``name(arguments)``: from ``ToolCallBlock``s (current LlamaIndex) or from
    ``additional_kwargs["tool_calls"]`` (OpenAI-style integrations)."""
    calls = [f"{b.tool_name}({_args(b.tool_kwargs)})" for b in message.blocks if isinstance(b, ToolCallBlock)]
    for raw in message.additional_kwargs.get("tool_calls") or ():
        fn = _get(raw, "function") or raw
        calls.append(f"{_get(fn, 'name') or ''}({_args(_get(fn, 'arguments') or '')})")
    return calls


def as_message(message: ChatMessage) -> dict[str, Any]:
    """The core's neutral message (``shared_core.lre.units``): what LRE cuts into units and scores, the
    same way for LlamaIndex as for LangChain."""
    out: dict[str, Any] = {"role": role_of(message), "content": message.content or ""}
    calls = [{"id": b.tool_call_id or "", "name": b.tool_name, "args": b.tool_kwargs}
             for b in message.blocks if isinstance(b, ToolCallBlock)]
    calls += [dict(raw) if isinstance(raw, dict) else {"id": _get(raw, "id") or "", "function": _get(raw, "function")}
              for raw in message.additional_kwargs.get("tool_calls") or ()]
    if calls and out["role"] == "assistant":
        out["tool_calls"] = calls
    if message.additional_kwargs.get("tool_call_id") is not None:
        out["tool_call_id"] = message.additional_kwargs["tool_call_id"]
    return out


def text_of(message: ChatMessage) -> str:
    """Everything in the message that costs tokens and may carry a detail: text plus tool calls."""
    parts = [message.content or "", *tool_calls_of(message)]
    return "\n".join(p for p in parts if p)


def ends_turn(message: ChatMessage) -> bool:
    """An assistant message that calls no tool is the answer that closes a turn."""
    return role_of(message) == "assistant" and not tool_calls_of(message)


def last_turn(messages: Sequence[ChatMessage]) -> list[ChatMessage]:
    """The messages after the previous closed turn, up to and including the last message."""
    start = len(messages) - 1
    while start > 0 and not ends_turn(messages[start - 1]):
        start -= 1
    return list(messages[max(start, 0):])


def query_of(messages: Sequence[ChatMessage] | None, input: Any = None) -> str | None:
    """What the conversation is asking about now: an explicit input, else the latest user message."""
    if isinstance(input, ChatMessage):
        input = input.content
    if isinstance(input, str) and input.strip():
        return input
    for m in reversed(messages or ()):
        if role_of(m) == "user" and (m.content or "").strip():
            return m.content
    return None


def _get(obj: Any, key: str) -> Any:
    return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)


def _args(args: Any) -> str:
    return args if isinstance(args, str) else json.dumps(args, sort_keys=True, default=str)


def archived(status: Any) -> bool:
    """``MessageStatus.ARCHIVED`` (``Memory``'s flushed messages; ``TarlMemory`` archives none)."""
    return status is not None and MessageStatus(status) == MessageStatus.ARCHIVED


def check_message(message: Any, field: str = "message") -> ChatMessage:
    if not isinstance(message, ChatMessage):
        raise TarlError(field, message, "must be a llama_index ChatMessage")
    return message


def check_messages(messages: Any) -> list[ChatMessage]:
    if isinstance(messages, (str, bytes, ChatMessage)) or not isinstance(messages, Sequence):
        raise TarlError("messages", messages, "must be a list of llama_index ChatMessages")
    return [check_message(m, f"messages[{i}]") for i, m in enumerate(messages)]
