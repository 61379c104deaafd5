"""StreamingScorer gives the same scores (and so the same trims) as scoring from scratch."""

from __future__ import annotations

import random

import numpy as np

from shared_core.lre import Scorer, StreamingScorer, trim, units_from_messages
from shared_core.lre.synthetic import agent_trace, chat


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
