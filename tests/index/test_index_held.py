"""The engine's held entries answer exactly as the ledger does, in the same order, whatever moved them:
its own writes, retractions, verifications, a failed transaction, and another process's commits."""

from __future__ import annotations

import random

import pytest

from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.executor import Step
from shared_core.index.held import HeldEntries
from shared_core.ledgers.sqlite import SQLiteLedgerStore
from shared_core.schema import Action, Claim, Ledger

SLOTS = ["Ana:lives in", "Ana:works at", "Ben:likes", "Ben:lives in"]
WORDS = ["Lisbon", "Porto", "Rome", "Acme", "Initech", "jazz", "techno", "Berlin"]


def _same(engine: MemoryEngine, ns: str = "n") -> None:
    rows = engine.vectors.rows
    for slot in SLOTS:
        assert rows.slot(ns, slot, open_only=True) == engine.store.slot(ns, slot, open_only=True), slot
    ids = [e.id for e in engine.store.state(ns).entries.values()]
    assert rows.entries(ids) == engine.store.entries(ids)


@pytest.mark.parametrize("seed", range(4))
def test_held_entries_follow_own_writes_retractions_and_verifications(seed: int) -> None:
    rng = random.Random(seed)
    with MemoryEngine.open() as engine:
        for _ in range(60):
            roll = rng.random()
            if roll < 0.6:
                slot = rng.choice(SLOTS)
                engine.write(Claim(text=f"{slot.split(':')[0]} {slot.split(':')[1]} {rng.choice(WORDS)}", namespace="n",
                                   slot=slot if rng.random() < 0.7 else None,
                                   source=rng.choice(["user", "user", "tool", "assistant"])))
            elif roll < 0.75 and (open_ := engine.accepted("n")):
                engine.retract(rng.choice(open_).id)
            elif roll < 0.9 and (waiting := engine.pending("n")):
                engine.verify(rng.choice(waiting).id, rng.random() < 0.5)
            else:           # several entries of one slot created by one transaction
                slot = rng.choice(SLOTS)
                engine.apply("n", [Step(Action.APPEND, Claim(text=f"{w} {slot}", namespace="n", slot=slot))
                                   for w in rng.sample(WORDS, 3)])
            _same(engine)


def test_a_failed_transaction_changes_nothing_held() -> None:
    with MemoryEngine.open() as engine:
        engine.write(Claim(text="Ana lives in Lisbon", namespace="n", slot="Ana:lives in"))
        _same(engine)
        with pytest.raises(TarlError):
            engine.apply("n", [Step(Action.APPEND, Claim(text="Ana lives in Rome", namespace="n", slot="Ana:lives in")),
                               Step(Action.CLOSE, target_id="no-such-entry", reason=None)])
        _same(engine)


def test_another_process_commits_are_folded_in(tmp_path) -> None:
    with MemoryEngine.open(tmp_path / "store") as engine:
        first = engine.write(Claim(text="Ana lives in Lisbon", namespace="n", slot="Ana:lives in"))
        _same(engine)
        other = SQLiteLedgerStore(tmp_path / "store" / "ledger.db")      # another writer, straight to the ledger
        with other.writer("n") as w:
            from shared_core import executor
            from shared_core.schema import Reason, utcnow

            tx = w.next_tx()
            w.record(executor.execute(w, Step(Action.CLOSE, target_id=first.entry_id, reason=Reason.RETRACTED),
                                      namespace="n", tx=tx, at=utcnow()))
        other.close()
        near, slot = engine.candidates(Claim(text="Ana lives in Rome", namespace="n", slot="Ana:lives in"),
                                       engine.index.embed(["Ana lives in Rome"])[0])
        assert slot == [] and near == []
        assert engine.store.entry(first.entry_id).ledger is Ledger.HISTORY
        _same(engine)


def test_a_slot_gaining_entries_out_of_creation_order_is_read_again() -> None:
    store = SQLiteLedgerStore()
    held = HeldEntries(store)
    assert held.slot("n", "s") == []
    from shared_core import executor
    from shared_core.schema import utcnow

    with store.writer("n") as w:
        tx = w.next_tx()
        t = executor.execute(w, Step(Action.APPEND, Claim(text="a", namespace="n", slot="s")), namespace="n", tx=tx, at=utcnow())
        w.record(t)
        t2 = executor.execute(w, Step(Action.APPEND, Claim(text="b", namespace="n", slot="s")), namespace="n", tx=tx + 1, at=utcnow())
        w.record(t2)
    held.moved(store.entries([t2.created[0].id, t.created[0].id]))      # out of order: dropped, read again
    assert held.slot("n", "s") == store.slot("n", "s", open_only=True)
    store.close()


def test_reads_past_the_limit_still_answer_everything(monkeypatch) -> None:
    import shared_core.index.held as held_module

    monkeypatch.setattr(held_module, "LIMIT", 3)
    with MemoryEngine.open() as engine:
        ids = [engine.write(Claim(text=f"Ana likes {w}", namespace="n")).entry_id for w in WORDS[:5]]
        rows = engine.vectors.rows
        rows.clear()
        assert [e.id for e in rows.entries(ids[:2])] == ids[:2]
        assert [e.id for e in rows.entries(ids)] == [e.id for e in engine.store.entries(ids)]
        _same(engine)
