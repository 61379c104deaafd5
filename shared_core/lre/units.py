"""Units: the atoms LRE keeps or evicts.

A unit is one turn, except that an assistant message carrying tool calls and the tool results that
follow it form a single atomic unit: keeping one without the other produces a history that chat APIs
reject (an orphan tool result) or that misleads the model (a call whose result vanished).

Messages arrive in a neutral form so that both adapters can use the core: a mapping
``{"role": "system"|"user"|"assistant"|"tool", "content": str, "tool_calls": [{"id": ...}],
"tool_call_id": str, "pinned": bool}`` (only ``role`` and ``content`` are required), or any object plus an
``as_message`` callable that turns it into such a mapping.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from shared_core.lre.tokens import MESSAGE_OVERHEAD, TokenCounter, count_tokens

ROLES = frozenset({"system", "user", "assistant", "tool"})

UnitKind = Literal["system", "turn", "tool_call", "orphan"]
AsMessage: TypeAlias = Callable[[Any], Mapping[str, Any]]
PinnedSpec: TypeAlias = Callable[["Message", int], bool] | Collection[int] | None


class LREInputError(ValueError):
    """Bad input to LRE; the message names the field (and index) and the bad value."""


class UnknownRoleError(LREInputError):
    """A message has a role outside ``system``/``user``/``assistant``/``tool``."""


@dataclass(frozen=True, slots=True)
class Message:
    """The neutral view of one input message (the original object is never modified)."""

    role: str
    content: str
    tool_call_ids: tuple[str, ...] = ()
    tool_call_id: str | None = None
    pinned: bool = False
    tool_text: str = ""
    """Rendered tool calls (name and arguments): they cost tokens and often carry identifiers."""

    @property
    def text(self) -> str:
        return f"{self.content}\n{self.tool_text}" if self.tool_text else self.content


@dataclass(frozen=True, slots=True)
class Unit:
    """A run of consecutive messages ``messages[start:stop]`` that is kept or evicted as a whole."""

    start: int
    stop: int
    role: str
    text: str
    tokens: int
    kind: UnitKind = "turn"
    pinned: bool = False


def _content_text(content: Any, index: int) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence) and not isinstance(content, (bytes, bytearray)):
        parts: list[str] = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    raise LREInputError(
        f"messages[{index}].content must be a string or a list of text parts, got {type(content).__name__}"
    )


def _render_tool_calls(calls: Any, index: int) -> tuple[tuple[str, ...], str]:
    if not calls:
        return (), ""
    if not isinstance(calls, Sequence) or isinstance(calls, (str, bytes)):
        raise LREInputError(f"messages[{index}].tool_calls must be a list of mappings, got {calls!r:.80}")
    ids: list[str] = []
    rendered: list[str] = []
    for call in calls:
        if not isinstance(call, Mapping):
            raise LREInputError(f"messages[{index}].tool_calls items must be mappings, got {call!r:.80}")
        ids.append(str(call.get("id", "")))
        fn = call.get("function") if isinstance(call.get("function"), Mapping) else call
        name, args = fn.get("name", ""), fn.get("args", fn.get("arguments", ""))
        if not isinstance(args, str):
            args = json.dumps(args, default=str, sort_keys=True)
        if name or args:
            rendered.append(f"{name}({args})")
    return tuple(ids), "\n".join(rendered)


def normalize_message(raw: Any, index: int, as_message: AsMessage | None = None) -> Message:
    """Validate one input message and return its neutral view."""
    data = as_message(raw) if as_message is not None else raw
    if not isinstance(data, Mapping):
        raise LREInputError(
            f"messages[{index}] must be a mapping with 'role' and 'content' (or pass as_message=...), "
            f"got {type(raw).__name__}"
        )
    role = data.get("role")
    if role not in ROLES:
        raise UnknownRoleError(
            f"messages[{index}].role must be one of {sorted(ROLES)}, got {role!r}"
        )
    ids, tool_text = _render_tool_calls(data.get("tool_calls"), index) if role == "assistant" else ((), "")
    call_id = data.get("tool_call_id")
    return Message(
        role=role,
        content=_content_text(data.get("content"), index),
        tool_call_ids=ids,
        tool_call_id=str(call_id) if call_id is not None else None,
        pinned=bool(data.get("pinned", False)),
        tool_text=tool_text,
    )


def _pin_test(pinned: PinnedSpec) -> Callable[[Message, int], bool]:
    if pinned is None:
        return lambda m, i: m.pinned or m.role == "system"
    if callable(pinned):
        return lambda m, i: m.pinned or bool(pinned(m, i))
    indices = frozenset(pinned)
    return lambda m, i: m.pinned or i in indices


def units_from_messages(
    messages: Sequence[Any],
    *,
    as_message: AsMessage | None = None,
    token_counter: TokenCounter = count_tokens,
    pinned: PinnedSpec = None,
) -> list[Unit]:
    """Group messages into units (see the module docstring).

    Grouping rule: a ``tool`` message always joins the unit before it, so a tool result can never be
    separated from the call that produced it. ``tool`` messages before any other message have no call
    to join; they form an ``"orphan"`` unit that :func:`~shared_core.lre.trim.trim` never keeps.
    ``pinned``: ``None`` pins system messages and messages with ``"pinned": True``; a callable
    ``(message, index) -> bool`` or a collection of message indices pins those as well (a unit is pinned
    when any of its messages is).
    """
    is_pinned = _pin_test(pinned)
    units: list[Unit] = []
    texts: list[str] = []
    start, tokens, pin = 0, 0, False
    role: str | None = None
    kind: UnitKind = "turn"

    def close(stop: int) -> None:
        if role is not None:
            units.append(Unit(start, stop, role, "\n".join(texts), tokens, kind, pin))

    for i, raw in enumerate(messages):
        m = normalize_message(raw, i, as_message)
        cost = token_counter(m.text) + MESSAGE_OVERHEAD
        if m.role == "tool" and role is not None:
            texts.append(m.text)
            tokens += cost
            pin = pin or is_pinned(m, i)
            continue
        close(i)
        start, role, texts, tokens, pin = i, m.role, [m.text], cost, is_pinned(m, i)
        if m.role == "tool":
            kind = "orphan"
        elif m.role == "system":
            kind = "system"
        else:
            kind = "tool_call" if m.tool_call_ids else "turn"
    close(len(messages))
    return units
