"""A birth said without the word "kids" moves the count of children an entry holds: "fourth one arrived on friday" after
"User has three kids" is the family grown, not a note beside it. Through the engine's default policy on a real SQLite
store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize(("first", "then"), [
    ("User has three kids", "fourth one arrived on friday, a little girl, 2.9kg"),
    ("User has four children", "we're a family of six as of last week"),
    ("User has one child, Ola", "the little one arrived at dawn, a brother for ola"),
])
def test_a_birth_moves_the_count_of_children(first, then, decides) -> None:
    decides(first, then, Action.REVISE, Ledger.HISTORY)
