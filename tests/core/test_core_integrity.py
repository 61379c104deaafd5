"""The ledger's promises hold at the database and at the facade: nothing rewrites the log or an entry's
content, and bad input (a truthy string for a bool, a bogus as_of, a wild vector, invisible text) is
refused with an error naming the field, before anything is written."""

from __future__ import annotations

import sqlite3
import unicodedata

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from shared_core.errors import TarlError
from shared_core.executor import Step
from shared_core.schema import Action, Claim, Ledger


def append(engine, claim: Claim) -> str:
    return engine.apply(claim.namespace, [Step(Action.APPEND, claim)])[0].created[0].id


def defer(engine, claim: Claim) -> str:
    return engine.apply(claim.namespace, [Step(Action.DEFER_VERIFY, claim)])[0].created[0].id


@pytest.fixture
def db(disk_engine):
    """The engine's store, plus a second plain connection as a person with the sqlite3 shell would use."""
    a = append(disk_engine, Claim(text="Ana lives in Rome", namespace="u"))
    b = append(disk_engine, Claim(text="Ana bikes around Rome", namespace="u", depends_on=(a,)))
    disk_engine.flush()
    con = sqlite3.connect(disk_engine.store.path, isolation_level=None)
    yield con, a, b
    con.close()


@pytest.mark.parametrize("sql", [
    "REPLACE INTO entries SELECT id, namespace, 'Ana lives in Paris', source, confidence, observed_at, valid_from, "
    "valid_to, slot, metadata, depends_on, target_id, ledger, reason, note, created_tx, closed_tx FROM entries WHERE id = :a",
    "INSERT OR REPLACE INTO transactions SELECT tx, namespace, 'noop', at, target_id, claim, decision FROM transactions WHERE tx = 1",
    "INSERT OR REPLACE INTO moves SELECT tx, seq, entry_id, from_ledger, 'history', reason, note FROM moves WHERE tx = 1",
    "INSERT OR REPLACE INTO premises VALUES (:b, :a)",
    "UPDATE entries SET text = 'Ana lives in Paris' WHERE id = :a",
    "UPDATE entries SET source = 'admin' WHERE id = :a",
    "UPDATE entries SET namespace = 'v' WHERE id = :a",
    "UPDATE entries SET depends_on = '[]' WHERE id = :b",
    "UPDATE entries SET ledger = 'history', reason = 'retracted', closed_tx = 2 WHERE id = :a",
    "UPDATE entries SET ledger = 'pending' WHERE id = :a",
    "DELETE FROM premises WHERE entry_id = :b",
    "UPDATE premises SET premise_id = :b WHERE entry_id = :b",
    "DELETE FROM entries WHERE id = :a",
    "DELETE FROM moves",
    "UPDATE transactions SET action = 'noop'",
])
def test_the_database_refuses_rewrites(db, sql):
    con, a, b = db
    before = [con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in ("entries", "transactions", "moves", "premises")]
    with pytest.raises(sqlite3.DatabaseError):
        con.execute(sql, {"a": a, "b": b})
    assert [con.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall()
            for t in ("entries", "transactions", "moves", "premises")] == before


def test_history_is_final_at_the_database(db):
    con, a, b = db
    with pytest.raises(sqlite3.DatabaseError, match="History is final"):
        con.execute("INSERT INTO transactions VALUES (99, 'u', 'promote', '2026-01-01', NULL, NULL, NULL)")
        con.execute("INSERT INTO moves VALUES (99, 0, ?, 'history', 'accepted', NULL, NULL)", (a,))


def test_logged_moves_still_change_the_ledger(disk_engine):
    d = disk_engine.write(Claim(text="Ana lives in Rome", namespace="u"))
    disk_engine.retract(d.entry_id, note="moved away")
    assert disk_engine.get(d.entry_id).ledger is Ledger.HISTORY


@pytest.mark.parametrize("accept", ["false", "true", 0, 1, None])
def test_verify_takes_a_bool(engine, accept):
    pending_id = defer(engine, Claim(text="Ana might move to Oslo", namespace="u"))
    with pytest.raises(TarlError, match="accept"):
        engine.verify(pending_id, accept)
    assert engine.get(pending_id).ledger is Ledger.PENDING and engine.store.head() == 1


