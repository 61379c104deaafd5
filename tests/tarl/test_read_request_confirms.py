"""A read request's answer ("GET /tickets/5120 -> {...}") that holds the value a one-field note keeps ("Ticket #5120
priority: high.") confirms it: a repeat, not a second entry beside it (the labelling notes: a tool call that confirms a
stored value is a noop). The request's own arrow is its output, not a move; another value in that field is news."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_read_request_that_agrees_is_a_repeat(decides) -> None:
    decides("Ticket #5120 priority: high.", 'GET /tickets/5120 -> {"id":5120,"priority":"high","assignee":"mo"}',
            Action.NOOP, Ledger.ACCEPTED, "tool")


def test_a_read_request_that_differs_is_no_repeat(two_writes) -> None:
    _, _, d = two_writes("Ticket #5120 priority: high.", 'GET /tickets/5120 -> {"id":5120,"priority":"low"}', "tool", "tool")
    assert d.action is not Action.NOOP, d.rationale
