"""Truth maintenance inside one transaction: what else must move when an entry moves.

The executor applies a step's own moves, then calls ``consequences``, which settles the rest to a
fixpoint over an overlay of the view (the state as it will be once this transaction commits). All
consequences land in the same transaction as their trigger, so ``state(ns, as_of=tx)`` never shows a
half-propagated memory. History is final: nothing here ever moves an entry out of History (the
ledger's promise that History only grows holds for beliefs too); what must stay revocable is parked
in Pending with a reason instead. The rules (Doyle-style JTMS, one justification per entry = its
``depends_on``):

1. Cascade: an entry leaving Accepted (or closing into History) takes every Accepted dependent out
   too (reason ``premise_retracted``), transitively. Default target Pending: the dependent may still
   be true and waits for re-verification; History if the caller asks (``cascade_to``) or the
   dependent's ``metadata["cascade_to"] == "history"``.
2. Pruning: a hypothesis or experiment whose premise is out of play cannot hold: if the premise is
   closed (History: refuted, retracted, expired...) it is pruned for good (History, ``pruned``); if the
   premise is only parked (exhausted or pruned in Pending, revocable) it is parked too (Pending,
   ``pruned``).
3. Restoration (decision): a dependent IS restored when its premise is restored, without
   re-derivation: a Pending ``premise_retracted`` entry returns to Accepted once all its premises are
   Accepted again (e.g. the premise was verified; likewise an ``awaiting_premises`` hypothesis,
   confirmed before its premises were), and a parked ``pruned`` hypothesis returns to
   untested once none of its premises is out of play (e.g. its exhausted parent was reopened). A
   closed premise never comes back (History is final), so neither does what was pruned for good.
4. Results: a new Accepted result entry moves its hypothesis (confirmed -> Accepted, or Pending
   ``awaiting_premises`` while a premise is not Accepted; refuted -> History ``refuted``) and
   completes its experiment. Withdrawing a confirming result (retracting the
   result entry) returns the hypothesis to untested; a withdrawn refutation stays on record and
   changes nothing (propose the hypothesis again to re-test it).
5. Exclusion groups: in a closed-world group whose closed-world assumption is Accepted, one confirmed
   member exhausts the others in play (parked in Pending, ``exhausted``); when all members but one are
   refuted or pruned, the last one is deduced (Accepted, reason ``deduced``). Evidence that contradicts
   the closed world (two members confirmed, or every member refuted) refutes the closed-world
   assumption itself, which withdraws every deduction made from it: exhausted members and deduced
   members are back in play, untested. The same happens when the basis of a deduction goes (the
   confirmed answer withdrawn, a pruned member back in play). An open group (or one whose assumption
   fell) never exhausts or deduces anything.
"""

from __future__ import annotations

from collections import Counter, deque
from typing import TYPE_CHECKING

from ..errors import InvalidStep
from ..schema import Entry, Ledger, Move, Reason
from . import kinds as K

if TYPE_CHECKING:
    from ..executor import StateView

MAX_MOVES_PER_ENTRY = 8
"""Propagation that moves one entry more often than this in one transaction is a bug, not a state."""
_ELIMINATED = (Reason.REFUTED, Reason.PRUNED)
_PARKED = (Reason.PRUNED, Reason.EXHAUSTED)
_WAITING = (Reason.PREMISE_RETRACTED, Reason.AWAITING_PREMISES)
_PRUNABLE = (K.HYPOTHESIS, K.EXPERIMENT)