@pytest.mark.parametrize("as_of", ["abc", "1", 1.0, True, -1, 99])
def test_as_of_is_a_transaction_number(engine, as_of):
    engine.write(Claim(text="Ana lives in Rome", namespace="u"))
    with pytest.raises(TarlError, match="as_of"):
        engine.state("u", as_of=as_of)
    assert len(engine.state("u", as_of=0).entries) == 0 and len(engine.state("u", as_of=1).accepted) == 1


@pytest.mark.parametrize("closed", ["retract", "defer"])
def test_a_claim_on_a_premise_outside_accepted_does_not_enter_accepted(engine, closed):
    if closed == "retract":
        premise = append(engine, Claim(text="Ana lives in Rome", namespace="u"))
        engine.retract(premise)
    else:
        premise = defer(engine, Claim(text="Ana lives in Rome", namespace="u"))
    d = engine.write(Claim(text="Ana bikes to work in Rome", namespace="u", depends_on=(premise,)))
    assert d.entry_id is None or engine.get(d.entry_id).ledger is not Ledger.ACCEPTED
    assert engine.get(append(engine, Claim(text="Ana commutes by bike", namespace="u", depends_on=(premise,)))).ledger \
        is Ledger.PENDING
    assert [e.text for e in engine.accepted("u")] == []
    assert engine.search("Ana bikes to work in Rome", "u") == []


@pytest.mark.parametrize("vector, why", [
    (np.full(256, 1e30), "norm"),
    (np.full(256, np.nan), "finite"),
    (np.ones(3) / np.sqrt(3), "256"),
    (np.zeros(256), "norm"),
    ("not a vector", "finite"),
])
def test_caller_vectors_are_checked(engine, vector, why):
    defer(engine, Claim(text="Ben owns a red kayak", namespace="u"))
    dim = engine.index.embedder.dim
    if why == "256":
        why = str(dim)
    elif not isinstance(vector, str) and len(vector) == 256:
        vector = np.resize(vector, dim)
    with pytest.raises(TarlError, match=why):
        engine.write(Claim(text="Ana lives in Rome", namespace="u"), vector=vector)
    assert engine.store.head() == 1 and [e.text for e in engine.pending("u")] == ["Ben owns a red kayak"]


def test_a_unit_caller_vector_is_used(engine):
    v = engine.index.embed(["Ana lives in Rome"])[0]
    d = engine.write(Claim(text="Ana lives in Rome", namespace="u"), vector=v.astype(np.float64))
    assert engine.get(d.entry_id).ledger is Ledger.ACCEPTED


_INVISIBLE = [c for c in map(chr, range(0x3000)) if unicodedata.category(c)[0] in "ZC"] + ["\u200b", "\u200d", "\ufeff"]


@settings(max_examples=60, deadline=None)
@given(st.text(st.sampled_from(_INVISIBLE), min_size=1, max_size=12))
def test_text_without_a_visible_character_is_refused(text):
    with pytest.raises(ValidationError, match="visible"):
        Claim(text=text)


@pytest.mark.parametrize("text", ["\x00", "\u200b\u200b", "\x00 \u200d \ufeff"])
def test_invisible_claims_write_nothing(engine, text):
    with pytest.raises(ValidationError, match="text"):
        engine.write({"text": text, "namespace": "u"})
    assert engine.store.head() == 0


def test_a_unit_knows_the_entries_it_recorded_as_their_rows_hold_them(disk_engine):
    """The writer keeps the entries its records wrote instead of reading them back: what it answers must be
    what a SELECT of the rows parses to, types included (a created entry, a revised one, nested metadata)."""
    from shared_core import executor
    from shared_core.schema import utcnow

    store = disk_engine.store
    old = append(disk_engine, Claim(text="Ana lives in Rome", namespace="u", metadata={"tags": ["x", 1], "n": None}))
    with store.writer("u") as w:
        new = Claim(text="Ana lives in Oslo", namespace="u", confidence=1, metadata={"k": {"a": [1, 2.5]}, "b": True})
        t = executor.execute(w, Step(Action.REVISE, new, old), namespace="u", tx=w.next_tx(), at=utcnow())
        w.record(t)
        moved = list(dict.fromkeys(m.entry_id for m in t.moves))
        assert len(moved) == 2
        for i in moved:
            assert repr(w.entry(i)) == repr(store._one(i))      # (inside the unit: the same connection)
