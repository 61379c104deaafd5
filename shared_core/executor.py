"""The one deterministic executor: every change to memory is a ``Step`` turned into a ``Transaction`` here.

It never touches storage. It reads the entries it needs through a ``StateView`` and returns the
transaction (new entries plus ledger moves). The SQLite store persists that transaction; an in-memory
``MemoryState`` applies it for simulation, so counterfactual training runs the very code real writes run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from . import beliefs
from .errors import InvalidStep, UnknownEntry
from .schema import Action, Claim, Decision, Entry, Ledger, Move, Reason, Transaction, new_id


class StateView(Protocol):
    """What the executor may read: entries by id, and the open entries resting on an entry."""

    def entry(self, entry_id: str) -> Entry | None: ...

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]:
        """Entries listing ``entry_id`` in ``depends_on``: open ones, or all with ``include_history``
        (truth maintenance reads closed ones too: refuted members of an exclusion group ground its
        deductions)."""
        ...


@dataclass(frozen=True)
class Step:
    """One requested change. ``claim`` for the five decision actions; ``target_id`` for revise,
    reject_conflict, promote and close (optional for noop / defer_verify: what the claim was weighed
    against); ``reason`` for close."""

    action: Action
    claim: Claim | None = None
    target_id: str | None = None
    reason: Reason | None = None
    note: str | None = None
    decision: Decision | None = None


class Runner:
    """``run(step)`` in ``MemoryEngine.transact``: executes and records one step; ``head``: the ledger's
    last transaction as the write lock was taken (before this unit's own steps)."""

    def __init__(self, call: Callable[[Step], Transaction], head: int) -> None:
        self._call, self.head = call, head

    def __call__(self, step: Step) -> Transaction:
        return self._call(step)


_NEEDS_CLAIM = {Action.APPEND, Action.NOOP, Action.REVISE, Action.REJECT_CONFLICT, Action.DEFER_VERIFY}
_NEEDS_ACCEPTED_TARGET = {Action.REVISE, Action.REJECT_CONFLICT}


def execute(
    view: StateView,
    step: Step,
    *,
    namespace: str,
    tx: int,
    at: datetime,
    make_id: Callable[[], str] = new_id,
    cascade_to: Ledger = Ledger.PENDING,
) -> Transaction:
    """Turn ``step`` into a transaction against ``view``; raises ``InvalidStep`` and changes nothing.

    Consequences (cascades, pruning, restoration, hypothesis results, exclusion groups: see
    ``beliefs.propagate``) are part of the same transaction. ``cascade_to`` is where Accepted
    dependents of an entry leaving Accepted go: Pending (re-verify, the default) or History."""
    action, claim = step.action, step.claim
    if action in _NEEDS_CLAIM and claim is None:
        raise InvalidStep("claim", None, f"{action.value} needs a claim")
    if claim is not None and claim.namespace != namespace:
        raise InvalidStep("claim.namespace", claim.namespace, f"the transaction is for namespace {namespace!r}")
    target = _target(view, step, namespace)
    if claim is not None:
        _check_premises(view, claim, replaces=target if action in (Action.REVISE, Action.DEFER_VERIFY) else None)
        beliefs.check_claim(view, claim)

    created: list[Entry] = []
    moves: list[Move] = []

    def create(ledger: Ledger, reason: Reason | None = None, note: str | None = None) -> Entry:
        assert claim is not None
        entry = Entry.from_claim(
            claim, id=make_id(), ledger=ledger, tx=tx, reason=reason, note=note,
            target_id=target.id if target is not None else None,
            closed_tx=tx if ledger is Ledger.HISTORY else None,
        )
        if action is Action.REVISE and claim.slot is None and target is not None and target.slot is not None:
            # the new value of a slot holds the slot: a free-text change of a keyed value stays under its key
            many = {"many": target.metadata["many"]} if "many" in target.metadata else {}
            entry = entry.model_copy(update={"slot": target.slot, "metadata": {**entry.metadata, **many}})
        created.append(entry)
        moves.append(Move(entry_id=entry.id, from_ledger=None, to_ledger=ledger, reason=reason, note=note))
        return entry

    def accept_or_wait(claim: Claim | None) -> Entry:
        """Accepted only rests on Accepted: a claim whose premise is Pending or in History waits in
        Pending (``awaiting_premises``), and belief restoration brings it in once its premises are."""
        assert claim is not None
        out = [p for p in claim.depends_on if (e := view.entry(p)) is not None and e.ledger is not Ledger.ACCEPTED]
        if not out:
            return create(Ledger.ACCEPTED)
        return create(Ledger.PENDING, Reason.AWAITING_PREMISES, f"premise {out[0]} is not Accepted")

    def move(entry: Entry, ledger: Ledger, reason: Reason | None, note: str | None = None) -> None:
        moves.append(Move(entry_id=entry.id, from_ledger=entry.ledger, to_ledger=ledger, reason=reason, note=note))

    if action is Action.APPEND:
        accept_or_wait(claim)
    elif action is Action.NOOP:
        pass
    elif action is Action.REVISE:
        assert target is not None
        new = accept_or_wait(claim)
        move(target, Ledger.HISTORY, Reason.SUPERSEDED, step.note or f"superseded by {new.id}")
    elif action is Action.REJECT_CONFLICT:
        assert target is not None
        create(Ledger.HISTORY, Reason.REJECTED, step.note or f"conflicts with accepted {target.id}")
    elif action is Action.DEFER_VERIFY:
        create(Ledger.PENDING, note=step.note)
    elif action is Action.PROMOTE:
        assert target is not None
        ledger, reason, why = beliefs.confirmation(view, target)     # a hypothesis waits for its premises
        move(target, ledger, reason, "; ".join(n for n in (step.note, why) if n) or None)
        contested = view.entry(target.target_id) if target.target_id else None
        if ledger is Ledger.ACCEPTED and contested is not None and contested.ledger is Ledger.ACCEPTED:
            move(contested, Ledger.HISTORY, Reason.SUPERSEDED, f"superseded by verified {target.id}")
    elif action is Action.CLOSE:
        assert target is not None
        if step.reason is None:
            raise InvalidStep("reason", None, "close needs a reason (retracted, expired, rejected, ...)")
        move(target, Ledger.HISTORY, step.reason, step.note)
    else:  # pragma: no cover - Action is closed
        raise InvalidStep("action", action, "unknown action")

    moves += beliefs.consequences(view, created, moves, tx=tx, cascade_to=cascade_to)
    return Transaction(
        tx=tx, namespace=namespace, action=action, at=at, target_id=target.id if target else None,
        claim=claim, decision=step.decision, created=tuple(created), moves=tuple(moves),
    )


def _target(view: StateView, step: Step, namespace: str) -> Entry | None:
    action = step.action
    if step.target_id is None:
        if action in _NEEDS_ACCEPTED_TARGET or action in (Action.PROMOTE, Action.CLOSE):
            raise InvalidStep("target_id", None, f"{action.value} needs a target entry")
        return None
    target = view.entry(step.target_id)
    if target is None or target.namespace != namespace:
        raise UnknownEntry("target_id", step.target_id, f"no such entry in namespace {namespace!r}")
    if action in _NEEDS_ACCEPTED_TARGET and target.ledger is not Ledger.ACCEPTED:
        raise InvalidStep("target_id", step.target_id, f"{action.value} needs an Accepted target, it is in {target.ledger.value}")
    if action is Action.PROMOTE and target.ledger is not Ledger.PENDING:
        raise InvalidStep("target_id", step.target_id, f"promote needs a Pending entry, it is in {target.ledger.value}")
    if action is Action.CLOSE and target.ledger is Ledger.HISTORY:
        raise InvalidStep("target_id", step.target_id, "the entry is already in History")
    return target


def _check_premises(view: StateView, claim: Claim, replaces: Entry | None = None) -> None:
    """Premises exist, are listed once, and the claim does not close a loop of justifications.

    Entries are immutable and ids fresh, so the one way a new claim closes a loop is by resting
    (transitively) on the entry it replaces: a revision (or a contested claim, once promoted) would
    push its own premise out and cascade itself. Refused here, before anything is written."""
    if len(set(claim.depends_on)) != len(claim.depends_on):
        dup = next(p for p in claim.depends_on if claim.depends_on.count(p) > 1)
        raise InvalidStep("depends_on", dup, "a premise is listed twice")
    for premise in claim.depends_on:
        found = view.entry(premise)
        if found is None or found.namespace != claim.namespace:
            raise UnknownEntry("depends_on", premise, f"no such entry in namespace {claim.namespace!r}")
    path = beliefs.justification_loop(view, claim.depends_on, replaces.id if replaces is not None else None)
    if path:
        raise InvalidStep("depends_on", path[0],
                          f"would make a dependency cycle: the claim rests on {' -> '.join(path)}, which it replaces")


class MemoryState:
    """All entries of one namespace in memory: the executor's view for simulation, and what
    ``state()`` and replay return. ``apply`` is the only way it changes."""

    def __init__(self, namespace: str, entries: Iterable[Entry] = ()) -> None:
        self.namespace = namespace
        self.entries: dict[str, Entry] = {e.id: e for e in entries}
        self.tx = 0

    def entry(self, entry_id: str) -> Entry | None:
        return self.entries.get(entry_id)

    def dependents(self, entry_id: str, include_history: bool = False) -> list[Entry]:
        return [e for e in self.entries.values()
                if entry_id in e.depends_on and (include_history or e.ledger is not Ledger.HISTORY)]

    def apply(self, transaction: Transaction) -> MemoryState:
        for entry in transaction.created:
            self.entries[entry.id] = entry
        for m in transaction.moves:
            if m.from_ledger is not None:
                self.entries[m.entry_id] = self.entries[m.entry_id].moved(m.to_ledger, transaction.tx, m.reason, m.note)
        self.tx = max(self.tx, transaction.tx)
        return self

    def copy(self) -> MemoryState:
        clone = MemoryState(self.namespace, self.entries.values())
        clone.tx = self.tx
        return clone

    def ledger(self, ledger: Ledger) -> list[Entry]:
        return sorted((e for e in self.entries.values() if e.ledger is ledger), key=lambda e: (e.created_tx, e.id))

    @property
    def accepted(self) -> list[Entry]:
        return self.ledger(Ledger.ACCEPTED)

    @property
    def pending(self) -> list[Entry]:
        return self.ledger(Ledger.PENDING)

    @property
    def history(self) -> list[Entry]:
        return self.ledger(Ledger.HISTORY)

    def ids(self) -> dict[Ledger, set[str]]:
        return {ledger: {e.id for e in self.ledger(ledger)} for ledger in Ledger}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryState) and self.namespace == other.namespace and self.entries == other.entries

    def __repr__(self) -> str:
        counts = ", ".join(f"{ledger.value}={len(self.ledger(ledger))}" for ledger in Ledger)
        return f"MemoryState({self.namespace!r}, {counts})"