class Overlay:
    """The view as it will be after this transaction's moves so far (new entries included)."""

    def __init__(self, view: StateView, created: list[Entry], moves: list[Move], tx: int) -> None:
        self.view, self.tx = view, tx
        self.created = {e.id: e for e in created}
        self.now: dict[str, Entry] = {}
        self.moves: list[Move] = []
        self._count: Counter[str] = Counter()
        for m in moves:
            if m.from_ledger is not None:
                before = self.entry(m.entry_id)
                assert before is not None
                self.now[m.entry_id] = before.moved(m.to_ledger, tx, m.reason, m.note)

    def entry(self, entry_id: str) -> Entry | None:
        if entry_id in self.now:
            return self.now[entry_id]
        if entry_id in self.created:
            return self.created[entry_id]
        return self.view.entry(entry_id)

    def dependents(self, entry_id: str) -> list[Entry]:
        """Every entry resting on ``entry_id``, in any ledger (History too: refuted members of a group
        ground its deductions, and History is where pruning stops)."""
        ids = [e.id for e in self.view.dependents(entry_id, include_history=True)]
        ids += [e.id for e in self.created.values() if entry_id in e.depends_on]
        found = (self.entry(i) for i in dict.fromkeys(ids))
        return [e for e in found if e is not None]

    def move(self, entry: Entry, to: Ledger, reason: Reason | None, note: str) -> tuple[Entry, Entry]:
        assert entry.ledger is not Ledger.HISTORY, f"History is final: {entry.id}"
        self._count[entry.id] += 1
        if self._count[entry.id] > MAX_MOVES_PER_ENTRY:
            raise InvalidStep("depends_on", entry.id, "belief propagation does not settle (a loop through this entry)")
        after = entry.moved(to, self.tx, reason, note)
        self.now[entry.id] = after
        self.moves.append(Move(entry_id=entry.id, from_ledger=entry.ledger, to_ledger=to, reason=reason, note=note))
        return entry, after

    def premises(self, entry: Entry) -> list[Entry]:
        return [p for p in (self.entry(i) for i in entry.depends_on) if p is not None]


def consequences(view: StateView, created: list[Entry], moves: list[Move], *, tx: int = 0,
                 cascade_to: Ledger = Ledger.PENDING) -> list[Move]:
    """The moves that settle memory after ``created`` and ``moves`` (see the module docstring)."""
    if cascade_to is Ledger.ACCEPTED:
        raise InvalidStep("cascade_to", cascade_to.value, "dependents leave Accepted: pending or history")
    o = Overlay(view, created, moves, tx)
    queue: deque[tuple[Entry | None, Entry]] = deque((None, e) for e in created)
    for m in moves:
        if m.from_ledger is not None:
            before = view.entry(m.entry_id)
            after = o.entry(m.entry_id)
            if before is not None and after is not None:
                queue.append((before, after))
    while queue:
        before, x = queue.popleft()
        current = o.entry(x.id)
        x = current if current is not None else x
        for change in _step(o, before, x, cascade_to):
            queue.append(change)
    return o.moves


def cascade(view: StateView, moves: list[Move], cascade_to: Ledger = Ledger.PENDING) -> list[Move]:
    """The consequences of ``moves`` alone (no new entries): kept for callers of the first API."""
    return consequences(view, [], moves, cascade_to=cascade_to)


def _step(o: Overlay, before: Entry | None, x: Entry, cascade_to: Ledger) -> list[tuple[Entry, Entry]]:
    changes: list[tuple[Entry, Entry]] = []
    if before is None:
        if K.kind(x) == K.RESULT and x.ledger is Ledger.ACCEPTED:
            changes += _apply_result(o, x)
        if K.kind(x) in _PRUNABLE and x.ledger is not Ledger.HISTORY and any(_out(p) for p in o.premises(x)):
            changes.append(_reopen(o, x, "written on a premise out of play"))     # born pruned
    else:
        changes += _dependents(o, before, x, cascade_to)
        if K.kind(x) == K.RESULT and before.ledger is Ledger.ACCEPTED and x.ledger is not Ledger.ACCEPTED:
            changes += _withdraw_result(o, x)
    groups = [K.group_of(x)]
    if before is not None and x.ledger is Ledger.ACCEPTED and before.ledger is not Ledger.ACCEPTED:
        groups += [K.group_of(d) for d in o.dependents(x.id)]   # a member's other premise may enable a deduction
    for group in dict.fromkeys(g for g in groups if g is not None):
        changes += _settle_group(o, group)
    return changes


