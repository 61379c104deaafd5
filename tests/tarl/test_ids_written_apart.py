"""An id's letters written apart from its digits ("Flight BA 2490") name the id written as one ("BA2490"): a reading of
the same flight at the same time swaps no value, while another time still does."""

from __future__ import annotations

from shared_core.grounding import value_replaced


def test_an_id_written_apart_is_the_same_value() -> None:
    assert not value_replaced("KL1009 scheduled 09:40", "Flight KL 1009 departs 09:40")
    assert not value_replaced("BA2490 · Scheduled 07:15 · On time", "Flight BA 2490 departs 07:15")


def test_another_value_beside_it_is_still_swapped() -> None:
    assert value_replaced("KL1009 scheduled 10:15", "Flight KL 1009 departs 09:40")
    assert value_replaced("KL1010 departs 09:40 from gate D4", "Flight KL 1009 departs 09:40 from gate D2")
