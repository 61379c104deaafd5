"""Recycling, general waste, garden and food waste are kinds of one collection: each has its own day, so one kind's day
is kept beside another's, and the same kind's new day still revises it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_collection_is_kept_beside(decides) -> None:
    decides("general waste goes out wednesday night", "glass collection is every fourth friday",
            Action.APPEND, Ledger.ACCEPTED)
    decides("recycling goes out every other monday", "garden waste is fortnightly on tuesdays", Action.APPEND,
            Ledger.ACCEPTED)


def test_the_same_collection_moved_revises(decides) -> None:
    decides("recycling goes out every other monday", "recycling moved to every other wednesday", Action.REVISE,
            Ledger.HISTORY)
