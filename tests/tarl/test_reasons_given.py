"""A "since" that gives a reason ("Since you're vegan, I've picked ...") is no update cue, as "since March" is: the
held value, used as a premise, is said again, not changed."""

from __future__ import annotations

from shared_core.grounding import claim_features
from shared_core.schema import Claim


def _update(text: str) -> bool:
    return bool(claim_features(Claim(text=text, namespace="ns"))["update_cue"])


def test_a_reason_is_no_update() -> None:
    assert not _update("Since you're vegan, I've picked three lentil recipes for the week.")
    assert not _update("since it's raining, the match moves indoors")


def test_a_date_since_is_still_one() -> None:
    assert _update("vegan since March")
    assert _update("been at Monzo since the spring")
