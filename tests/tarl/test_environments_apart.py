"""One setting read in two deployment environments ("rate_limit_rps is 50 in staging" and "... 200 in production";
``env=prod`` and ``--env qa``) is two settings, each with its own value, both kept; the same environment's value moved
still replaces it. "dev" alone may be a person's name and "test" a test: those count only where a preposition, a flag
or the word environment marks them."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_environments_value_is_kept_beside(kept_beside) -> None:
    kept_beside("gateway rate_limit_rps is 50 in staging.", "gateway rate_limit_rps is 200 in production.")


def test_an_environment_named_as_one_is_kept_beside(kept_beside) -> None:
    kept_beside("search replicas: 2 in the qa environment", "search replicas: 6 in the uat environment")


def test_the_same_environments_value_moved_revises(decides) -> None:
    decides("gateway rate_limit_rps is 50 in staging.", "gateway rate_limit_rps is 80 in staging now.",
            Action.REVISE, Ledger.HISTORY, "tool")
