"""A move to a numbered place ("switched to locker 31", "moved to desk D-14") names the new value of the place held,
not another thing: the id after "moved to" is what the entry's place became, so it replaces the entry ("Locker 12 at the
pool is mine."). An id that opens the text ("Locker 31 is Sam's now.") still names its own thing."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_switched_to_another_locker_revises(decides) -> None:
    decides("Locker 12 at the pool is mine.", "switched to locker 31, the hinge on the old one went", Action.REVISE,
            Ledger.HISTORY)


def test_moved_to_another_desk_revises(decides) -> None:
    decides("My desk is D-09 by the window.", "got moved to desk D-22 on monday", Action.REVISE, Ledger.HISTORY)


def test_a_place_that_opens_the_text_is_another(kept_beside) -> None:
    kept_beside("Locker 12 at the pool is mine.", "Locker 31 at the pool is Sam's.", "user")