def _dependents(o: Overlay, before: Entry, x: Entry, cascade_to: Ledger) -> list[tuple[Entry, Entry]]:
    # an Accepted dependent may rest on a Pending premise (appended so); it goes when that premise closes
    left_accepted = x.ledger is not Ledger.ACCEPTED and (before.ledger is Ledger.ACCEPTED or x.ledger is Ledger.HISTORY)
    entered_accepted = x.ledger is Ledger.ACCEPTED and before.ledger is not Ledger.ACCEPTED
    changes = []
    for dep in o.dependents(x.id):
        if dep.ledger is Ledger.HISTORY:                 # History is final
            continue
        if K.kind(dep) in _PRUNABLE:
            if x.ledger is Ledger.HISTORY:
                changes.append(o.move(dep, Ledger.HISTORY, Reason.PRUNED, f"pruned: premise {x.id} is {_why(x)}"))
                continue
            if _out(x) and not _out(dep):
                changes.append(o.move(dep, Ledger.PENDING, Reason.PRUNED, f"pruned: premise {x.id} is {_why(x)}"))
                continue
            if not _out(x) and dep.reason is Reason.PRUNED and not any(_out(p) for p in o.premises(dep)):
                changes.append(o.move(dep, Ledger.PENDING, None, f"restored: premise {x.id} is back in play"))
                continue
        if left_accepted and dep.ledger is Ledger.ACCEPTED:
            target = Ledger.HISTORY if dep.metadata.get(K.CASCADE_TO) == "history" else cascade_to
            changes.append(o.move(dep, target, Reason.PREMISE_RETRACTED, f"premise {x.id} left accepted"))
        elif (entered_accepted and dep.ledger is Ledger.PENDING and dep.reason in _WAITING
              and all(p.ledger is Ledger.ACCEPTED for p in o.premises(dep))):
            changes.append(o.move(dep, Ledger.ACCEPTED, None, f"restored: premise {x.id} is accepted again"))
    return changes


def _apply_result(o: Overlay, r: Entry) -> list[tuple[Entry, Entry]]:
    h = o.entry(r.metadata[K.OF])
    assert h is not None                        # checked by kinds.check_claim before execution
    changes = []
    e = r.metadata.get(K.EXPERIMENT_KEY)
    exp = o.entry(e) if isinstance(e, str) else None
    if exp is not None and exp.ledger is Ledger.PENDING:
        changes.append(o.move(exp, Ledger.HISTORY, Reason.COMPLETED, f"result {r.id}: {r.metadata[K.OUTCOME]}"))
    h = o.entry(h.id) or h
    if h.ledger is Ledger.HISTORY:              # already closed for good: the result is kept as evidence
        return changes
    if r.metadata[K.OUTCOME] == K.CONFIRMED:
        ledger, reason, why = K.confirmation(o, h)
        if (h.ledger, h.reason) != (ledger, reason):
            changes.append(o.move(h, ledger, reason, f"confirmed by result {r.id}" + (f"; {why}" if why else "")))
    else:
        changes.append(o.move(h, Ledger.HISTORY, Reason.REFUTED, f"refuted by result {r.id}"))
    return changes


def _withdraw_result(o: Overlay, r: Entry) -> list[tuple[Entry, Entry]]:
    """A confirmation withdrawn: the hypothesis is untested again. A refutation withdrawn changes
    nothing: the hypothesis is in History, which is final (propose it again to re-test it)."""
    h = o.entry(r.metadata.get(K.OF, ""))
    if h is None or r.metadata.get(K.OUTCOME) != K.CONFIRMED:
        return []
    if h.ledger is not Ledger.ACCEPTED and h.reason is not Reason.AWAITING_PREMISES:
        return []
    return [_reopen(o, h, f"untested again: result {r.id} withdrawn")]


