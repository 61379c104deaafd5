"""LangChain messages in the core's framework-neutral shape (``role``/``content``/``tool_calls``/...)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ChatMessage, HumanMessage, ToolMessage

ROLES = {"human": "user", "ai": "assistant", "system": "system", "developer": "system", "tool": "tool",
         "function": "tool"}


def as_message(message: BaseMessage) -> dict[str, Any]:
    """The neutral mapping LRE reads; the message object itself is never modified."""
    role = message.role if isinstance(message, ChatMessage) else ROLES.get(message.type, message.type)
    out: dict[str, Any] = {"role": ROLES.get(role, role), "content": message.content}
    if isinstance(message, AIMessage) and message.tool_calls:
        out["tool_calls"] = [{"id": c.get("id") or "", "name": c["name"], "args": c["args"]}
                             for c in message.tool_calls]
    if isinstance(message, ToolMessage):
        out["tool_call_id"] = message.tool_call_id
    return out


def structured_reply(result: Any) -> Any:
    """What a ``with_structured_output(..., include_raw=True)`` call answered: the parsed object, else
    the raw reply's first tool call's arguments, else its text (JSON or prose). Why not let the
    structured runnable raise or return None: the core's parsers then say which field was wrong, and a
    reply that carries its answer as JSON text (some providers ignore the tool) is still read."""
    if not isinstance(result, dict) or "raw" not in result:
        return result
    if result.get("parsed") is not None:
        return result["parsed"]
    raw = result["raw"]
    calls = getattr(raw, "tool_calls", None) or []
    if calls:
        return calls[0].get("args", {})
    return raw.text if isinstance(raw, BaseMessage) else raw


def last_user_text(messages: list[BaseMessage]) -> str:
    """The latest human message's text: what recall searches memory for."""
    for m in reversed(messages):
        if isinstance(m, HumanMessage):
            return m.text.strip()
    return ""


def latest_turn(messages: list[BaseMessage]) -> list[BaseMessage]:
    """From the last human message on: the turn an after-run hook reflects on."""
    starts = [i for i, m in enumerate(messages) if isinstance(m, HumanMessage)]
    return messages[starts[-1]:] if starts else messages


def transcript(messages: list[BaseMessage]) -> str:
    """``role: text`` lines, with tool calls, for the claim extractor to read."""
    lines = []
    for m in messages:
        neutral = as_message(m)
        text = m.text.strip()
        calls = " ".join(f"[{c['name']}({c['args']})]" for c in neutral.get("tool_calls", []))
        if text or calls:
            lines.append(f"{neutral['role']}: {' '.join(p for p in (text, calls) if p)}")
    return "\n".join(lines)
