"""``explain``: why an entry is where it is -- its chain of justifications and the transactions that
moved it. Pure: built from a state (current or replayed) and the log rows that touch the entry."""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from ..schema import Entry, Ledger, Reason, Transaction
from . import kinds as K
from .hypotheses import BeliefView, Status, status


class Justification(BaseModel):
    """One node of the justification tree: an entry and, recursively, what it rests on."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    ledger: Ledger
    reason: Reason | None = None
    status: Status
    note: str | None = None
    premises: tuple[Justification, ...] = ()


class Explanation(BaseModel):
    model_config = ConfigDict(frozen=True)

    entry: Entry
    status: Status
    justification: Justification
    evidence: tuple[Entry, ...] = ()
    """Experiments and results about this hypothesis, oldest first."""
    dependents: tuple[str, ...] = ()
    basis: tuple[Justification, ...] = ()
    """For a member of an exclusion group: the closed-world assumption (if any) and the other members,
    i.e. what an exhaustion or a deduction rested on."""
    transactions: tuple[Transaction, ...] = Field(default_factory=tuple)
    """Every transaction that created or moved the entry, oldest first."""

    def lines(self) -> list[str]:
        out: list[str] = []
        _tree(self.justification, 0, out)
        for b in self.basis:
            out.append(f"group basis {b.id} [{b.status.value}] {b.text!r}")
        for e in self.evidence:
            out.append(f"evidence {e.id} [{K.kind(e)}] {e.text!r} ({e.metadata.get(K.OUTCOME, e.ledger.value)})")
        for t in self.transactions:
            for m in t.moves:
                if m.entry_id == self.entry.id:
                    src = m.from_ledger.value if m.from_ledger else "new"
                    why = f" ({m.reason.value})" if m.reason else ""
                    out.append(f"tx {t.tx} {t.action.value}: {src} -> {m.to_ledger.value}{why}"
                               + (f": {m.note}" if m.note else ""))
        return out

    def __str__(self) -> str:
        return "\n".join(self.lines())


def justification(view: BeliefView, entry: Entry, _seen: frozenset[str] = frozenset()) -> Justification:
    premises = []
    for p in entry.depends_on:
        found = view.entry(p)
        if found is not None and p not in _seen:
            premises.append(justification(view, found, _seen | {entry.id}))
    return Justification(id=entry.id, text=entry.text, ledger=entry.ledger, reason=entry.reason,
                         status=status(view, entry), note=entry.note, premises=tuple(premises))


def explain(view: BeliefView, entry: Entry, entries: Iterable[Entry], transactions: Iterable[Transaction]) -> Explanation:
    """``entries``: the namespace's entries (for evidence); ``transactions``: log rows touching ``entry``."""
    evidence = sorted((e for e in entries if e.metadata.get(K.OF) == entry.id and e.id != entry.id),
                      key=lambda e: (e.created_tx, e.id))
    dependents = tuple(d.id for d in view.dependents(entry.id, include_history=True))
    touching = tuple(t for t in transactions if any(m.entry_id == entry.id for m in t.moves))
    group = K.group_of(entry) if K.kind(entry) == K.HYPOTHESIS else None
    basis = tuple(_shallow(view, e) for e in view.dependents(group, include_history=True)
                  if e.id != entry.id and K.kind(e) in (K.CLOSED_WORLD, K.HYPOTHESIS)
                  and K.group_of(e) == group) if group else ()
    return Explanation(entry=entry, status=status(view, entry), justification=justification(view, entry),
                       evidence=tuple(evidence), dependents=dependents, basis=basis, transactions=touching)


def _shallow(view: BeliefView, entry: Entry) -> Justification:
    return Justification(id=entry.id, text=entry.text, ledger=entry.ledger, reason=entry.reason,
                         status=status(view, entry), note=entry.note)


def _tree(node: Justification, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    out.append(f"{pad}{'rests on ' if depth else ''}{node.id} [{node.status.value}] {node.text!r}"
               + (f" -- {node.note}" if node.note else ""))
    for p in node.premises:
        _tree(p, depth + 1, out)
