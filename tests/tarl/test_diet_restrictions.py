"""A way of eating (vegetarian, vegan, pescatarian) is one value that changes; a restriction kept for health or faith
(gluten free, dairy free, halal, kosher) stands beside it, and several restrictions stand together."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_restriction_is_kept_beside_the_diet(decides) -> None:
    decides("my wife is pescatarian", "she's gluten-free as well, coeliac since 2019", Action.APPEND, Ledger.ACCEPTED)
    decides("I'm vegan these days", "and dairy-free obviously, plus I'm celiac", Action.APPEND, Ledger.ACCEPTED)


def test_a_second_restriction_is_kept_beside_the_first(decides) -> None:
    decides("my son is coeliac so strictly gluten-free", "he's kosher as well", Action.APPEND, Ledger.ACCEPTED)


def test_the_diet_changed_still_revises(decides) -> None:
    decides("I'm vegetarian", "went fully vegan last month", Action.REVISE, Ledger.HISTORY)
