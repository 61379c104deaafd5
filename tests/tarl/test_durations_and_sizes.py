"""A duration or a data size said in another unit ("336h" and "14 days", "90 minutes" and "1.5 hours", "2048 MiB" and
"2 GiB") is the same amount: a tool's reading that agrees repeats the entry; one that differs, converted, moved it."""

from __future__ import annotations

from shared_core import units
from shared_core.schema import Action, Ledger


def test_units_of_time_and_size_convert() -> None:
    assert units.same_amount("retention_hours: 168h", "Backups are kept for 7 days.")
    assert units.same_amount("quota: 5120 MiB", "my drive quota is 5 GiB")
    assert not units.same_amount("retention_hours: 72h", "Backups are kept for 7 days.")
    assert units.restated("the call runs 1.5 hours", "The standup takes 90 minutes.") == "the call runs 90 minutes"


def test_a_reading_in_hours_repeats_a_retention_in_days(decides) -> None:
    decides("Log retention for the api is 14 days.", "api logs retention_period: 336h", Action.NOOP, Ledger.ACCEPTED,
            "tool", "user")


def test_a_size_in_mib_repeats_a_limit_in_gib(decides) -> None:
    decides("Worker memory limit: 2 GiB.", "worker memory_limit = 2048 MiB", Action.NOOP, Ledger.ACCEPTED, "tool", "user")


def test_a_moved_duration_still_revises(decides) -> None:
    decides("Log retention for the api is 14 days.", "api logs retention_period: 720h", Action.REVISE, Ledger.HISTORY,
            "tool", "user")
