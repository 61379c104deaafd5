"""A duration written with a hyphen ("6-month check", "8-week jabs") is a quantity, not an id naming the thing: the
name that owns it ("Mila's") is who the text is about, so two children's checks are two things."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.slots import of


def test_two_childrens_checks_are_two(kept_beside) -> None:
    kept_beside("Mila's 6-month check is due on 3 March.", "Otto's preschool booster is due on 9 April.", "user")


def test_the_owner_is_the_subject() -> None:
    assert of("Kit's 8-week jabs are booked for 2 June.").subject == "kit"
