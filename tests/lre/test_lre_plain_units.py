"""The column-wise grouping of plain chat histories gives exactly the units of the per-message loop."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import units_from_messages
from shared_core.lre.tokens import count_tokens

from lre_strategies import histories, texts


def _loop(msgs: list[Any]) -> list[Any]:
    """The general path: another token counter object (same counts) turns the column-wise path off."""
    return units_from_messages(msgs, token_counter=lambda t: count_tokens(t))


plain_turns = st.lists(st.fixed_dictionaries(
    {"role": st.sampled_from(["system", "user", "assistant"]), "content": st.one_of(texts, st.just(""))},
    optional={"pinned": st.sampled_from([True, False, 0, 1, None]), "tool_calls": st.sampled_from([[], None])}),
    max_size=40)


@settings(max_examples=150, deadline=None)
@given(st.one_of(plain_turns, histories()))
def test_plain_histories_group_as_the_loop_does(msgs: list[dict[str, Any]]) -> None:
    units = units_from_messages(msgs)
    assert units == _loop(msgs)
    assert all(type(u).__name__ == "Unit" and u.text == u[3] for u in units)


def test_non_plain_messages_fall_back_to_the_loop() -> None:
    msgs = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": [{"type": "text", "text": "yo"}]},
            {"role": "user", "content": "x y z"}]
    assert units_from_messages(msgs) == _loop(msgs)
    assert units_from_messages(msgs)[1].text == "yo"
