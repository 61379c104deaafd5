"""Changes the lexicon names without a change word: pronouns are a closed class ("she/they" in place of "he/him" is
another value, however it is worded), a first week or day at a company is a new employer, "on Tokyo time" is a time
zone, "cycling in" is how one gets to work, and "gone up to a 9" moves the one number an entry holds. Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action

@pytest.mark.parametrize(("first", "then", "action"), [
    ("I use he/him pronouns", "it's she/they for me these days", Action.REVISE),
    ("my pronouns are he/him", "she/they from today please", Action.REVISE),
    ("I use he/him pronouns", "he/him, no change", Action.NOOP),
    ("I work for Deliveroo", "first day at monzo tomorrow, wish me luck", Action.REVISE),
    ("My timezone is CET.", "on Tokyo time for the next two years, new posting", Action.REVISE),
    ("I take the bus to work", "cycling in most days now the weather's turned", Action.REVISE),
    ("Isla's ring size is 7", "isla's gone up to a 9 already, she grows so fast", Action.REVISE),
])
def test_a_value_the_lexicon_names(first, then, action, two_writes) -> None:
    _, first_id, d = two_writes(first, then)
    assert d.action is action
    assert d.target_id == first_id
