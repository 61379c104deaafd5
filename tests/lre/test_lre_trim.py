"""trim(): budget, recent window, pinned units, atomic tool calls, verbatim order, bad input."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lre_strategies import histories

from shared_core.lre import (
    BudgetTooSmallError,
    LREInputError,
    UnknownRoleError,
    count_tokens,
    trim,
    units_from_messages,
)
from shared_core.lre.trim import required_units


def _cost(kept: list[dict[str, Any]]) -> int:
    return sum(u.tokens for u in units_from_messages(kept))


def _min_budget(msgs: list[dict[str, Any]], keep_last: int) -> int:
    units = units_from_messages(msgs)
    return sum(u.tokens for u, r in zip(units, required_units(units, keep_last)) if r)


@settings(max_examples=120, deadline=None)
@given(histories(), st.integers(0, 6), st.integers(0, 600))
def test_trim_invariants(msgs: list[dict[str, Any]], keep_last: int, extra: int) -> None:
    budget = _min_budget(msgs, keep_last) + extra
    kept = trim(msgs, budget, keep_last=keep_last)
    # verbatim (same objects) and in the original order
    positions = [next(i for i, m in enumerate(msgs) if m is k) for k in kept]
    assert positions == sorted(positions)
    # the budget is never exceeded
    assert _cost(kept) <= budget
    # recent window and pinned units are kept
    units = units_from_messages(msgs)
    kept_ids = {id(k) for k in kept}
    for u, req in zip(units, required_units(units, keep_last)):
        if req:
            assert all(id(msgs[i]) in kept_ids for i in range(u.start, u.stop))
    # tool calls and results are never split, never orphaned, never first
    for u in units:
        inside = [id(msgs[i]) in kept_ids for i in range(u.start, u.stop)]
        assert all(inside) or not any(inside)
    if kept:
        assert kept[0]["role"] != "tool"
    open_calls: set[str] = set()
    for m in kept:
        if m["role"] == "assistant":
            open_calls = {c["id"] for c in m.get("tool_calls", [])}
        elif m["role"] == "tool":
            assert m["tool_call_id"] in open_calls
        else:
            open_calls = set()


def test_everything_fits_returns_everything() -> None:
    msgs = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]
    assert trim(msgs, 10_000) == msgs


def test_evicts_chit_chat_before_identifiers() -> None:
    msgs: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent."},
                                  {"role": "user", "content": "Refund order ORD-48213, token x9F3kQ2mZ7pL0sYtB4"}]
    for i in range(40):
        msgs.append({"role": "assistant" if i % 2 else "user", "content": "ok, sounds good, thanks!"})
    budget = _min_budget(msgs, 5) + 30
    kept = trim(msgs, budget)
    assert msgs[1] in kept


def test_leading_orphan_tool_results_are_dropped() -> None:
    msgs = [{"role": "tool", "content": "stale result", "tool_call_id": "c0"},
            {"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}]
    assert trim(msgs, 1000) == msgs[1:]
    assert trim(msgs, 1000, keep_last=0) == msgs[1:]


def test_budget_smaller_than_required_keeps_required_or_raises() -> None:
    msgs = [{"role": "system", "content": "rules " * 50}] + [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message number {i} " * 10} for i in range(12)]
    kept = trim(msgs, 10)
    assert kept == [msgs[0], *msgs[-5:]]
    with pytest.raises(BudgetTooSmallError, match="budget=10"):
        trim(msgs, 10, on_overflow="raise")


@pytest.mark.parametrize("bad", [-1, -100])
def test_negative_budget_is_rejected(bad: int) -> None:
    with pytest.raises(LREInputError, match="budget"):
        trim([{"role": "user", "content": "x"}], bad)


@pytest.mark.parametrize("bad", [1.5, "10", True, None])
def test_non_int_budget_is_rejected(bad: Any) -> None:
    with pytest.raises(LREInputError, match="budget"):
        trim([{"role": "user", "content": "x"}], bad)


def test_negative_keep_last_is_rejected() -> None:
    with pytest.raises(LREInputError, match="keep_last"):
        trim([{"role": "user", "content": "x"}], 10, keep_last=-1)


def test_unknown_role_names_index_and_role() -> None:
    msgs = [{"role": "user", "content": "a"}, {"role": "human", "content": "b"}]
    with pytest.raises(UnknownRoleError, match=r"messages\[1\]\.role.*'human'"):
        trim(msgs, 100)


def test_non_mapping_message_without_adapter_is_rejected() -> None:
    with pytest.raises(LREInputError, match=r"messages\[0\]"):
        trim(["just a string"], 100)


def test_bad_content_type_is_rejected() -> None:
    with pytest.raises(LREInputError, match=r"messages\[0\]\.content"):
        trim([{"role": "user", "content": 42}], 100)


class Obj:
    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text


def test_objects_with_as_message_are_returned_as_is() -> None:
    msgs = [Obj("system", "sys")] + [Obj("user" if i % 2 == 0 else "assistant", f"turn {i} " * 20) for i in range(30)]
    kept = trim(msgs, 200, as_message=lambda o: {"role": o.kind, "content": o.text})
    assert kept[0] is msgs[0]
    assert all(any(k is m for m in msgs) for k in kept)
    assert kept[-5:] == msgs[-5:]


def test_pinned_by_index_and_callable() -> None:
    msgs = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} " * 20} for i in range(30)]
    kept = trim(msgs, _min_budget(msgs, 5) + 200, pinned=[3])
    assert msgs[3] in kept
    kept = trim(msgs, _min_budget(msgs, 5) + 200, pinned=lambda m, i: "turn 7 " in m.content)
    assert msgs[7] in kept


def test_custom_token_counter_is_used() -> None:
    msgs = [{"role": "user", "content": "x"} for _ in range(10)]
    kept = trim(msgs, 10 * (1 + 3), token_counter=lambda t: 1, keep_last=0)
    assert len(kept) == 10
    assert len(trim(msgs, 5 * 4, token_counter=lambda t: 1, keep_last=0)) == 5


def test_default_counter_is_offline_and_monotone() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") <= count_tokens("hello world, how are you doing today?")
    assert count_tokens("a " * 100) >= 100


@settings(max_examples=50, deadline=None)
@given(histories())
def test_inlined_default_counter_matches_count_tokens(msgs: list[dict[str, Any]]) -> None:
    fast = units_from_messages(msgs)
    slow = units_from_messages(msgs, token_counter=lambda t: count_tokens(t))
    assert [u.tokens for u in fast] == [u.tokens for u in slow]


def test_system_stays_pinned_when_more_is_pinned() -> None:
    msgs = [{"role": "system", "content": "rules"}] + [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"turn {i} " * 20} for i in range(30)]
    for spec in ([4], lambda m, i: i == 4):
        kept = trim(msgs, _min_budget(msgs, 5) + 60, pinned=spec)
        assert msgs[0] in kept and msgs[4] in kept
