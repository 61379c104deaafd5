"""An amount written with its thousands apart or its pence ("1,210.00") or paid "monthly" is the amount the entry holds
("1,210 GBP per month"), not another: a bank's or a provider's reading that agrees repeats the entry instead of
replacing it; another amount still replaces it."""

from __future__ import annotations

from shared_core import quantities
from shared_core.schema import Action, Ledger


def test_thousands_and_pence_read_as_the_number() -> None:
    assert quantities.quantities("Council tax: 2,114.50 a year") == {"per year": frozenset({"2114.5"})}
    assert quantities.quantities("mortgage payment 1,480.00 GBP monthly") == {"per month": frozenset({"1480"})}


def test_a_reading_with_pence_repeats_the_amount(decides) -> None:
    decides("Mortgage: 1,480 GBP per month to Nationwide.", "Bank: direct debit NATIONWIDE 1,480.00 GBP monthly",
            Action.NOOP, Ledger.ACCEPTED, "tool", "user")


def test_another_amount_replaces_it(decides) -> None:
    decides("Mortgage: 1,480 GBP per month to Nationwide.", "Bank: direct debit NATIONWIDE 1,615.00 GBP monthly",
            Action.REVISE, Ledger.HISTORY, "tool", "user")