def _settle_group(o: Overlay, group_id: str) -> list[tuple[Entry, Entry]]:
    deps = o.dependents(group_id)
    members = [d for d in deps if K.kind(d) == K.HYPOTHESIS and d.metadata.get(K.GROUP_KEY) == group_id]
    assumptions = [d for d in deps if K.kind(d) == K.CLOSED_WORLD and d.ledger is Ledger.ACCEPTED]
    accepted = [m for m in members if m.ledger is Ledger.ACCEPTED]
    if not assumptions:                                  # open group: no deduction stands
        return [_reopen(o, m, f"reopened: group {group_id} is open")
                for m in members if _exhausted(m) or (m.ledger is Ledger.ACCEPTED and m.reason is Reason.DEDUCED)]
    every_refuted = bool(members) and all(m.reason is Reason.REFUTED for m in members)
    if len(accepted) >= 2 or every_refuted:
        why = (f"members {', '.join(m.id for m in accepted)} are all confirmed" if len(accepted) >= 2
               else "every member is refuted")
        return [o.move(c, Ledger.HISTORY, Reason.REFUTED, f"closed world of group {group_id} contradicted: {why}")
                for c in assumptions]
    if len(accepted) == 1:
        (answer,) = accepted
        if answer.reason is Reason.DEDUCED and _deducible(o, members) != answer.id:
            return [_reopen(o, answer, f"deduction withdrawn: group {group_id} has another member in play")]
        return [o.move(m, Ledger.PENDING, Reason.EXHAUSTED, f"exhausted: {answer.id} answers closed group {group_id}")
                for m in members if m.ledger is Ledger.PENDING and not _out(m)]
    changes = [_reopen(o, m, f"reopened: group {group_id} has no confirmed answer") for m in members if _exhausted(m)]
    if changes:
        return changes
    last = _deducible(o, members)
    if last is not None:
        only = o.entry(last)
        assert only is not None
        return [o.move(only, Ledger.ACCEPTED, Reason.DEDUCED,
                       f"deduced: the only member of closed group {group_id} still in play")]
    return []


def _deducible(o: Overlay, members: list[Entry]) -> str | None:
    """The member a closed world implies: every other member refuted or pruned, its premises Accepted."""
    alive = [m for m in members if not (m.reason in _ELIMINATED and m.ledger is not Ledger.ACCEPTED)]
    if len(members) < 2 or len(alive) != 1:
        return None
    (only,) = alive
    if only.ledger is Ledger.HISTORY or not all(p.ledger is Ledger.ACCEPTED for p in o.premises(only)):
        return None
    return only.id


def _reopen(o: Overlay, m: Entry, note: str) -> tuple[Entry, Entry]:
    """Back in play, untested -- or pruned, if one of its own premises is out meanwhile."""
    out = [p for p in o.premises(m) if _out(p)]
    if any(p.ledger is Ledger.HISTORY for p in out):
        return o.move(m, Ledger.HISTORY, Reason.PRUNED, f"{note}; pruned: premise {out[0].id} is closed")
    if out:
        return o.move(m, Ledger.PENDING, Reason.PRUNED, f"{note}; pruned: premise {out[0].id} is {_why(out[0])}")
    return o.move(m, Ledger.PENDING, None, note)


def _out(e: Entry) -> bool:
    """Out of play: closed, or parked in Pending as pruned or exhausted (revocable)."""
    return e.ledger is Ledger.HISTORY or (e.ledger is Ledger.PENDING and e.reason in _PARKED)


def _why(e: Entry) -> str:
    return e.reason.value if e.reason else e.ledger.value


def _exhausted(m: Entry) -> bool:
    return m.ledger is Ledger.PENDING and m.reason is Reason.EXHAUSTED
