"""A short code or a path opening a sentence ("P2 incidents: ...", "Q1 budget is ...", "/v1/orders timeout is ...") names a
tier, a quarter, an endpoint: two of them in words otherwise alike are two things, both kept, as two joined names are;
the same one given a new value still replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_tier_is_kept_beside(kept_beside) -> None:
    kept_beside("P2 incidents: page the on-call within 30 minutes.", "P4 incidents: page the on-call within 3 days.", "user")


def test_another_endpoint_is_kept_beside(kept_beside) -> None:
    kept_beside("Gateway /v1/orders timeout is 5s.", "Gateway /v1/refunds timeout is 12s.", "user")


def test_the_same_tier_moved_revises(decides) -> None:
    decides("P2 incidents: page the on-call within 30 minutes.", "P2 incidents: page the on-call within 15 minutes now.",
            Action.REVISE, Ledger.HISTORY)
