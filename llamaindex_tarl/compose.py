"""What ``TarlMemory.get`` returns, put together as LlamaIndex's ``Memory`` does it: the history kept within
its budget (LRE instead of FIFO, the latest turn always whole), other ``memory_blocks`` rendered with
``Memory``'s template and inserted by ``insert_method``.

Kept out of ``memory.py`` so that the memory class stays the translation layer; nothing here decides
what is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.llms.types import ChatMessage, TextBlock
from llama_index.core.memory import BaseMemoryBlock, InsertMethod
from llama_index.core.memory.memory import DEFAULT_MEMORY_BLOCKS_TEMPLATE

from shared_core import Hit, TarlError
from shared_core.lre import MESSAGE_OVERHEAD, BudgetTooSmallError, count_tokens, trim

from .block import render
from .messages import as_message, role_of, text_of


def latest_turn_start(history: Sequence[ChatMessage]) -> int:
    """Index of the latest user message (0 when there is none): the turn that is always kept whole."""
    return next((i for i in range(len(history) - 1, -1, -1) if role_of(history[i]) == "user"), 0)


def keep_within(history: list[ChatMessage], budget: int, keep_last: int,
                trim: Callable[..., list[ChatMessage]]) -> list[ChatMessage]:
    """``trim`` (the core's LRE trim) under ``Memory``'s guarantees: the latest turn (from the latest user
    message on) is always kept whole, even over ``budget`` (``Memory`` never flushes it); the ``keep_last``
    units are kept only while they fit (fewer when they do not: the budget is a limit, not a wish); the
    result never starts on an assistant or tool message."""
    floor = sum(role_of(m) != "tool" for m in history[latest_turn_start(history):])   # LRE units: a tool
    # result belongs to the call before it
    keep = max(keep_last, floor)
    while True:
        try:
            kept = trim(history, budget, keep_last=keep, on_overflow="raise")
            break
        except BudgetTooSmallError:
            if keep <= floor:
                kept = trim(history, budget, keep_last=floor, on_overflow="keep")
                break
            keep -= 1
    first = next((i for i, m in enumerate(kept) if role_of(m) != "system"), len(kept))
    start = next((i for i in range(first, len(kept)) if role_of(kept[i]) == "user"), first)
    return kept[:first] + kept[start:]


MEMORY_HEADER = "Long-term memory about the user (most relevant first):"


def check_initial(initial_token_count: Any, token_limit: int) -> None:
    """``Memory``'s check of a caller's ``initial_token_count``, as a ``TarlError`` naming the field."""
    if not isinstance(initial_token_count, int) or initial_token_count < 0:
        raise TarlError("initial_token_count", initial_token_count, "must be a non-negative integer")
    if initial_token_count > token_limit:
        raise TarlError("initial_token_count", initial_token_count, f"exceeds token_limit={token_limit}")


def memories_cost(lines: str, token_counter: Callable[[str], int]) -> int:
    """Tokens of the memories' message (its rendered ``lines``; none cost nothing)."""
    return token_counter(f"{MEMORY_HEADER}\n{lines}") + MESSAGE_OVERHEAD if lines else 0


def most_relevant_within(hits: Sequence[Hit], history: Sequence[ChatMessage], room: int,
                         token_counter: Callable[[str], int]) -> tuple[list[Hit], int]:
    """The leading ``hits`` (most relevant first) whose message fits in ``room`` tokens beside the latest
    turn (always kept whole), and that message's cost. Why: the history yielded to the memories but the memories to nothing, so
    three long memories made ``get`` return 78 tokens under ``token_limit=40``; ``Memory`` cuts its blocks
    to the limit and ``ChatMemoryBuffer`` its history."""
    room -= sum(token_counter(text_of(m)) + MESSAGE_OVERHEAD for m in history[latest_turn_start(history):])
    kept = list(hits)
    while (cost := memories_cost(render(kept), token_counter)) > room and kept:
        kept.pop()
    return kept, cost


def count(content: Any, token_counter: Callable[[str], int]) -> int:
    """Tokens of a block's content (text, content blocks, chat messages), counted as history is."""
    if isinstance(content, str):
        return token_counter(content)
    total = 0
    for item in content or ():
        if isinstance(item, ChatMessage):
            total += token_counter(text_of(item)) + MESSAGE_OVERHEAD
        else:
            total += token_counter(getattr(item, "text", None) or "")
    return total


async def block_contents(blocks: Sequence[BaseMemoryBlock], history: list[ChatMessage], input: Any,
                         session_id: str, **kwargs: Any) -> dict[str, Any]:
    """Each block's content, read by descending priority as ``Memory`` reads them (a ``str`` input is shown
    to the blocks as the latest user message; empty content is left out; another type is a ValueError)."""
    seen = [*history, ChatMessage(role="user", content=input)] if isinstance(input, str) else history
    out: dict[str, Any] = {}
    for block in sorted(blocks, key=lambda b: -b.priority):
        content = await block.aget(seen, session_id=session_id, **kwargs)
        if not content:
            continue
        if not isinstance(content, (str, list)):
            raise ValueError(f"Invalid content type received from memory block {block.name}: {type(content)}")
        out[block.name] = content
    return out


def unique_names(blocks: list[BaseMemoryBlock]) -> list[BaseMemoryBlock]:
    if len({b.name for b in blocks}) != len(blocks):
        raise ValueError("All memory blocks must have unique names.")
    return blocks


async def truncate(blocks: Sequence[BaseMemoryBlock], contents: dict[str, Any], over: int,
                   token_counter: Callable[[str], int]) -> dict[str, Any]:
    """``Memory``'s truncation, when the blocks plus what else is sent (``over`` tokens beyond the limit
    without them) exceed the limit: blocks are cut (``atruncate``) from the lowest priority number up,
    never a block of priority 0, then dropped whole in the same order, until the excess is gone."""
    excess = over + sum(count(c, token_counter) for c in contents.values())
    out = dict(contents)
    order = [b for b in sorted(blocks, key=lambda b: b.priority) if b.priority != 0 and b.name in out]
    for block in order:
        if excess <= 0:
            return out
        before = count(out[block.name], token_counter)
        cut = await block.atruncate(out[block.name], excess)
        out[block.name] = cut if cut else []
        excess -= before - count(out[block.name], token_counter)
    for block in order:
        if excess <= 0:
            break
        excess -= count(out.pop(block.name), token_counter)
    return out


def insert(history: list[ChatMessage], blocks: Sequence[BaseMemoryBlock], contents: dict[str, Any],
           insert_method: InsertMethod) -> list[ChatMessage]:
    """``Memory``'s insertion: chat-message content goes before the history; text and content blocks are
    rendered with ``Memory``'s template and prepended to the first system message (a new one at the
    start when there is none) or, with ``InsertMethod.USER``, to the latest user message. The messages of
    ``history`` are copied before any is changed: the chat store's messages stay as they were."""
    rendered: list[tuple[str, list[Any]]] = []
    messages: list[ChatMessage] = []
    for block in blocks:
        content = contents.get(block.name)
        if not content:
            continue
        if isinstance(content, list) and isinstance(content[0], ChatMessage):
            messages.extend(content)
        else:
            rendered.append((block.name, [TextBlock(text=content)] if isinstance(content, str) else content))
    result = [*messages, *history]
    if not rendered:
        return result
    formatted = DEFAULT_MEMORY_BLOCKS_TEMPLATE.format_messages(memory_blocks=rendered)
    memory = formatted[0].blocks if formatted else []
    role = "system" if InsertMethod(insert_method) == InsertMethod.SYSTEM else "user"
    found = [i for i, m in enumerate(result) if m.role.value == role]
    if not found:
        result.insert(0 if role == "system" else len(result), ChatMessage(role=role, blocks=memory))
        return result
    i = found[0] if role == "system" else found[-1]
    result[i] = result[i].model_copy(update={"blocks": [*memory, *result[i].blocks]})
    return result


def prepend_to_user(history: list[ChatMessage], text: str) -> list[ChatMessage]:
    """``text`` before the latest user message's content (a copy), as ``InsertMethod.USER`` places blocks."""
    i = latest_turn_start(history)
    if not history or role_of(history[i]) != "user":
        return [*history, ChatMessage(role="user", content=text)]
    merged = history[i].model_copy(update={"blocks": [TextBlock(text=text), *history[i].blocks]})
    return [*history[:i], merged, *history[i + 1:]]


async def feed(blocks: Sequence[BaseMemoryBlock], turn: list[ChatMessage], session_id: str) -> None:
    """Give a closed turn to the other blocks, as ``Memory`` gives them flushed messages (copies: a block
    marks them with the session id)."""
    for block in blocks:
        await block.aput([m.model_copy(deep=True) for m in turn], from_short_term_memory=True, session_id=session_id)


def trim_history(
    messages: Sequence[ChatMessage],
    budget: int,
    *,
    keep_last: int = 4,
    token_counter: Callable[[str], int] = count_tokens,
    scorer: Any = None,
) -> list[ChatMessage]:
    """The messages LRE keeps within ``budget`` tokens, in order: the core's ``trim`` on the core's
    units (``units_from_messages``: the units its scorer was trained on; a tool call and its results
    are one unit, system messages are pinned, the last ``keep_last`` units always stay).

    Tokens are counted as LRE counts them: ``token_counter`` on each message's text (tool calls
    included) plus a fixed per-message overhead.
    """
    return trim(list(messages), budget, keep_last=keep_last, token_counter=token_counter, scorer=scorer,
                as_message=as_message)
