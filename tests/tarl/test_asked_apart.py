"""Two readings whose questions differ in one worded part (another vault path, another schedule, another host) are
two things, each with its own answer: the second is kept beside the first, never revising it away. A write's argument
is a value it sets, and another verb on one thing ("status", "refresh") reads that thing again. Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import distinct


@pytest.mark.parametrize(("first", "then"), [
    ("op read op://infra/staging-db/password -> ****a1x", "op read op://infra/prod-db/password -> ****q7z"),
    ('opsgenie oncall --schedule "Web Primary" -> lena.h', 'opsgenie oncall --schedule "Web Backup" -> omar.b'),
])
def test_two_questions_apart_in_one_word_read_two_things(first, then, kept_beside) -> None:
    kept_beside(first, then)


@pytest.mark.parametrize(("claim", "entry"), [
    ('thermostat set_mode "comfort" -> ok', 'thermostat set_mode "eco" -> ok'),     # a value written, one thermostat
    ("boiler status -> 61C", "boiler refresh -> 58C"),                               # one boiler read two ways
    ("df -h /data -> 71%", "df -h /data -> 64%"),                                    # one question, a new answer
    ("backup-job run 2 -> failed", "backup-job run 3 -> ok"),                        # a number apart is a value
])
def test_questions_that_read_one_thing(claim, entry) -> None:
    assert not distinct._asked_apart(claim, entry)
