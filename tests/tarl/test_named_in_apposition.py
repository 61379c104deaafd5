"""A name set beside what it names ("Otis, the younger dog, ...", "Our middle one, Freya, ...") tells two of a kind
apart however alike the rest, and so does a name after its kind's word ("Our tabby Miso, vaccinated ..."); a role one
person holds at a time ("Our landlord, Mr Devlin, ...") does not."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


def test_two_dogs_named_in_apposition_are_two(kept_beside) -> None:
    kept_beside("Otis, the younger dog, eats 150 g of kibble a day.", "Juno, the older dog, eats 220 g of kibble a day.",
                "user")


def test_two_children_named_in_apposition_are_two(kept_beside) -> None:
    kept_beside("Our middle one, Freya, goes to bed at 7:30.", "Arlo, the baby, goes to bed at 6:45.", "user")


@pytest.mark.parametrize("first, then", [
    ("Our tabby Miso, vaccinated 12/03/2025", "Our tabby Pip, vaccinated 19/03/2025"),
    ("My bonsai Hoshi, repotted in April", "My bonsai Kumo, repotted in June"),
])
def test_two_of_a_kind_named_after_the_kind_are_two(kept_beside, first, then) -> None:
    kept_beside(first, then, "user")


def test_a_role_holder_named_in_apposition_is_replaced(decides) -> None:
    decides("Our landlord, Mr Devlin, wants the rent paid on the 1st.",
            "Our landlord, Ms Achebe, wants the rent paid on the 1st now.", Action.REVISE, Ledger.HISTORY)
