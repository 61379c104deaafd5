""""kiddos" are kids, and the words of the kids cue are no value: "we've got 2 little ones" and "yep 2 kiddos" hold
{2}, as "I have two kids" does, so the count said again is a repeat, and another count still a change."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.slots import infer


def test_the_kids_cue_is_no_value() -> None:
    assert infer("2 kiddos, both at the same school").values >= {"2"}
    assert "kiddos" not in infer("2 kiddos, both at the same school").values
    assert infer("we've got 2 little ones").values == {"2"}
    assert infer("yep 2 kiddos").attribute == "kids"


def test_the_count_said_again_is_a_repeat(decides) -> None:
    decides("we have three children", "got 3 kiddies", Action.NOOP, Ledger.ACCEPTED)


def test_another_count_is_no_repeat(two_writes) -> None:
    _, _, d = two_writes("I have two kids", "3 kiddos now!")
    assert d.action is not Action.NOOP
