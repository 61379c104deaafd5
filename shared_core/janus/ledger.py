"""Janus decisions as TARL transactions, so every accept and reject is replayable and explainable.

Reflections live as entries of one namespace (source ``reflection``). For each decision:
- accepted candidate: one atomic ``engine.apply`` -- changed items ``revise`` the item they replace
  (old -> History/superseded), new items ``append``, dropped items ``close`` as superseded;
- rejected candidate: its new and changed items go to History with reason ``rejected`` and a note that
  Janus rejected them (``reject_conflict`` against the item a change would have replaced; a brand-new
  item has no such target: it is parked and closed, see ``_reject_new``); items it would have dropped get a logged ``noop``;
  the current items stay Accepted;
- every step carries a ``Decision`` whose rationale is ``JanusDecision.explain()`` and whose margin is
  the score difference, so ``engine.log`` says why.

    >>> ledger = JanusLedger(engine, "agent-7/reflections")
    >>> gate = JanusController(propose, evaluate, embed, memory=ledger.memory(), sink=ledger)

Used as the controller's ``sink``, a failed write also leaves the controller unchanged.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from shared_core.executor import MemoryState, Step
from shared_core.janus.controller import JanusDecision, Memory, Verdict
from shared_core.janus.errors import JanusError
from shared_core.schema import Action, Claim, Decision, Reason, Transaction

SOURCE = "reflection"


class LedgerEngine(Protocol):
    """The engine methods Janus needs (``MemoryEngine`` has them)."""

    def apply(self, namespace: str, steps: Sequence[Step]) -> list[Transaction]: ...

    def transact(self, namespace: str, body: Callable[..., list[Transaction]]) -> list[Transaction]: ...

    def state(self, namespace: str, as_of: int | None = None) -> MemoryState: ...


@dataclass(frozen=True)
class MemoryDiff:
    """How a candidate differs from the current memory, item by item."""

    appended: tuple[str, ...] = ()
    revised: tuple[tuple[str, str], ...] = ()
    """(old item, new item) pairs: the new one takes the old one's place."""
    removed: tuple[str, ...] = ()

    @property
    def new_items(self) -> tuple[str, ...]:
        return self.appended + tuple(new for _, new in self.revised)


