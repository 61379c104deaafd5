"""The SQLite writer reads the log's head once per unit: true while BEGIN IMMEDIATE holds the lock, and
read afresh by every unit, so another connection's commits between two units are never overwritten."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from shared_core.executor import Step, execute
from shared_core.ledgers import SQLiteLedgerStore
from shared_core.schema import Action, Claim

AT = datetime(2025, 1, 1, tzinfo=timezone.utc)


def _append(store: SQLiteLedgerStore, text: str, steps: int = 1) -> list[int]:
    with store.writer("ns") as w:
        assert w.head() == w.next_tx() - 1
        done = []
        for k in range(steps):
            t = execute(w, Step(Action.APPEND, Claim(text=f"{text} {k}", namespace="ns")), namespace="ns",
                        tx=w.next_tx(), at=AT)
            w.record(t)
            done.append(t.tx)
            assert w.head() == t.tx
        return done


def test_each_unit_reads_the_head_another_connection_moved(tmp_path: Path) -> None:
    a, b = SQLiteLedgerStore(tmp_path / "ledger.db"), SQLiteLedgerStore(tmp_path / "ledger.db")
    assert _append(a, "Ana lives in Lisbon", steps=2) == [1, 2]
    assert _append(b, "Ben works at Acme") == [3]
    assert _append(a, "Ana likes jazz") == [4]          # not 3: the unit read the head again
    assert a.head() == b.head() == 4
    a.close(), b.close()
