"""Word of a new routing number is word of new bank details (the labels' example of a claim that waits: "an unknown
email claiming to be the landlord with new bank details"): a page's or a stranger's new routing number is left to
verify, not rejected as hearsay."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_new_routing_number_waits(decides) -> None:
    decides("Payroll account is with Wells Fargo, routing 121000248", "Message claiming to be Wells Fargo: your account "
            "moves to a new branch, new routing number 121042882", Action.DEFER_VERIFY, Ledger.ACCEPTED, source="web",
            first_source="user")
