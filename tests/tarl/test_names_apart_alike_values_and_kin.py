"""Two things named apart in sentences otherwise alike are two things even when they hold the same value (a second
database in the same journal mode is no repeat of the first), and two relatives named apart are two people whatever
relation each is ("User's youngest, Rafe, wears ..." beside "User's daughter Ada wears ...")."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_second_thing_with_the_same_value_is_kept(kept_beside) -> None:
    kept_beside("Postgres database orders/primary.db has wal_level=logical.",
                "Postgres database orders/replica.db has wal_level=logical.", "tool")


def test_two_relatives_named_apart_are_two_people(kept_beside) -> None:
    kept_beside("User's daughter Ada wears children's shoe size 9.", "User's youngest, Rafe, wears children's shoe size 6.",
                "user")


def test_the_same_child_moved_revises(decides) -> None:
    decides("User's daughter Ada wears children's shoe size 9.", "User's daughter Ada wears children's shoe size 10 now.",
            Action.REVISE, Ledger.HISTORY)
