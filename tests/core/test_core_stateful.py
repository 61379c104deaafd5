"""Ledger invariants under random claims and random explicit steps (hypothesis state machine)."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.executor import MemoryState, Step
from shared_core.schema import Action, Claim, Ledger, Reason

NS = "u"
SUBJECTS = ["Ana", "Ben"]
FACTS = ["lives in Rome", "lives in Oslo", "likes tea", "does not like tea", "has 2 cats", "has 3 cats", "works at Acme"]
SOURCES = ["user", "tool", "assistant", "third_party", "web"]

claims = st.builds(
    lambda subj, fact, hedge, source, conf, slot: Claim(
        text=("maybe " if hedge else "") + f"{subj} {fact}", namespace=NS, source=source, confidence=conf,
        slot=f"{subj}:{fact.split()[0]}" if slot else None,
    ),
    st.sampled_from(SUBJECTS), st.sampled_from(FACTS), st.booleans(), st.sampled_from(SOURCES),
    st.floats(0.0, 1.0), st.booleans(),
)


class Ledgers(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.engine = MemoryEngine.open()
        self.snapshots: dict[int, MemoryState] = {}
        self.history: dict[str, object] = {}

    @rule(claim=claims)
    def write(self, claim: Claim) -> None:
        d = self.engine.write(claim)
        assert d.action in {Action.APPEND, Action.NOOP, Action.REVISE, Action.REJECT_CONFLICT, Action.DEFER_VERIFY}
        self.snapshots[d.tx] = self.engine.state(NS)

    @precondition(lambda self: self.engine.store.count(NS) > 0)
    @rule(data=st.data(), action=st.sampled_from(list(Action)), reason=st.sampled_from(list(Reason)), claim=claims)
    def explicit_step(self, data, action: Action, reason: Reason, claim: Claim) -> None:
        ids = [e.id for e in self.engine.state(NS).entries.values()] + ["missing"]
        step = Step(action, claim, data.draw(st.sampled_from(ids + [None])), reason)
        before, head = self.engine.state(NS), self.engine.store.head()
        try:
            (t,) = self.engine.apply(NS, [step])
        except TarlError:
            assert self.engine.state(NS) == before and self.engine.store.head() == head
            return
        self.snapshots[t.tx] = self.engine.state(NS)

    @invariant()
    def every_entry_in_exactly_one_ledger(self) -> None:
        seen: list[str] = []
        for lg in Ledger:
            seen += [e.id for e in self.engine.store.ledger(NS, lg)]
        assert len(seen) == len(set(seen)) == self.engine.store.count(NS)

    @invariant()
    def history_only_grows(self) -> None:
        now = {e.id: e for e in self.engine.history(NS)}
        for entry_id, entry in self.history.items():
            assert now.get(entry_id) == entry
        self.history = dict(now)

    @invariant()
    def log_replays_to_state(self) -> None:
        replayed = MemoryState(NS)
        for t in self.engine.log(NS):
            replayed.apply(t)
        assert replayed.entries == self.engine.state(NS).entries

    @invariant()
    def as_of_equals_what_was_observed(self) -> None:
        for tx, seen in self.snapshots.items():
            assert self.engine.state(NS, as_of=tx).entries == seen.entries

    @invariant()
    def index_matches_open_ledgers(self) -> None:
        open_ids = {e.id for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in self.engine.store.ledger(NS, lg)}
        self.engine.flush()
        assert self.engine.index.ids() == open_ids

    def teardown(self) -> None:
        self.engine.reindex()
        open_ids = {e.id for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in self.engine.store.ledger(NS, lg)}
        self.engine.flush()
        assert self.engine.index.ids() == open_ids
        self.engine.close()


TestLedgers = Ledgers.TestCase
TestLedgers.settings = settings(max_examples=25, stateful_step_count=20, deadline=None,
                                suppress_health_check=[HealthCheck.too_slow])
