"""The engine on PostgreSQL + a Chroma server: the only state its processes share is the ledger
database and the Chroma server."""

from __future__ import annotations

import pytest

from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.schema import Claim


def test_a_postgres_ledger_needs_a_chroma_server(pg_url):
    with pytest.raises(TarlError, match="chroma_url"):
        MemoryEngine.open(pg_url)


@pytest.mark.enable_socket
def test_engine_on_postgres_and_chroma_survives_reopen(pg_url, chroma_url, index_and_ledger):
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        eng.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
        eng.flush()
        indexed, truth = index_and_ledger(eng)
        assert indexed == truth
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        assert [h.entry.text for h in eng.search("where does Ana live", "ana")] == ["Ana lives in Oslo now"]
        assert [e.text for e in eng.history("ana")] == ["Ana lives in Rome"]


def test_opening_a_store_waits_for_no_writer(pg_url):
    """A second process opening the store while a writer's transaction is open gets in at once: the DDL
    (which locks every table against writes) runs only when the database lacks this schema version."""
    import psycopg

    from shared_core.ledgers import PostgresLedgerStore

    PostgresLedgerStore(pg_url).close()                                    # the store exists
    with psycopg.connect(pg_url) as writer:                               # a writer mid-transaction
        writer.execute("LOCK TABLE entries, moves, transactions, premises IN ROW EXCLUSIVE MODE")
        impatient = pg_url + "?options=-c%20lock_timeout%3D3000"
        store = PostgresLedgerStore(impatient)                             # before: LockNotAvailable
        assert store.head() == 0
        store.close()
        writer.rollback()


def test_namespaces_decide_side_by_side_and_numbers_commit_in_order(pg_url):
    """A namespace writer holds its namespace from BEGIN and the store's order lock from its first
    transaction number to COMMIT; a store-wide writer waits for every namespace writer."""
    import psycopg

    from shared_core.ledgers import PostgresLedgerStore

    first = PostgresLedgerStore(pg_url)
    other = PostgresLedgerStore(pg_url + "?options=-c%20lock_timeout%3D300")
    try:
        with first.writer("u1") as w:
            assert w.head() == 0
            with other.writer("u2") as v:                       # another namespace reads and decides meanwhile
                assert v.head() == 0
            for namespace in ("u1", None):                      # the same namespace, the whole store: they wait
                with pytest.raises(psycopg.errors.LockNotAvailable):
                    with other.writer(namespace):
                        pass
            assert w.next_tx() == 1                             # first now holds the order lock ...
            with pytest.raises(psycopg.errors.LockNotAvailable):
                with other.writer("u2") as v:
                    v.next_tx()                                 # ... so another number waits for its COMMIT
        with other.writer("u2") as v:
            assert v.next_tx() == 1                             # nothing was recorded: the number is free again
    finally:
        first.close()
        other.close()
