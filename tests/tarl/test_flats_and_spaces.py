"""A flat, a parking space or a bay named by its number or letter ("Flat 2B", "space P7", "bay 12") is one of several:
another's rent or charge is kept beside it, not taken for a change of it."""

from __future__ import annotations

from shared_core import slots


def test_another_flat_or_space_is_kept_beside(kept_beside) -> None:
    kept_beside("Flat 2B, 9 Mill St: rent £950 a month", "Flat 4A, 9 Mill St: rent £1,100 a month", "document")
    kept_beside("loading bay 12 at the depot is booked 6-8am", "loading bay 7 at the depot is booked 9-11am")


def test_the_number_names_the_thing() -> None:
    assert slots.of("Parking space K9 under the block: £60 per month").subject == "space#k9"
