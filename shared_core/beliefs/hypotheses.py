"""The hypothesis lifecycle, derived from the ledgers rather than stored beside them.

untested -> in_progress -> confirmed | refuted; pruned (a premise fell), exhausted (another member of
a closed group was confirmed), deduced (the last member standing in a closed group). Refuted and
pruned-for-good live in History (final); exhausted and parked-pruned wait in Pending, revocable
when a deduction is withdrawn. Each status is a
function of an entry's ledger, reason and open experiments, so replaying the log to any transaction
gives the statuses of that instant for free.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol

from ..schema import Entry, Ledger, Reason
from . import kinds as K


class Status(StrEnum):
    UNTESTED = "untested"
    IN_PROGRESS = "in_progress"
    CONFIRMED = "confirmed"
    DEDUCED = "deduced"
    REFUTED = "refuted"
    PRUNED = "pruned"
    EXHAUSTED = "exhausted"
    PREMISE_RETRACTED = "premise_retracted"
    """Back in Pending because a premise left Accepted; restored when the premise is."""
    AWAITING_PREMISES = "awaiting_premises"
    """Confirmed before its premises were; restored to confirmed when they are."""
    ACCEPTED = "accepted"
    PENDING = "pending"
    CLOSED = "closed"
    """In History for another reason (superseded, rejected, expired, retracted, completed)."""


class BeliefView(Protocol):
    def entry(self, entry_id: str) -> Entry | None: ...

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]: ...


def status(view: BeliefView, entry: Entry) -> Status:
    hypothesis = K.kind(entry) == K.HYPOTHESIS
    if entry.ledger is Ledger.ACCEPTED:
        if entry.reason is Reason.DEDUCED:
            return Status.DEDUCED
        return Status.CONFIRMED if hypothesis else Status.ACCEPTED
    if entry.ledger is Ledger.PENDING:
        if entry.reason in _BY_REASON:
            return _BY_REASON[entry.reason]
        if not hypothesis:
            return Status.PENDING
        running = any(K.kind(d) == K.EXPERIMENT for d in view.dependents(entry.id))
        return Status.IN_PROGRESS if running else Status.UNTESTED
    return _BY_REASON.get(entry.reason, Status.CLOSED) if entry.reason else Status.CLOSED


_BY_REASON = {Reason.REFUTED: Status.REFUTED, Reason.PRUNED: Status.PRUNED, Reason.EXHAUSTED: Status.EXHAUSTED,
              Reason.PREMISE_RETRACTED: Status.PREMISE_RETRACTED, Reason.AWAITING_PREMISES: Status.AWAITING_PREMISES}


def frontier(view: BeliefView, pending: Sequence[Entry]) -> list[Entry]:
    """Untested hypotheses among ``pending`` whose premises are all Accepted: what can be tested now."""
    out = []
    for e in pending:
        if K.kind(e) != K.HYPOTHESIS or e.ledger is not Ledger.PENDING or e.reason is not None:
            continue
        premises = [view.entry(p) for p in e.depends_on]
        if all(p is not None and p.ledger is Ledger.ACCEPTED for p in premises) and status(view, e) is Status.UNTESTED:
            out.append(e)
    return out


def best(candidates: Sequence[Entry]) -> Entry | None:
    """The highest-prior candidate (oldest first on ties): the greedy choice, offered as an option
    because with well-calibrated priors it needs fewer experiments (see ``tarl bench beliefs``)."""
    return max(sorted(candidates, key=lambda e: (e.created_tx, e.id)), key=K.prior, default=None)


def sample(candidates: Sequence[Entry], rng: random.Random) -> Entry | None:
    """One candidate drawn with probability proportional to its prior (not the argmax: a greedy
    chooser keeps returning to the same high-prior branch; sampling spreads effort the way the
    priors say the truth is spread). Candidates are ordered by id first, so a seed reproduces."""
    if not candidates:
        return None
    ordered = sorted(candidates, key=lambda e: (e.created_tx, e.id))
    weights = [K.prior(e) for e in ordered]
    return rng.choices(ordered, weights=weights, k=1)[0]
