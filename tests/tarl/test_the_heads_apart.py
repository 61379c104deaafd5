"""Two texts opening on "the <noun>" and a verb of routine or cost ("The basil gets watered every 2 days.", "The
rosemary gets watered every 10 days."; "needs", "costs", "takes", "goes") are about two things when the nouns differ,
as with "is", "has" or "runs": both kept. The same thing's routine moved still replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_things_routine_is_kept_beside(kept_beside) -> None:
    kept_beside("The basil gets watered every 2 days.", "The rosemary gets watered every 10 days.", "user")


def test_another_things_cost_is_kept_beside(kept_beside) -> None:
    kept_beside("The gym costs 35 a month.", "The pool costs 20 a month.", "user")


def test_the_same_things_routine_moved_revises(decides) -> None:
    decides("The basil gets watered every 2 days.", "The basil gets watered every day now.", Action.REVISE, Ledger.HISTORY)
