"""Two things of one kind, each named by its own identifier ("repo platform/infra-tools" beside "repo platform/infra",
"#ops-alerts channel" beside "#ops channel", "service user svc-backup" beside "svc-deploy"): two things, kept side by
side, however alike the rest of the sentence; the same name with a new value still revises."""

from __future__ import annotations

from shared_core import distinct
from shared_core.schema import Action, Ledger


def test_another_named_thing_of_the_kind_is_kept_beside(kept_beside) -> None:
    kept_beside("repo platform/infra default branch is main", "repo platform/infra-tools default branch is trunk")
    kept_beside("Mattermost: #ops channel purpose set to on-call chatter",
                "Mattermost: #ops-alerts channel purpose set to pager echoes only")
    kept_beside("service user svc-deploy has role admin, last login 2 days ago",
                "service user svc-backup was given role reader today, never logged in")


def test_another_quoted_name_or_sku_is_another_thing(kept_beside) -> None:
    kept_beside("Notion: board 'Q3 roadmap' has 41 cards, owner Dara",
                "Notion: board 'Q3 roadmap (archive)' has 12 cards, owner Sol")
    kept_beside("inventory: sku MUG-WHT-12 on hand 40", "inventory: sku MUG-BLU-12 on hand 6")


def test_another_flag_or_file_is_another_thing(kept_beside) -> None:
    kept_beside("LaunchDarkly: flag beta_pricing in eu-west is on", "LaunchDarkly: flag invoice_v2 in eu-west is off")
    kept_beside("services/billing/Dockerfile: FROM python:3.11-slim", "services/auth/Dockerfile: FROM python:3.12-slim")


def test_another_rota_is_another_thing(kept_beside) -> None:
    kept_beside("checkout-backend on-call this week: Femi Adeyemi", "identity-frontend on-call this week: Rosa Lindqvist")


def test_the_same_named_thing_is_not_told_apart() -> None:
    assert not distinct._kinds_apart("repo platform/infra is archived now", "repo platform/infra default branch is main")
    assert distinct._kinds_apart("bucket media-eu keeps 90 days", "bucket media-us keeps 30 days")


def test_a_new_value_of_the_same_named_thing_still_revises(decides) -> None:
    decides("repo platform/infra default branch is main", "repo platform/infra default branch is now trunk",
            Action.REVISE, Ledger.HISTORY, "tool")
