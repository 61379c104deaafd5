"""The kinds of belief entries and the metadata keys they carry.

Hypotheses, experiments, results, exclusion groups and closed-world assumptions are ordinary entries:
their role lives in ``metadata["kind"]`` and their links in ``depends_on`` (a member rests on its
group, an experiment on its hypothesis). So the SQLite ledger stays the same five tables, readable by
hand, and every lifecycle change is an ordinary ledger move in the transaction log.

``check_claim`` validates the kind-specific metadata before the executor writes anything, so a bad
result or a hypothesis with a bad prior is refused with an error naming the field.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..errors import InvalidStep, UnknownEntry
from ..schema import Claim, Entry, Ledger, Reason

if TYPE_CHECKING:
    from ..executor import StateView
    from .graph import EntryReader

KIND = "kind"
HYPOTHESIS = "hypothesis"
EXPERIMENT = "experiment"
RESULT = "result"
GROUP = "group"
CLOSED_WORLD = "closed_world"
KINDS = (HYPOTHESIS, EXPERIMENT, RESULT, GROUP, CLOSED_WORLD)

PRIOR = "prior"
"""A hypothesis's prior probability of holding, in (0, 1]: the weight ``next_to_test`` samples by."""
GROUP_KEY = "group"
"""On a hypothesis or closed-world assumption: the id of its exclusion group entry."""
OF = "hypothesis"
"""On an experiment or result: the hypothesis it tests."""
EXPERIMENT_KEY = "experiment"
OUTCOME = "outcome"
CONFIRMED, REFUTED = "confirmed", "refuted"
CASCADE_TO = "cascade_to"
"""Per entry: "history" closes it when a premise leaves Accepted (default: back to Pending)."""
TTL = "ttl_seconds"
"""Per entry: seconds after ``observed_at`` when the entry drifts out (``sweep`` expires it)."""
DEFAULT_PRIOR = 0.5


def kind(entry: Entry | Claim) -> str | None:
    value = entry.metadata.get(KIND)
    return value if isinstance(value, str) else None


def prior(entry: Entry) -> float:
    value = entry.metadata.get(PRIOR, DEFAULT_PRIOR)
    return float(value) if isinstance(value, (int, float)) else DEFAULT_PRIOR


def group_of(entry: Entry) -> str | None:
    """The exclusion group an entry belongs to (a group entry is its own group)."""
    k = kind(entry)
    if k == GROUP:
        return entry.id
    if k in (HYPOTHESIS, CLOSED_WORLD):
        value = entry.metadata.get(GROUP_KEY)
        return value if isinstance(value, str) else None
    return None


def check_claim(view: StateView, claim: Claim) -> None:
    """Refuse a belief claim whose metadata does not fit its kind (nothing is written)."""
    ttl = claim.metadata.get(TTL)
    if ttl is not None and (not _number(ttl) or ttl <= 0):
        raise InvalidStep("metadata.ttl_seconds", ttl, "must be a positive number of seconds")
    to = claim.metadata.get(CASCADE_TO)
    if to is not None and to not in ("pending", "history"):
        raise InvalidStep("metadata.cascade_to", to, "must be 'pending' or 'history'")
    k = claim.metadata.get(KIND)
    if k not in KINDS:          # a plain entry; other "kind" values belong to the caller, not to us
        return
    if k == HYPOTHESIS:
        p = claim.metadata.get(PRIOR, DEFAULT_PRIOR)
        if not _number(p) or not 0.0 < p <= 1.0:
            raise InvalidStep("metadata.prior", p, "must be a number in (0, 1]")
    if k in (HYPOTHESIS, CLOSED_WORLD) and (k == CLOSED_WORLD or GROUP_KEY in claim.metadata):
        g = claim.metadata.get(GROUP_KEY)
        group = view.entry(g) if isinstance(g, str) else None
        if group is None or kind(group) != GROUP or group.namespace != claim.namespace:
            raise InvalidStep("metadata.group", g, "must be the id of an exclusion group entry in this namespace")
        if g not in claim.depends_on:
            raise InvalidStep("depends_on", claim.depends_on, f"a member of group {g} must list it in depends_on")
    if k == EXPERIMENT:
        h = _hypothesis(view, claim, claim.metadata.get(OF))
        if h.ledger is Ledger.HISTORY or h.reason in (Reason.PRUNED, Reason.EXHAUSTED):
            raise InvalidStep("metadata.hypothesis", h.id, f"is {h.reason.value if h.reason else 'closed'}: "
                              "nothing left to test")
        if claim.metadata[OF] not in claim.depends_on:
            raise InvalidStep("depends_on", claim.depends_on, "an experiment must depend on the hypothesis it tests")
    if k == RESULT:
        _check_result(view, claim)


def confirmation(view: EntryReader, h: Entry) -> tuple[Ledger, Reason | None, str]:
    """Where a hypothesis goes when confirmed (by a result or by hand): Accepted if its premises are;
    else it waits in Pending (``awaiting_premises``) and is restored when they are; pruned for good
    if a premise is already closed. Plain entries are always promoted."""
    if kind(h) != HYPOTHESIS:
        return Ledger.ACCEPTED, None, ""
    premises = [p for p in (view.entry(i) for i in h.depends_on) if p is not None]
    closed = [p.id for p in premises if p.ledger is Ledger.HISTORY]
    if closed:
        return Ledger.HISTORY, Reason.PRUNED, f"premise {closed[0]} is closed"
    waiting = [p.id for p in premises if p.ledger is not Ledger.ACCEPTED]
    if waiting:
        return Ledger.PENDING, Reason.AWAITING_PREMISES, f"awaits premise {waiting[0]}"
    return Ledger.ACCEPTED, None, ""


def _check_result(view: StateView, claim: Claim) -> None:
    h = _hypothesis(view, claim, claim.metadata.get(OF))
    outcome = claim.metadata.get(OUTCOME)
    if outcome not in (CONFIRMED, REFUTED):
        raise InvalidStep("metadata.outcome", outcome, f"must be {CONFIRMED!r} or {REFUTED!r}")
    if outcome == CONFIRMED and h.ledger is Ledger.HISTORY:
        raise InvalidStep("metadata.hypothesis", h.id, f"is closed ({h.reason}); History is final, "
                          "propose the hypothesis again to re-test it")
    e = claim.metadata.get(EXPERIMENT_KEY)
    if e is not None:
        exp = view.entry(e) if isinstance(e, str) else None
        if exp is None or kind(exp) != EXPERIMENT or exp.metadata.get(OF) != h.id:
            raise InvalidStep("metadata.experiment", e, f"must be an experiment on hypothesis {h.id}")
        if exp.ledger is not Ledger.PENDING:
            raise InvalidStep("metadata.experiment", e, f"the experiment is already {exp.ledger.value} ({exp.reason})")


def _hypothesis(view: StateView, claim: Claim, h: Any) -> Entry:
    entry = view.entry(h) if isinstance(h, str) else None
    if entry is None or entry.namespace != claim.namespace:
        raise UnknownEntry("metadata.hypothesis", h, f"no such entry in namespace {claim.namespace!r}")
    if kind(entry) != HYPOTHESIS:
        raise InvalidStep("metadata.hypothesis", h, f"is a {kind(entry) or 'plain entry'}, not a hypothesis")
    return entry


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
