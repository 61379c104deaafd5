"""Two things named alike before a verb of routing or serving ("Endpoint rank-eu serves model ...", "Endpoint rank-us
serves model ..."; points, routes, resolves, forwards, expires, renews) are two things, as before "is" or "runs": each
keeps its own value. The same thing routed elsewhere still replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_endpoint_serving_is_kept_beside(kept_beside) -> None:
    kept_beside("Endpoint rank-eu serves model ranker-v11.", "Endpoint rank-us serves model ranker-v9.")


def test_another_alias_pointing_is_kept_beside(kept_beside) -> None:
    kept_beside("Alias billing-read points to replica db-r2.", "Alias billing-write points to primary db-p1.")


def test_the_same_endpoint_moved_revises(decides) -> None:
    decides("Endpoint rank-eu serves model ranker-v11.", "Endpoint rank-eu serves model ranker-v12 now.", Action.REVISE,
            Ledger.HISTORY, "tool")
