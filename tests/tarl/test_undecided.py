"""A change not yet decided ("still undecided", "leaning towards", "hinted at", "floated", "talking about moving", a PR
awaiting review, a release pending approval) is held to verify, never taken for the change made; a state that is itself
a wait ("awaiting dispatch") is no such change. Through the engine's default policy on a real SQLite store, in wordings
the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize(("first", "then", "source"), [
    ("User's gym is PureGym", "got offered a corporate membership at nuffield, still undecided", "user"),
    ("User's team lead is Marek", "leaning towards moving over to the data team under Ines", "user"),
    ("User's salary is £48k", "director hinted at a raise to 52k at review time", "user"),
    ("User works in the Leeds office", "they're talking about moving the whole team to the york office", "user"),
    ("Sprint length is 2 weeks", "the PM floated 3 week sprints at retro", "user"),
    ("Staging runs Postgres 15", "PR #88 (open, awaiting review): bump staging postgres to 16", "tool"),
    ("Checkout service runs v2.8.1 in prod", "release checkout v2.9.0 to prod: status=pending_approval, requested by ci",
     "tool"),
])
def test_an_undecided_change_waits(first, then, source, decides) -> None:
    decides(first, then, Action.DEFER_VERIFY, Ledger.ACCEPTED, source)


def test_a_wait_that_is_the_state_is_no_undecided_change(decides) -> None:
    decides("Order 5512 status: awaiting dispatch", "order 5512 is awaiting dispatch still", Action.NOOP, Ledger.ACCEPTED,
            "tool")
