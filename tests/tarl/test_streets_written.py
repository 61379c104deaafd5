"""An address's abbreviations ("Ste 2", "Blvd", "Apt 4") are written as the held value writes them in full, so a
listing that restates an address is no other value."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.written import written_alike


def test_abbreviations_are_written_in_full() -> None:
    assert "suite 5" in written_alike("88 Harbor Blvd Ste 5").lower()
    assert "boulevard" in written_alike("88 Harbor Blvd Ste 5").lower()
    assert "apartment 4" in written_alike("12 Elm Road, Apt 4").lower()


def test_a_listing_restating_the_address_is_a_repeat(decides) -> None:
    decides("Studio address: 88 Harbor Boulevard, Suite 5", "Google Maps lists the studio at 88 Harbor Blvd Ste 5",
            Action.NOOP, Ledger.ACCEPTED, source="web", first_source="user")
