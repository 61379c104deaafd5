"""Two things of one kind, each named by its own name in words alike ("Project Lyra budget is ..." after "Project Orion
budget is ...", a neighbour Tariq after a neighbour Ben): two things, both kept, not one renamed. A person named as the
holder of one role ("Dr. Shah is my GP now" after "Dr. Patel is my GP.") still replaces the one held."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_two_named_projects_are_kept_apart(kept_beside) -> None:
    kept_beside("Project Orion budget is $40k for Q1.", "Project Lyra budget is $55k for Q2.", "document")


def test_two_named_neighbours_are_kept_apart(kept_beside) -> None:
    kept_beside("User's neighbour Ben works at the bakery.", "User's neighbour Tariq works at the depot.", "user")


def test_a_role_given_to_another_name_still_revises(decides) -> None:
    decides("Dr. Patel is my GP.", "Dr. Shah is my GP now.", Action.REVISE, Ledger.HISTORY)
