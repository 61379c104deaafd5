"""A claim that says it adds one more of a kind ("one more leg", "a fourth supplier", "a third supplier") is a further
thing beside those held, however alike it reads; a "new" thing said without an owner's word ("new kitten Miso") too,
where "my new address" still replaces the old one."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then", [
    ("Bakery suppliers: Shipton Mill for flour.", "we've taken on a fourth supplier, Brook Dairy, for butter"),
    ("Flights booked: BA117 LHR-JFK on 3 May.", "Booked one more leg, DL402 JFK-ATL on 5 May"),
    ("Signed up for Pilates on Mondays.", "signed up for one more class, yoga on thursdays"),
])
def test_one_more_is_kept_beside(kept_beside, first, then) -> None:
    kept_beside(first, then, "user")


def test_my_new_address_still_replaces(decides) -> None:
    decides("User lives at 12 Elm Road, Leeds.", "my new address is 4 Quay Street, York", Action.REVISE, Ledger.HISTORY)
