"""A tool's record read at a field that a remembered fact names by its key's words ("the merge method for atlas-ui is
squash" and ``"merge_method": "rebase"``; "Time zone: Europe/London" and ``"time_zone": ...``) replaces that fact when
the value moved (the labelling notes: a config value read by a tool overrides what the user remembered it to be), and
repeats it when the value agrees. Said of another thing ("the retention period of bucket logs-eu ...") it is another
thing's field, kept beside."""

from __future__ import annotations

from shared_core.schema import Action, Ledger

_REPO = 'Bitbucket API: GET /repositories/atlas-ui -> {"slug": "atlas-ui", "merge_method": "rebase"}'
_BUCKET = 'storage.get_bucket("logs-archive") -> {"bucket_class": "cold", "retention_period": "90d"}'


def test_a_record_whose_named_field_moved_revises(decides) -> None:
    decides("The merge method for atlas-ui is squash.", _REPO, Action.REVISE, Ledger.HISTORY, "tool", "user")


def test_a_field_named_with_a_unit_that_moved_revises(decides) -> None:
    decides("Our log retention period is 30 days.", 'Datadog: {"index": "main", "retention_period": "15 days"}',
            Action.REVISE, Ledger.HISTORY, "tool", "user")


def test_a_note_whose_labelled_field_moved_revises(decides) -> None:
    decides("Time zone: Europe/London.", 'Calendar API: {"calendar": "work", "time_zone": "America/New_York"}',
            Action.REVISE, Ledger.HISTORY, "tool", "user")


def test_a_record_whose_named_field_agrees_repeats(decides) -> None:
    decides("The merge method for atlas-ui is rebase.", _REPO, Action.NOOP, Ledger.ACCEPTED, "tool", "user")


def test_the_field_said_of_another_thing_is_kept_beside(decides) -> None:
    decides("The retention period of bucket logs-eu is 30d.", _BUCKET, Action.APPEND, Ledger.ACCEPTED, "tool", "user")
