"""The engine facade on real files: persistence, reads, reconciliation, async twins."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest

from shared_core.engine import MemoryEngine
from shared_core.schema import Action, Claim, Ledger


def test_reopen_keeps_ledgers_and_index(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        eng.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
    with MemoryEngine.open(tmp_path) as eng:
        assert [e.text for e in eng.accepted("ana")] == ["Ana lives in Oslo now"]
        assert [h.entry.text for h in eng.search("Ana lives", "ana")] == ["Ana lives in Oslo now"]


def test_search_returns_accepted_only_and_isolates_namespaces(engine):
    engine.write(Claim(text="Ana likes green tea", namespace="ana"))
    engine.write(Claim(text="maybe Ana likes black tea", namespace="ana", source="assistant"))
    engine.write(Claim(text="Ben likes green tea", namespace="ben"))
    hits = engine.search("tea", "ana", k=10)
    assert [h.entry.text for h in hits] == ["Ana likes green tea"]
    assert all(h.entry.ledger is Ledger.ACCEPTED for h in hits)


def test_valid_at_filters_by_validity(engine):
    jan, mar = datetime(2026, 1, 1, tzinfo=timezone.utc), datetime(2026, 3, 1, tzinfo=timezone.utc)
    engine.write(Claim(text="Ana's badge code is 4411", namespace="ana", valid_to=datetime(2026, 2, 1, tzinfo=timezone.utc)))
    assert len(engine.search("badge code", "ana", valid_at=jan)) == 1
    assert engine.search("badge code", "ana", valid_at=mar) == []


def test_verify_and_retract_go_through_the_log(engine):
    d = engine.write(Claim(text="maybe Ana plays piano", namespace="ana", source="assistant"))
    assert d.action is Action.DEFER_VERIFY
    engine.verify(d.entry_id, accept=True)
    assert [e.id for e in engine.accepted("ana")] == [d.entry_id]
    engine.retract(d.entry_id, note="user said no")
    (gone,) = engine.history("ana")
    assert gone.reason.value == "retracted" and gone.note == "user said no"
    assert [t.action for t in engine.log("ana")] == [Action.DEFER_VERIFY, Action.PROMOTE, Action.CLOSE]
    assert engine.search("piano", "ana") == []


def test_index_behind_ledger_is_reconciled_on_open(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        eng.write(Claim(text="Ana likes chess", namespace="ana"))
        eng.flush()
        eng.store.set_meta("indexed_tx", "0")          # as if the process died before the index update
        eng.index.remove(eng.index.ids())
    with MemoryEngine.open(tmp_path) as eng:
        assert [h.entry.text for h in eng.search("chess", "ana")] == ["Ana likes chess"]


def test_ledger_is_inspectable_and_append_only(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        eng.write(Claim(text="Ana likes chess", namespace="ana"))
    db = sqlite3.connect(tmp_path / "ledger.db")
    assert db.execute("select text, ledger from entries").fetchall() == [("Ana likes chess", "accepted")]
    with pytest.raises(sqlite3.DatabaseError, match="never deleted"):
        db.execute("delete from entries")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("update transactions set action = 'noop'")


async def test_async_twins(engine):
    d = await engine.awrite(Claim(text="Ana likes chess", namespace="ana"))
    hits = await engine.asearch("chess", "ana")
    assert hits[0].entry.id == d.entry_id
    await asyncio.gather(*(engine.awrite(Claim(text=f"Ana fact {i}", namespace="ana")) for i in range(5)))
    assert engine.store.head() == 6


def test_by_slot_is_a_key_value_view(engine):
    engine.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
    engine.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
    assert [e.text for e in engine.by_slot("ana", "home")] == ["Ana lives in Oslo now"]
    assert [e.text for e in engine.by_slot("ana", "home", Ledger.HISTORY)] == ["Ana lives in Rome"]


def test_concurrent_threads_write_and_search_consistently(engine):
    from concurrent.futures import ThreadPoolExecutor

    def work(i: int) -> None:
        engine.write(Claim(text=f"Ana fact number {i} about topic {i % 5}", namespace="ana"))
        engine.search(f"topic {i % 5}", "ana", k=3)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(work, range(40)))
    engine.flush()
    open_ids = {e.id for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in engine.store.ledger("ana", lg)}
    assert engine.store.head() == 40
    assert engine.index.ids() == open_ids
    assert {i for i, _ in engine.vectors.query(engine.index.embed(["x"])[0], "ana", 100, (Ledger.ACCEPTED, Ledger.PENDING))} == open_ids


def test_two_engines_on_one_store_see_each_others_writes(tmp_path):
    with MemoryEngine.open(tmp_path) as a, MemoryEngine.open(tmp_path) as b:
        a.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        assert [h.entry.text for h in b.search("Ana lives in Rome", "ana")] == ["Ana lives in Rome"]
        d = b.write(Claim(text="Ana lives in Rome", namespace="ana"))
        assert d.action is Action.NOOP                       # b grounded on a's write
        b.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
        assert [h.entry.text for h in a.search("Ana lives", "ana")] == ["Ana lives in Oslo now"]


def test_search_right_after_a_batch_in_a_new_namespace(engine):
    from shared_core.executor import Step

    texts = ["Caroline went hiking in the mountains", "Melanie adopted a dog named Rex", "the weather is nice"]
    engine.apply("n", [Step(Action.APPEND, Claim(text=t, namespace="n")) for t in texts])
    hits = engine.search("who adopted a dog?", "n", k=1)      # before the Chroma write-behind caught up
    assert [h.entry.text for h in hits] == ["Melanie adopted a dog named Rex"]


def test_importing_the_core_is_light():
    import subprocess
    import sys

    code = "import shared_core, sys; print([m for m in ('torch', 'sklearn', 'chromadb', 'scipy') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


def test_a_committed_write_returns_even_if_preparing_its_features_fails(monkeypatch):
    """Per-text features are computed after COMMIT to speed later writes: their failure is logged, never
    raised to a caller whose write is already in the ledger (a retry would write it twice)."""
    from shared_core import decision
    from shared_core.executor import Step

    with MemoryEngine.open() as engine:
        def broken(item):
            raise RuntimeError("feature bug")

        monkeypatch.setattr(decision, "prepare", broken)
        d = engine.apply("ana", [Step(Action.APPEND, Claim(text="Ana lives in Rome", namespace="ana"))])
        assert [e.text for e in engine.accepted("ana")] == ["Ana lives in Rome"] and d[0].created


def test_an_expired_value_is_no_longer_served(engine):
    """``valid_to`` is how a value expires (the store's TTL): once it has passed, reads leave the entry out,
    before any sweep; as-of reads still find it, and the sweep then moves it to History."""
    past = datetime.now(timezone.utc) - timedelta(minutes=1)
    for i in range(6):
        engine.write(Claim(text=f"Ana's one-time code {i} is 44{i}1", namespace="ana", slot=f"otp{i}", valid_to=past))
    engine.write(Claim(text="Ana's one-time code 9 is 9999", namespace="ana", slot="otp9"))
    assert [h.entry.text for h in engine.search("one-time code", "ana", k=3)] == ["Ana's one-time code 9 is 9999"]
    assert [e.slot for e in engine.accepted("ana")] == ["otp9"] and engine.by_slot("ana", "otp0") == []
    assert len(engine.search("one-time code", "ana", k=10, valid_at=past - timedelta(minutes=1))) == 7
    engine.sweep()
    assert len(engine.history("ana")) == 6


def test_memory_path_is_in_memory_as_sqlite_names_it(tmp_path, monkeypatch):
    """``":memory:"`` (SQLite's name, as LangGraph's ``SqliteStore.from_conn_string`` takes it) is a private in-memory
    store, not a directory called ":memory:" in the working directory."""
    monkeypatch.chdir(tmp_path)
    engine = MemoryEngine.open(":memory:")
    try:
        engine.write(Claim(text="prefers dark mode", namespace="u"))
        assert [h.entry.text for h in engine.search("dark mode", "u")] == ["prefers dark mode"]
    finally:
        engine.close()
    assert list(tmp_path.iterdir()) == []
