"""A document that dates its own revision and says what moved ("agenda v3 (revised 12 March): the offsite moved to
11 April") is the keeper's update: it revises the plan it changes. One dated years back is still an old copy."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_revised_notice_revises(decides) -> None:
    decides("Team offsite is on 4 April at the Barn",
            "Offsite agenda v3 (revised 12 March): the offsite moved to 11 April, same venue",
            Action.REVISE, Ledger.HISTORY, "document", "user")


def test_an_old_revision_is_still_rejected(decides) -> None:
    decides("the museum late opening is Thursdays", "museum leaflet (updated 2019): late opening now on Fridays",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, "document", "user")
