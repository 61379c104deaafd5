"""The beliefs API of ``MemoryEngine``: hypotheses, exclusion groups, experiments, drift, explain.

Conveniences that only build executor steps. What follows from them (cascades, pruning, exhaustion,
deductions, reopening) is computed by the executor inside the same transaction, so every instant
replays with ``state(ns, as_of=tx)``. Kept apart from the engine so each file stays one concept.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import UnknownEntry
from ..executor import MemoryState, Step
from ..schema import Action, Entry, Ledger, Reason, Transaction
from . import claims
from .drift import expired, expires_at, valid_at
from .explain import Explanation, explain
from .hypotheses import Status, best, frontier, sample, status

if TYPE_CHECKING:
    from ..ledgers import LedgerStore

_T = TypeVar("_T")


class BeliefsAPI:
    """Mixed into ``MemoryEngine``; relies on its store, clock, state reads and ``transact``."""

    if TYPE_CHECKING:
        store: LedgerStore
        clock: Callable[[], datetime]

        def state(self, namespace: str, as_of: int | None = None) -> MemoryState: ...
        def namespaces(self) -> list[str]: ...
        def _entry(self, entry_id: str) -> Entry: ...
        def transact(self, namespace: str, body: Callable[..., _T]) -> _T: ...


    def exclusion_group(self, question: str, namespace: str, *, closed_world: bool = True, **fields: Any) -> Entry:
        """A question with competing answers (members join via ``hypothesis(..., group=id)``).
        Closed-world: confirming one member exhausts the others, the last one standing is deduced; the
        assumption is its own entry, so evidence against it refutes it and reopens the group."""
        claim = claims.group(question, _namespace(namespace), **fields)

        def body(run: Callable[[Step], Transaction]) -> Entry:
            group = run(Step(Action.APPEND, claim)).created[0]
            if closed_world:
                run(Step(Action.APPEND, claims.closed_world(group)))
            return group

        return self.transact(namespace, body)

    def hypothesis(self, text: str, namespace: str, *, prior: float = 0.5, depends_on: Sequence[str] = (),
                   group: str | None = None, **fields: Any) -> Entry:
        """An untested hypothesis (Pending) resting on ``depends_on``; ``group``: its exclusion group."""
        claim = claims.hypothesis(text, _namespace(namespace), prior, depends_on, group, **fields)
        return self.transact(namespace, lambda run: run(Step(Action.DEFER_VERIFY, claim)).created[0])

    def start_experiment(self, hypothesis_id: str, text: str | None = None, **fields: Any) -> Entry:
        """Mark a hypothesis in progress: an experiment entry (Pending) resting on it."""
        claim = claims.experiment(self._entry(hypothesis_id), text, **fields)
        return self.transact(claim.namespace, lambda run: run(Step(Action.DEFER_VERIFY, claim)).created[0])

    def record_result(self, hypothesis_id: str, confirmed: bool, *, experiment_id: str | None = None,
                      text: str | None = None, **fields: Any) -> Transaction:
        """An experiment's outcome, kept as an Accepted result entry; in the same transaction it moves
        the hypothesis, completes the experiment and settles what follows (pruning, exhaustion,
        deduction). Retracting a confirming result makes the hypothesis untested again; a refutation
        is final (History is final)."""
        claim = claims.result(self._entry(hypothesis_id), confirmed, experiment_id, text, **fields)
        return self.transact(claim.namespace, lambda run: run(Step(Action.APPEND, claim)))

    def status(self, entry_id: str, *, as_of: int | None = None) -> Status:
        """Lifecycle status: untested, in_progress, confirmed, deduced, refuted, pruned, exhausted, ..."""
        state, entry = self._belief_view(entry_id, as_of)
        return status(state, entry)

    def frontier(self, namespace: str) -> list[Entry]:
        """Untested hypotheses whose premises are all Accepted: what can usefully be tested now."""
        state = self.state(namespace)
        return frontier(state, state.pending)

    def next_to_test(self, namespace: str, *, seed: int | random.Random | None = None,
                     greedy: bool = False) -> Entry | None:
        """A frontier hypothesis sampled in proportion to its prior (``greedy``: the highest prior), or
        None. ``seed``: an int for a reproducible draw, or a ``random.Random`` to draw a sequence from."""
        if greedy:
            return best(self.frontier(namespace))
        return sample(self.frontier(namespace), seed if isinstance(seed, random.Random) else random.Random(seed))

    def sweep(self, now: datetime | None = None, namespace: str | None = None) -> list[Transaction]:
        """Drift: close every open entry whose ``valid_to`` or ``metadata["ttl_seconds"]`` ran out by
        ``now`` into History (reason expired), dependents following as usual. Idempotent."""
        now, done = now or self.clock(), []
        for ns in [_namespace(namespace)] if namespace is not None else self.namespaces():
            open_ = self.store.ledger(ns, Ledger.ACCEPTED) + self.store.ledger(ns, Ledger.PENDING)
            candidates = [e.id for e in expired(open_, now)]

            def body(run: Callable[[Step], Transaction]) -> None:
                for entry_id in candidates:                   # an earlier close may have cascaded it
                    for e in expired([self.store.entry(entry_id)], now):
                        done.append(run(Step(Action.CLOSE, target_id=e.id, reason=Reason.EXPIRED,
                                             note=f"expired: valid until {expires_at(e)}")))

            if candidates:
                self.transact(ns, body)
        return done

    def valid_at(self, namespace: str, when: datetime, *, as_of: int | None = None) -> list[Entry]:
        """Accepted entries valid at time ``when`` (validity and TTL), now or after transaction ``as_of``."""
        return [e for e in self.state(namespace, as_of).accepted if valid_at(e, when)]

    def explain(self, entry_id: str, *, as_of: int | None = None) -> Explanation:
        """Why ``entry_id`` is where it is: its justification chain (premises with their statuses), the
        experiments and results about it, its group's basis, and every transaction that moved it."""
        state, entry = self._belief_view(entry_id, as_of)
        txs = [tx for tx in self.store.touching(entry_id) if as_of is None or tx <= as_of]
        rows = [t for tx in txs for t in self.store.log(entry.namespace, after=tx - 1, upto=tx)]
        return explain(state, entry, state.entries.values(), rows)

    def _belief_view(self, entry_id: str, as_of: int | None) -> tuple[MemoryState, Entry]:
        state = self.state(self._entry(entry_id).namespace, as_of)
        found = state.entry(entry_id)
        if found is None:
            raise UnknownEntry("entry_id", entry_id, f"did not exist yet at transaction {as_of}")
        return state, found



def _namespace(namespace: str) -> str:
    from ..engine import _check_namespace

    return _check_namespace(namespace)
