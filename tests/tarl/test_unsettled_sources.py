"""A claim its own words mark as unsettled (unsigned, not yet agreed, proposed, its source unknown) waits to be
verified; it is no contradiction to reject."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then, source", [
    ("vendor_master: vendor=\"Corrib Freight\" remit_email=ap@corribfreight.ie",
     "Business directory lists Corrib's remittance email as pay@corrib-freight.com (source and date unknown).", "web"),
    ("payroll: employee_id=E2201 bank_account=****5531",
     "Scanned form (unsigned, no HR stamp): E2201 asks payroll to pay ****7710.", "document"),
    ("pricing: sku=KT-880 list_price=12.00 EUR", "Distributor's price list, not yet agreed: KT-880 at 13.50 EUR.", "document"),
])
def test_an_unsettled_claim_waits(decides, first, then, source) -> None:
    decides(first, then, Action.DEFER_VERIFY, Ledger.ACCEPTED, source, "tool")
