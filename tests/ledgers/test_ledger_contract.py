"""One ``LedgerStore`` contract, run on every backend: SQLite (a real file) and PostgreSQL (a real server,
``TARL_TEST_PG_URL``; on CI a missing server fails these tests)."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime, timezone
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core.executor import MemoryState, Step, execute
from shared_core.ledgers import LedgerStore, PostgresLedgerStore, SQLiteLedgerStore
from shared_core.schema import Action, Claim, Ledger, Reason

AT = datetime(2026, 5, 1, tzinfo=timezone.utc)


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request, tmp_path):
    """Opens stores on one fresh backend; each call is a new connection, as another process would have."""
    if request.param == "sqlite":
        yield lambda: SQLiteLedgerStore(tmp_path / "ledger.db")
    else:
        url = request.getfixturevalue("pg_url")
        yield lambda: PostgresLedgerStore(url)


@pytest.fixture
def store(opener):
    s = opener()
    yield s
    s.close()


def run(store: LedgerStore, namespace: str, *steps: Step, ids=None) -> list:
    done = []
    with store.writer() as w:
        for step in steps:
            kw = {"make_id": lambda: f"e{next(ids)}"} if ids is not None else {}
            done.append(execute(w, step, namespace=namespace, tx=w.next_tx(), at=AT, **kw))
            w.record(done[-1])
    return done


def claim(text: str, **kw) -> Claim:
    return Claim(text=text, namespace=kw.pop("namespace", "u"), observed_at=AT, **kw)


def test_records_and_reads_back(store):
    ids = count(1)
    run(store, "u", Step(Action.APPEND, claim("Ana lives in Rome", slot="home")), ids=ids)
    run(store, "u", Step(Action.REVISE, claim("Ana lives in Oslo", slot="home"), target_id="e1"),
        Step(Action.DEFER_VERIFY, claim("Ana may own a cat")), ids=ids)
    run(store, "v", Step(Action.APPEND, claim("Ben likes tea", namespace="v")), ids=ids)
    assert store.head() == 4
    assert store.entry("e1").ledger is Ledger.HISTORY and store.entry("e1").reason is Reason.SUPERSEDED
    assert [e.id for e in store.entries(["e3", "nope", "e2"])] == ["e3", "e2"]
    assert [e.id for e in store.ledger("u", Ledger.ACCEPTED)] == ["e2"]
    assert [e.id for e in store.slot("u", "home")] == ["e1", "e2"]
    assert store.count() == 4 and store.count("u", Ledger.PENDING) == 1
    assert store.namespaces() == ["u", "v"]
    assert store.touching("e1") == [1, 2]
    assert [(tx, m.entry_id) for tx, m in store.moves_since(2)] == [(3, "e3"), (4, "e4")]
    assert store.state("u", as_of=1).ids()[Ledger.ACCEPTED] == {"e1"}
    replayed = MemoryState("u")
    for t in store.log("u"):
        replayed.apply(t)
    assert replayed.entries == store.state("u").entries


def test_meta(store):
    assert store.get_meta("k") is None
    store.set_meta("k", "1")
    store.set_meta("k", "2")
    assert store.get_meta("k") == "2"
    assert store.setdefault_meta("id", "a") == "a" and store.setdefault_meta("id", "b") == "a"


def test_a_failed_transaction_writes_nothing(store):
    with pytest.raises(RuntimeError):
        with store.writer() as w:
            w.record(execute(w, Step(Action.APPEND, claim("Ana lives in Rome")), namespace="u", tx=w.next_tx(), at=AT))
            raise RuntimeError("the decision failed half-way")
    assert store.head() == 0 and store.count() == 0
    run(store, "u", Step(Action.APPEND, claim("Ana lives in Rome")))
    assert store.head() == 1


def test_a_writer_reads_its_own_uncommitted_steps(store):
    with store.writer() as w:
        t = execute(w, Step(Action.APPEND, claim("Ana lives in Rome")), namespace="u", tx=w.next_tx(), at=AT)
        w.record(t)
        new = t.created[0].id
        assert w.entry(new) is not None and w.next_tx() == 2
        w.record(execute(w, Step(Action.CLOSE, target_id=new, reason=Reason.RETRACTED), namespace="u",
                         tx=w.next_tx(), at=AT))
    assert store.entry(new).ledger is Ledger.HISTORY


def _raw(store):
    """A plain connection to the store's database, as a person with the database shell would have."""
    if isinstance(store, SQLiteLedgerStore):
        con = sqlite3.connect(store.path, isolation_level=None)
        return con, (lambda sql: con.execute(sql)), sqlite3.DatabaseError
    import psycopg

    con = psycopg.connect(store.path, autocommit=True)
    return con, (lambda sql: con.execute(sql.replace("REPLACE INTO", "INSERT INTO"))), psycopg.Error


