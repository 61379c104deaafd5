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
from itertools import repeat
from typing import Any, Literal, NamedTuple, TypeAlias

import numpy as np

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


class Unit(NamedTuple):
    """A run of consecutive messages ``messages[start:stop]`` that is kept or evicted as a whole.

    (A named tuple: a 1,000-message trim builds ~1,000 of them, and tuples are the cheapest to build.)
    """

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


_TURN_ROLES = frozenset({"system", "user", "assistant"})
_KINDS: dict[str, UnitKind] = {"system": "system", "user": "turn", "assistant": "turn"}


def _plain_units(messages: Sequence[Any]) -> list[Unit] | None:
    """The units of a history of plain dict turns (string content, no tool calls): one unit per
    message, built column by column at C speed; ``None`` if any message is not such a turn.

    Why: grouping runs on every trim, and chat histories are mostly exactly this; the per-message loop
    below costs about half of what ``trim_messages`` spends on the whole history."""
    if set(map(type, messages)) - {dict}:  # map, set, repeat: C-speed passes over the messages
        return None
    roles = list(map(dict.get, messages, repeat("role")))
    texts = list(map(dict.get, messages, repeat("content")))
    try:
        if (not _TURN_ROLES.issuperset(roles) or set(map(type, texts)) - {str}
                or any(map(dict.get, messages, repeat("tool_calls")))):
            return None
    except TypeError:  # an unhashable role: the loop below reports it
        return None
    pins = list(map("system".__eq__, roles))
    if any(map(dict.get, messages, repeat("pinned"))):
        pins = [p or bool(m.get("pinned", False)) for m, p in zip(messages, pins)]
    kinds = list(map(_KINDS.__getitem__, roles))
    n = len(messages)
    chars = np.fromiter(map(len, texts), dtype=np.int64, count=n)
    spaces = np.fromiter(map(str.count, texts, repeat(" ")), dtype=np.int64, count=n)
    # count_tokens, vectorised: max(ceil(chars / 4), ceil(words * 4 / 3)) (0 words for an empty text)
    costs = (np.maximum((chars + 3) // 4, np.where(chars > 0, ((spaces + 1) * 4 + 2) // 3, 0)) + MESSAGE_OVERHEAD)
    rows = zip(range(n), range(1, n + 1), roles, texts, costs.tolist(), kinds, pins)
    return list(map(tuple.__new__, repeat(Unit, n), rows))


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
    Pinned: system messages and messages with ``"pinned": True`` always; ``pinned`` (a callable
    ``(message, index) -> bool`` or a collection of message indices) pins more (a unit is pinned when
    any of its messages is).
    """
    if as_message is None and pinned is None and token_counter is count_tokens:
        plain = _plain_units(messages)
        if plain is not None:
            return plain
    pin_fn = pinned if callable(pinned) else None
    pin_set = frozenset(pinned) if pinned is not None and pin_fn is None else frozenset()
    units: list[Unit] = []
    texts: list[str] = []
    start, tokens, pin = 0, 0, False
    role: str | None = None
    kind: UnitKind = "turn"
    overhead = MESSAGE_OVERHEAD
    default_counter = token_counter is count_tokens

    for i, raw in enumerate(messages):
        data = as_message(raw) if as_message is not None else raw
        # Fast path (inlined: this loop runs once per message on every trim): a plain dict turn.
        if (pin_fn is None and type(data) is dict and not data.get("tool_calls")
                and type(text := data.get("content")) is str and (m_role := data.get("role")) in _TURN_ROLES):
            m_pin = bool(data.get("pinned", False))
            has_calls = False
        else:
            m = normalize_message(data, i)
            m_role, text, m_pin, has_calls = m.role, m.text, m.pinned, bool(m.tool_call_ids)
            if pin_fn is not None and pin_fn(m, i):
                m_pin = True
        if m_role == "system" or (pin_set and i in pin_set):
            m_pin = True
        if default_counter:  # count_tokens, inlined: this loop is the floor of every trim's cost
            by_words = ((text.count(" ") + 1) * 4 + 2) // 3 if text else 0
            by_chars = (len(text) + 3) // 4
            cost = (by_chars if by_chars > by_words else by_words) + overhead
        else:
            cost = token_counter(text) + overhead
        if m_role == "tool" and role is not None:
            texts.append(text)
            tokens += cost
            pin = pin or m_pin
            continue
        if role is not None:
            units.append(Unit(start, i, role, texts[0] if len(texts) == 1 else "\n".join(texts), tokens, kind, pin))
        start, role, texts, tokens, pin = i, m_role, [text], cost, m_pin
        if m_role == "tool":
            kind = "orphan"
        elif m_role == "system":
            kind = "system"
        else:
            kind = "tool_call" if has_calls else "turn"
    if role is not None:
        units.append(Unit(start, len(messages), role, texts[0] if len(texts) == 1 else "\n".join(texts), tokens, kind, pin))
    return units
