"""StreamingScorer gives the same scores (and so the same trims) as scoring from scratch."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import Scorer, StreamingScorer, trim, units_from_messages
from shared_core.lre.synthetic import agent_trace, chat

from lre_strategies import histories


def test_streaming_matches_batch_while_history_grows() -> None:
    msgs = chat(random.Random(1), 150)
    stream, batch = StreamingScorer(), Scorer.default()
    for n in (10, 11, 40, 40, 90, 150):
        units = units_from_messages(msgs[:n])
        np.testing.assert_allclose(stream.score_units(units), batch.score_units(units), atol=1e-12)
        assert trim(msgs[:n], 400, scorer=stream) == trim(msgs[:n], 400)


def test_streaming_restarts_on_a_different_history() -> None:
    stream, batch = StreamingScorer(), Scorer.default()
    a = units_from_messages(chat(random.Random(2), 60))
    b = units_from_messages(agent_trace(random.Random(3), 20).messages)
    for units in (a, b, a[:30], a):
        np.testing.assert_allclose(stream.score_units(units), batch.score_units(units), atol=1e-12)


@settings(max_examples=60, deadline=None)
@given(histories(), st.lists(st.tuples(st.integers(0, 40), st.booleans()), min_size=1, max_size=6),
       st.integers(0, 400))
def test_unit_cache_by_message_identity_matches_a_cold_grouping(msgs, calls, budget) -> None:
    """Growing, shrinking and edited histories (a message replaced by an equal-looking new object,
    tool results joining their call): the cached grouping is always the cold one, and so is the trim."""
    stream = StreamingScorer()
    current = list(msgs)
    for n, edit in calls:
        view = current[: min(n, len(current))] if n else current
        if edit and view:
            i = len(view) // 2
            view = [*view[:i], dict(view[i]), *view[i + 1:]]  # same content, new object
        assert stream.units(view) == units_from_messages(view)
        assert trim(view, budget, scorer=stream) == trim(view, budget)
