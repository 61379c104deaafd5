"""A size as Kubernetes writes it ("1536Mi", "1.5Gi") is in binary units, "Mi" no miles: the same limit said in the
other unit is a repeat, another is a change; a duration written "1h30" is ninety minutes."""

from __future__ import annotations

from shared_core import units
from shared_core.schema import Action, Ledger


def test_the_same_limit_in_the_other_unit_repeats(decides) -> None:
    decides("Pod limits for api-worker: memory 1536Mi", "api-worker pod limits: memory 1.5Gi", Action.NOOP, Ledger.ACCEPTED,
            "tool")


def test_another_limit_moves(decides) -> None:
    decides("Pod limits for api-worker: memory 1536Mi", "api-worker pod limits: memory 2Gi", Action.REVISE, Ledger.HISTORY,
            "tool")


def test_hours_and_minutes_read_as_minutes() -> None:
    assert units.restated("sprint review is 1h30, same as ever", "Sprint review takes 90 minutes.") == \
        "sprint review is 90 minutes, same as ever"
