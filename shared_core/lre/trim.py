"""``trim``: keep a chat history inside a token budget without dropping load-bearing turns."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any, Literal, Protocol, TypeVar

import numpy as np

from shared_core.lre.budget import select
from shared_core.lre.scorer import Scorer
from shared_core.lre.tokens import TokenCounter, count_tokens
from shared_core.lre.units import AsMessage, LREInputError, PinnedSpec, Unit, units_from_messages

T = TypeVar("T")


class UnitScorer(Protocol):
    """Anything that scores the units of one history (a :class:`Scorer`, or a baseline)."""

    def score_units(self, units: Sequence[Unit]) -> np.ndarray: ...


class BudgetTooSmallError(LREInputError):
    """The pinned units plus the recent window alone exceed the budget (with ``on_overflow="raise"``)."""


def _check_int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise LREInputError(f"{name} must be an int, got {value!r}")
    if value < 0:
        raise LREInputError(f"{name} must be >= 0, got {value!r}")
    return int(value)


def _columns(units: Sequence[Unit]) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[str, ...], tuple[str, ...]]:
    """Tokens, live (not an orphan) and pinned flags, texts and kinds of every unit, from one
    transposition of the unit tuples (C speed; this runs on every trim)."""
    if not units:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=bool), np.zeros(0, dtype=bool), (), ()
    _, _, _, texts, tokens, kinds, pinned = zip(*units)
    live = np.ones(len(units), dtype=bool)
    if "orphan" in kinds:
        live[[i for i, k in enumerate(kinds) if k == "orphan"]] = False
    return np.array(tokens, dtype=np.int64), live, np.array(pinned, dtype=bool), texts, kinds


def required_units(units: Sequence[Unit], keep_last: int) -> np.ndarray:
    """Mask of units kept unconditionally: pinned ones and the last ``keep_last`` (orphans excluded)."""
    _, live, pinned, _, _ = _columns(units)
    return _required(live, pinned, keep_last)


def _required(live: np.ndarray, pinned: np.ndarray, keep_last: int) -> np.ndarray:
    keep = pinned & live
    if keep_last:
        keep[np.flatnonzero(live)[-keep_last:]] = True
    return keep


def trim(
    messages: Sequence[T],
    budget: int,
    *,
    keep_last: int = 5,
    pinned: PinnedSpec = None,
    token_counter: TokenCounter = count_tokens,
    scorer: UnitScorer | None = None,
    as_message: AsMessage | None = None,
    on_overflow: Literal["keep", "raise"] = "keep",
) -> list[T]:
    """Return the messages to send: a subset of ``messages`` within ``budget`` tokens.

    - The last ``keep_last`` units and every pinned unit (system messages and messages marked
      ``"pinned": True`` by default; see :func:`units_from_messages` for ``pinned``) are always kept.
    - Among older units, those maximising the summed scorer probability within the remaining budget
      are kept (exact knapsack or greedy by density, see :mod:`shared_core.lre.budget`).
    - An assistant message with tool calls and its tool results are kept or dropped together; tool
      results with no preceding call (possible only at the very start) are always dropped, so the
      output never starts on, nor contains, an orphan tool result.
    - Output: the original objects (same identity), in their original order.

    Budget too small: if the pinned units plus the recent window alone cost more than ``budget``,
    ``on_overflow="keep"`` (default) returns exactly those units, which then exceed the budget (an
    agent cannot continue coherently without its latest turns and instructions, and a caller can
    detect the overflow by counting); ``on_overflow="raise"`` raises :class:`BudgetTooSmallError`
    naming the budget and the minimum it needs. Otherwise the budget is never exceeded.

    Speed: a cold trim featurises every unit (a history that fits the budget is not scored at all).
    With numba installed (``tarl-memory[fast]``, :mod:`shared_core.lre.kernel`) that takes ~3.6 ms
    CPU for 1,000 LoCoMo messages on a loaded 2-core machine, 1.9-2.0x ``trim_messages``; with numpy
    alone ~5.6 ms, ~3.1x (``tarl bench lre``). In an agent loop pass one
    :class:`~shared_core.lre.stream.StreamingScorer` per conversation as ``scorer``: messages it has
    seen (the same objects) are neither regrouped nor featurised again, so the next trim costs about
    what ``trim_messages`` does (same result).

    Tokens are counted per message with ``token_counter`` plus a small per-message overhead
    (:data:`~shared_core.lre.tokens.MESSAGE_OVERHEAD`); the default counter needs no download.
    Messages are mappings ``{"role", "content", "tool_calls"?, "tool_call_id"?, "pinned"?}`` or any
    objects with ``as_message`` turning each into such a mapping.
    """
    budget = _check_int("budget", budget)
    keep_last = _check_int("keep_last", keep_last)
    if on_overflow not in ("keep", "raise"):
        raise LREInputError(f"on_overflow must be 'keep' or 'raise', got {on_overflow!r}")
    cached = getattr(scorer, "units", None) if pinned is None else None
    if cached is not None:  # a StreamingScorer: unit grouping cached by message identity
        units = cached(messages, as_message=as_message, token_counter=token_counter)
    else:
        units = units_from_messages(messages, as_message=as_message, token_counter=token_counter, pinned=pinned)
    kept = select_units(units, budget, keep_last=keep_last, scorer=scorer, on_overflow=on_overflow)
    if kept.all():
        return list(messages)
    # Units partition the messages in order: expand the unit mask to a message mask.
    if len(units) == len(messages):  # one message per unit (no tool calls)
        return list(compress(messages, kept.tolist()))
    return list(compress(messages, np.repeat(kept, [u.stop - u.start for u in units]).tolist()))


def select_units(
    units: Sequence[Unit],
    budget: int,
    *,
    keep_last: int = 5,
    scorer: UnitScorer | None = None,
    on_overflow: Literal["keep", "raise"] = "keep",
) -> np.ndarray:
    """Mask of the units :func:`trim` keeps (exposed for adapters that already hold units)."""
    observe = getattr(scorer, "observe", None)
    if observe is not None:  # a recorder (learning from own logs) sees every history, scored or not
        observe(units)
    tokens, live, pinned, texts, kinds = _columns(units)
    if tokens[live].sum() <= budget:
        return live
    required = _required(live, pinned, keep_last)
    need = int(tokens[required].sum())
    if need > budget:
        if on_overflow == "raise":
            raise BudgetTooSmallError(
                f"budget={budget} is smaller than the pinned units plus the last {keep_last} units "
                f"({need} tokens); raise the budget or lower keep_last"
            )
        return required
    candidates = np.flatnonzero(live & ~required)
    if len(candidates) == 0:
        return required
    # Causal features: scoring the prefix up to the last candidate gives the same scores as scoring all.
    upto = int(candidates[-1]) + 1
    scorer = scorer or Scorer.default()
    if getattr(type(scorer), "score_units", None) is Scorer.score_units:  # a plain Scorer: the columns at hand
        p = scorer.score_texts(texts[:upto], kinds[:upto])
    else:
        p = scorer.score_units(units[:upto])
    chosen = select(tokens[candidates], p[candidates], budget - need)
    kept = required.copy()
    kept[candidates[chosen]] = True
    return kept