@pytest.mark.parametrize("sql", [
    "UPDATE entries SET text = 'Ana lives in Paris'",
    "UPDATE entries SET source = 'admin'",
    "UPDATE entries SET ledger = 'pending'",
    "DELETE FROM entries",
    "DELETE FROM premises",
    "UPDATE premises SET premise_id = entry_id",
    "DELETE FROM moves",
    "UPDATE moves SET to_ledger = 'history'",
    "DELETE FROM transactions",
    "UPDATE transactions SET action = 'noop'",
    "INSERT INTO entries SELECT * FROM entries ON CONFLICT (id) DO UPDATE SET text = 'x'",
    "INSERT INTO transactions SELECT * FROM transactions ON CONFLICT (tx) DO UPDATE SET action = 'noop'",
])
def test_the_database_refuses_rewrites_on_every_backend(store, sql):
    ids = count(1)
    run(store, "u", Step(Action.APPEND, claim("Ana lives in Rome")), ids=ids)
    run(store, "u", Step(Action.APPEND, claim("Ana bikes in Rome", depends_on=("e1",))), ids=ids)
    before = store.state("u"), list(store.log())
    con, execute_sql, error = _raw(store)
    try:
        with pytest.raises(error):
            execute_sql(sql)
    finally:
        con.close()
    assert (store.state("u"), list(store.log())) == before


def test_truncate_is_refused_on_postgres(store):
    if not isinstance(store, PostgresLedgerStore):
        pytest.skip("SQLite has no TRUNCATE")
    run(store, "u", Step(Action.APPEND, claim("Ana lives in Rome")))
    con, execute_sql, error = _raw(store)
    with pytest.raises(error):
        execute_sql("TRUNCATE entries, transactions, moves, premises")
    con.close()
    assert store.count() == 1


def test_a_new_sqlite_store_opened_by_several_writers_at_once_opens_for_each(tmp_path):
    """Switching a new file to WAL needs its lock, and SQLite answers "database is locked" at once instead
    of waiting (5 of 60 such races failed before the open retried: the concurrent-writers test below, on CI)."""
    errors: list[str] = []
    for rep in range(100):
        path, start = tmp_path / f"ledger{rep}.db", threading.Barrier(6)

        def work() -> None:
            start.wait()
            try:
                s = SQLiteLedgerStore(path)
                for _ in range(3):
                    with s.writer():
                        pass
                s.close()
            except sqlite3.OperationalError as exc:
                errors.append(str(exc))

        threads = [threading.Thread(target=work) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []


def test_concurrent_writers_keep_one_accepted_per_slot(opener):
    """Four connections (as four processes would hold) each decide 'replace the slot's value' from
    what they read inside their transaction: the write lock makes every decision see the last one."""
    def work(k: int) -> None:
        s = opener()
        try:
            for i in range(15):
                with s.writer() as w:
                    current = w.by_slot("u", "home")
                    c = claim(f"writer {k} says Ana lives in city {i}", slot="home")
                    step = Step(Action.REVISE, c, target_id=current[0].id) if current else Step(Action.APPEND, c)
                    w.record(execute(w, step, namespace="u", tx=w.next_tx(), at=AT))
        finally:
            s.close()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s = opener()
    try:
        assert s.head() == 60 and [t.tx for t in s.log()] == list(range(1, 61))
        assert len([e for e in s.slot("u", "home") if e.ledger is Ledger.ACCEPTED]) == 1
        assert s.count("u", Ledger.HISTORY) == 59
    finally:
        s.close()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["append", "revise", "defer", "promote", "close"]), st.integers(0, 5)),
                min_size=1, max_size=12))
def test_replay_equals_state_on_every_backend(opener, plan):
    s = opener()
    try:
        ns = f"n{s.head()}"                      # the database outlives hypothesis examples: one namespace each
        for op, k in plan:
            state = s.state(ns)
            accepted, pending = state.accepted, state.pending
            if op == "append" or (op == "revise" and not accepted):
                step = Step(Action.APPEND, claim(f"fact {k}", namespace=ns))
            elif op == "revise":
                step = Step(Action.REVISE, claim(f"fact {k} revised", namespace=ns), target_id=accepted[k % len(accepted)].id)
            elif op == "defer" or not pending and op == "promote":
                step = Step(Action.DEFER_VERIFY, claim(f"maybe {k}", namespace=ns))
            elif op == "promote":
                step = Step(Action.PROMOTE, target_id=pending[k % len(pending)].id)
            elif accepted:
                step = Step(Action.CLOSE, target_id=accepted[k % len(accepted)].id, reason=Reason.RETRACTED)
            else:
                continue
            run(s, ns, step)
        replayed = MemoryState(ns)
        for t in s.log(ns):
            replayed.apply(t)
        assert replayed.entries == s.state(ns).entries
    finally:
        s.close()


def test_entries_and_open_ids_read_past_the_parameter_limit(store, monkeypatch):
    from shared_core.ledgers import sql

    monkeypatch.setattr(sql, "IDS_PER_QUERY", 7)           # as if 70k ids met a 10k limit
    done = run(store, "u", *[Step(Action.APPEND, claim(f"fact number {i}")) for i in range(20)])
    ids = [t.created[0].id for t in done]
    store_ids = [*reversed(ids), "no-such-id"]
    assert [e.id for e in store.entries(store_ids)] == list(reversed(ids))
    assert [i for i, _ in store.open_ids("u")] == ids and store.open_ids("other") == []
