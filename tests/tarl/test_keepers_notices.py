"""The keeper of a fact telling the user, under its own name, that it changed ("Brightsmile Dental: your appointment
... has been moved to 14:30") made the change: it revises, though a third party's word against the user's is otherwise
rejected as hearsay. New bank details in such a notice still wait (the labels' phishing case). Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then", [
    ("dentist appointment is 12 March at 10:00",
     "Brightsmile Dental: your appointment on 12/03 has been moved to 14:30, same dentist."),
    ("Eurostar 9014 to Paris leaves at 08:01 on 4 May",
     "Eurostar Customer Service: your train 9014 on 4 May now departs at 08:31."),
])
def test_the_keepers_notice_of_a_change_revises(decides, first: str, then: str) -> None:
    decides(first, then, Action.REVISE, Ledger.HISTORY, source="third_party", first_source="user")


def test_new_bank_details_in_a_notice_still_wait(decides) -> None:
    decides("salary goes into Monzo account ending 1234",
            "Acme Payroll Team: your bank details have been changed to account ending 9921.", Action.DEFER_VERIFY,
            Ledger.ACCEPTED, source="third_party", first_source="user")
