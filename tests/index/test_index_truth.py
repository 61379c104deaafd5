"""The ledger is the one source of truth: derived state (the vector cache, the Chroma index) changes only
after COMMIT, is checked against the ledger by ids and states, and is never trusted over it."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import chromadb
import pytest

from shared_core.engine import MemoryEngine
from shared_core.errors import IndexUnavailable
from shared_core.executor import Step
from shared_core.schema import Action, Claim, Ledger

ROOT = Path(__file__).resolve().parents[2]


def append(engine, text, ns="u", **kw) -> str:
    return engine.apply(ns, [Step(Action.APPEND, Claim(text=text, namespace=ns, **kw))])[0].created[0].id


def open_states(engine) -> dict[str, Ledger]:
    return {e.id: e.ledger for ns in engine.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
            for e in engine.store.ledger(ns, lg)}


def indexed(engine) -> dict[str, Ledger]:
    got = engine.index.collection.get(include=["metadatas"])
    return {i: Ledger(m["ledger"]) for i, m in zip(got["ids"], got["metadatas"])}


def _deny_commit(action, arg, *_):
    return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_TRANSACTION and arg == "COMMIT" else sqlite3.SQLITE_OK


def test_a_revise_whose_commit_fails_leaves_search_intact(engine):
    old = append(engine, "Ana lives in Rome", slot="home")
    assert [h.entry.id for h in engine.search("where does Ana live", "u")] == [old]
    engine.store._db.set_authorizer(_deny_commit)          # the COMMIT fails, as on a full disk
    with pytest.raises(sqlite3.DatabaseError):
        engine.apply("u", [Step(Action.REVISE, Claim(text="Ana lives in Oslo", namespace="u", slot="home"), target_id=old)])
    engine.store._db.set_authorizer(None)
    assert engine.get(old).ledger is Ledger.ACCEPTED and engine.store.head() == 1
    assert [h.entry.id for h in engine.search("where does Ana live", "u")] == [old]
    engine.write(Claim(text="Ben likes tea", namespace="u"))        # and the store still takes writes
    engine.flush()
    assert indexed(engine) == open_states(engine)


def test_reconcile_repairs_an_index_with_the_right_count_and_the_wrong_rows(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        keep = append(eng, "Ana lives in Rome")
        lost = append(eng, "Ana has a cat named Miso")
        closed = append(eng, "Ana works at the bakery")
        eng.retract(closed)
        eng.flush()
        index = eng.index
        stale = eng.get(closed).model_copy(update={"ledger": Ledger.ACCEPTED})
        index.remove([lost])
        index.upsert([stale])                               # a closed entry marked accepted; count unchanged
        assert index.count() == 2 and indexed(eng) != open_states(eng)
    with MemoryEngine.open(tmp_path) as eng:
        eng.reconcile()             # open trusts the watermark (the count is right); reconcile compares every row
        assert indexed(eng) == open_states(eng) == {keep: Ledger.ACCEPTED, lost: Ledger.ACCEPTED}


def test_a_missing_ledger_beside_an_index_is_an_error_not_a_wipe(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        for i in range(5):
            append(eng, f"fact number {i}")
        name = eng.index.collection.name
    (tmp_path / "ledger.db").rename(tmp_path / "elsewhere.db")
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"ledger.db{suffix}").unlink(missing_ok=True)
    with pytest.raises(IndexUnavailable, match="ledger.db") as err:
        MemoryEngine.open(tmp_path)
    assert str(tmp_path) in str(err.value)
    client = chromadb.PersistentClient(path=str(tmp_path / "chroma"))
    assert client.get_collection(name).count() == 5             # the index is untouched
    client.close()


def test_a_damaged_index_names_its_path_and_the_fix_and_reindex_rebuilds_it(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        ids = [append(eng, f"Ana visited city number {i}") for i in range(20)]
    with open(tmp_path / "chroma" / "chroma.sqlite3", "r+b") as f:
        f.write(b"not a database" * 64)
    with pytest.raises(IndexUnavailable, match="tarl reindex") as err:
        MemoryEngine.open(tmp_path)
    assert str(tmp_path / "chroma") in str(err.value)
    code = ("import sys; from shared_core.engine import MemoryEngine\n"
            "with MemoryEngine.open(sys.argv[1], reindex=True) as e:\n"
            "    print(e.index.count(), e.search('Ana visited city number 7', 'u', k=1)[0].entry.id)")
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}).stdout.split()
    assert out == ["20", ids[7]]
    assert any(p.name.startswith("chroma.replaced-") for p in tmp_path.iterdir())   # kept, not deleted


def test_the_writer_respects_chromas_max_batch_size(engine):
    n = engine.index.client.get_max_batch_size() + 100
    engine.apply("u", [Step(Action.APPEND, Claim(text=f"fact {i}", namespace="u")) for i in range(n)])
    engine.flush()
    assert engine.index.count() == n


def test_index_failures_surface_at_flush_and_close(tmp_path):
    eng = MemoryEngine.open(tmp_path)
    append(eng, "Ana lives in Rome")
    eng.flush()
    eng.index.client.delete_collection(eng.index.collection.name)        # the index goes away behind the engine's back
    append(eng, "Ana has a cat")
    with pytest.raises(IndexUnavailable, match="ledger is intact"):
        eng.close()
    assert not eng.writer._thread.is_alive()


def test_close_releases_the_client_and_private_collections():
    client = chromadb.EphemeralClient()
    before = len(client.list_collections())
    engines = [MemoryEngine.open() for _ in range(3)]
    for e in engines:
        e.write(Claim(text="Ana lives in Rome", namespace="u"))
    assert len(client.list_collections()) == before + 3
    for e in engines:
        e.close()
    assert len(client.list_collections()) == before


def test_close_closes_the_chroma_client(tmp_path):
    eng = MemoryEngine.open(tmp_path)
    client = eng.index.client
    eng.close()
    with pytest.raises(Exception):                     # noqa: B017 - chromadb raises no public type here
        client.heartbeat()


def test_two_stores_in_one_chroma_never_share_rows(tmp_path):
    with MemoryEngine.open(tmp_path / "a") as a, MemoryEngine.open(tmp_path / "b") as b:
        assert a.index.collection.name != b.index.collection.name
    with MemoryEngine.open() as a, MemoryEngine.open() as b:
        append(a, "Ana lives in Rome")
        b.flush()
        assert b.index.count() == 0 and b.search("Ana lives in Rome", "u") == []


def test_open_reads_only_the_log_tail_and_rebuilds_a_lost_collection(tmp_path, monkeypatch):
    with MemoryEngine.open(tmp_path) as eng:
        ids = [append(eng, f"Ana visited city number {i}") for i in range(5)]
        eng.retract(ids[0])
    from shared_core.index.chroma import EntryIndex

    def whole_read(self):
        raise AssertionError("open read the index back")

    with monkeypatch.context() as m:                       # the watermark is trusted: no row is read back
        m.setattr(EntryIndex, "states", whole_read)
        m.setattr(EntryIndex, "count", whole_read)
        with MemoryEngine.open(tmp_path) as eng:
            append(eng, "Ana likes chess")
            eng.flush()
            eng.index.client.delete_collection(eng.index.name)    # the index is lost behind the engine's back
    with MemoryEngine.open(tmp_path) as eng:               # a collection that did not exist: rebuilt
        assert indexed(eng) == open_states(eng) and len(indexed(eng)) == 5