def memory_diff(current: Sequence[str], candidate: Sequence[str]) -> MemoryDiff:
    """Align the two item lists (difflib); a replaced block pairs items in order as revisions, and what
    is left over on either side is appended or removed. Updaters rewrite a cheat-sheet in place, so a
    changed item usually sits where the item it rewrites sat."""
    appended: list[str] = []
    revised: list[tuple[str, str]] = []
    removed: list[str] = []
    matcher = difflib.SequenceMatcher(a=list(current), b=list(candidate), autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        old, new = list(current[i1:i2]), list(candidate[j1:j2])
        if op in ("replace", "delete", "insert"):
            pairs = min(len(old), len(new))
            revised += zip(old[:pairs], new[:pairs])
            removed += old[pairs:]
            appended += new[pairs:]
    return MemoryDiff(tuple(appended), tuple(revised), tuple(removed))


class JanusLedger:
    """Writes Janus decisions into ``namespace`` of an engine; callable, so it can be the ``sink``."""

    def __init__(
        self,
        engine: LedgerEngine,
        namespace: str = "reflections",
        *,
        slot: Callable[[str], str | None] | None = None,
    ) -> None:
        self.engine, self.namespace, self.slot = engine, namespace, slot

    def memory(self) -> Memory:
        """The Accepted reflections, oldest first: what the controller should start from."""
        return tuple(e.text for e in self.engine.state(self.namespace).accepted)

    def __call__(self, decision: JanusDecision) -> list[Transaction]:
        return self.record(decision)

    def record(self, decision: JanusDecision) -> list[Transaction]:
        """Write one decision atomically; raises ``JanusError`` if the ledger no longer holds the memory
        the decision started from (someone else wrote to the namespace)."""
        ids = self._ids_of(decision.current)
        diff = memory_diff(decision.current, decision.candidate)
        if decision.verdict is Verdict.UNCHANGED:
            return []
        why = _why(decision)
        if decision.accepted:
            note = f"janus step {decision.step}: {decision.verdict.value}"
            steps = [Step(Action.REVISE, self._claim(new, decision), ids[old].pop(), note=note,
                          decision=why(Action.REVISE)) for old, new in diff.revised]
            steps += [Step(Action.APPEND, self._claim(text, decision), decision=why(Action.APPEND))
                      for text in diff.appended]
            steps += [Step(Action.CLOSE, target_id=ids[text].pop(), reason=Reason.SUPERSEDED,
                           note=f"{note}: dropped by the accepted candidate", decision=why(Action.CLOSE))
                      for text in diff.removed]
            return self.engine.apply(self.namespace, steps)
        note = f"janus rejected (step {decision.step}): {decision.explain()}"
        steps = [Step(Action.REJECT_CONFLICT, self._claim(new, decision), ids[old][-1], note=note,
                      decision=why(Action.REJECT_CONFLICT)) for old, new in diff.revised]
        # an item the candidate would have dropped stays; a noop against it logs that decision
        steps += [Step(Action.NOOP, self._claim(text, decision), ids[text][-1], note=note, decision=why(Action.NOOP))
                  for text in diff.removed]
        return self._reject_new(steps, [self._claim(t, decision) for t in diff.appended], note, why)

    def _reject_new(
        self, steps: list[Step], claims: list[Claim], note: str, why: Callable[[Action], Decision]
    ) -> list[Transaction]:
        """Rejected brand-new items have no Accepted entry to conflict with (``reject_conflict`` needs
        one), so each is parked in Pending and closed as rejected -- inside the same engine transaction
        as the rest of the decision, so it is all or nothing."""

        def body(run: Callable[[Step], Transaction]) -> list[Transaction]:
            done = [run(s) for s in steps]
            for claim in claims:
                parked = run(Step(Action.DEFER_VERIFY, claim, note=note, decision=why(Action.DEFER_VERIFY)))
                done += [parked, run(Step(Action.CLOSE, target_id=parked.created[0].id, reason=Reason.REJECTED,
                                          note=note, decision=why(Action.CLOSE)))]
            return done

        return self.engine.transact(self.namespace, body)

    def _ids_of(self, memory: Memory) -> _Ids:
        ids: _Ids = _Ids()
        for entry in self.engine.state(self.namespace).accepted:
            ids.setdefault(entry.text, []).append(entry.id)
        held = sorted(t for t, v in ids.items() for _ in v)
        if held != sorted(t.strip() for t in memory):
            raise JanusError(
                f"namespace {self.namespace!r} holds {len(held)} accepted reflections that differ from the "
                f"decision's current memory ({len(memory)} items); reload with JanusLedger.memory()"
            )
        return ids

    def _claim(self, text: str, decision: JanusDecision) -> Claim:
        meta = {"janus_step": decision.step, "janus_verdict": decision.verdict.value}
        return Claim(text=text, namespace=self.namespace, source=SOURCE,
                     slot=self.slot(text) if self.slot else None, metadata=meta)


class _Ids(dict[str, list[str]]):
    """Accepted entry ids by text. Claims are stored stripped, so lookups strip too."""

    def __getitem__(self, text: str) -> list[str]:
        return super().__getitem__(text.strip())


def _why(decision: JanusDecision) -> Callable[[Action], Decision]:
    """The log's explanation of each step: Janus's verdict, scores and evaluation set."""
    margin = 0.0
    if decision.score_candidate is not None and decision.score_current is not None:
        margin = decision.score_candidate - decision.score_current

    def why(action: Action) -> Decision:
        return Decision(action=action, margin=margin, rationale=decision.explain())

    return why
