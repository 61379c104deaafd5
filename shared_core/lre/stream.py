"""Incremental scoring for an agent loop: each unit is featurised and scored once.

Because the features are causal, the scores of units 0..m-1 do not change when units are appended, and
the features of the new units only need a small :class:`~shared_core.lre.features.PrefixState`. An
adapter keeps one :class:`StreamingScorer` per conversation and passes it to ``trim(..., scorer=...)``:
a trim after appending a message then costs the unit grouping plus the new units' features, not a
re-featurisation of the whole history.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

import numpy as np

from shared_core.lre.features import EMPTY_STATE, PrefixState
from shared_core.lre.scorer import Scorer
from shared_core.lre.tokens import TokenCounter, count_tokens
from shared_core.lre.units import AsMessage, Unit, units_from_messages


class StreamingScorer:
    """Caches scores and prefix state of the last history seen (one conversation per instance).

    If a call's units start with the cached ones (same texts and kinds), only the new units are scored;
    otherwise (an edit, a different conversation) the history is scored from scratch. Results are
    identical to ``scorer.score_units(units)`` either way.
    """

    def __init__(self, scorer: Scorer | None = None) -> None:
        self.scorer = scorer or Scorer.default()
        self.reset()

    def reset(self) -> None:
        self._keys: list[tuple[str, str]] = []
        self._scores = np.zeros(0)
        self._state: PrefixState = EMPTY_STATE
        self._messages: list[Any] = []
        self._units: list[Unit] = []
        self._grouping: tuple[Any, ...] | None = None

    def units(self, messages: Sequence[Any], *, as_message: AsMessage | None = None,
              token_counter: TokenCounter = count_tokens) -> list[Unit]:
        """``units_from_messages(messages)``, reusing the previous call's units for the leading messages
        that are the very same objects (message identity): in an agent loop only the new messages are
        normalised and counted. The last cached unit is always rebuilt (a tool result may join it)."""
        grouping = (as_message, token_counter)
        k, limit = 0, min(len(messages), len(self._messages))
        if grouping == self._grouping:
            old = self._messages
            while k < limit and old[k] is messages[k]:
                k += 1
        keep = bisect_right([u.stop for u in self._units], k) if k else 0
        keep = min(keep, max(len(self._units) - 1, 0))
        while keep and self._units[keep - 1].stop >= k:  # a changed message right at a boundary may be
            keep -= 1                                      # a tool result that joins the unit before it
        start = self._units[keep - 1].stop if keep else 0
        tail = units_from_messages(messages[start:], as_message=as_message, token_counter=token_counter)
        if start:
            tail = [u._replace(start=u.start + start, stop=u.stop + start) for u in tail]
        units = self._units[:keep] + tail
        self._messages, self._units, self._grouping = list(messages), units, grouping
        return units

    def score_units(self, units: Sequence[Unit]) -> np.ndarray:
        keys = [(u.text, u.kind) for u in units]
        m = 0
        limit = min(len(keys), len(self._keys))
        while m < limit and keys[m] == self._keys[m]:
            m += 1
        if m == len(keys):
            return self._scores[:m].copy()
        if m < len(self._keys):  # the history changed before its end: start over
            self.reset()
            m = 0
        fs = self.scorer.features([k[0] for k in keys[m:]], [k[1] for k in keys[m:]], state=self._state)
        z = self.scorer.logits(fs)
        self._scores = np.concatenate((self._scores, 1.0 / (1.0 + np.exp(-np.clip(z, -50, 50)))))
        self._keys = keys
        assert fs.state is not None
        self._state = fs.state
        return self._scores.copy()
