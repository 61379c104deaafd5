"""The index on a real Chroma server (``chroma run`` on loopback), as a deployment with a shared server."""

from __future__ import annotations

import pytest

from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger


@pytest.mark.enable_socket
def test_engine_on_a_chroma_server_survives_reopen(tmp_path, chroma_url):
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="ana", slot="home"))
        eng.write(Claim(text="Ana lives in Oslo now", namespace="ana", slot="home"))
        eng.flush()
        assert eng.index.ids() == {e.id for e in eng.accepted("ana")}
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:      # a fresh process would do the same
        hits = eng.search("where does Ana live", "ana")
        assert [h.entry.text for h in hits] == ["Ana lives in Oslo now"]
        assert all(h.entry.ledger is Ledger.ACCEPTED for h in hits)


@pytest.mark.enable_socket
def test_two_stores_on_one_server_keep_their_own_rows(tmp_path, chroma_url, index_and_ledger):
    with MemoryEngine.open(tmp_path / "a", chroma_url=chroma_url) as a:
        a.write(Claim(text="Ana lives in Rome", namespace="u"))
        a.flush()
        with MemoryEngine.open(tmp_path / "b", chroma_url=chroma_url) as b:    # opening b must not touch a's rows
            b.write(Claim(text="Ben lives in Oslo", namespace="u"))
            b.flush()
            assert [h.entry.text for h in b.search("lives in", "u")] == ["Ben lives in Oslo"]
        indexed, truth = index_and_ledger(a)
        assert indexed == truth and len(indexed) == 1
        assert [h.entry.text for h in a.search("lives in", "u")] == ["Ana lives in Rome"]


@pytest.mark.enable_socket
def test_a_missing_ledger_never_wipes_the_index_on_a_server(tmp_path, chroma_url, index_and_ledger):
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:
        eng.write(Claim(text="Ana lives in Rome", namespace="u"))
        eng.flush()
        name, (rows, _) = eng.index.collection.name, index_and_ledger(eng)
    (tmp_path / "ledger.db").rename(tmp_path / "ledger.bak")
    for suffix in ("-wal", "-shm"):
        (tmp_path / f"ledger.db{suffix}").unlink(missing_ok=True)
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as fresh:      # a new, empty store: its own collection
        assert fresh.index.collection.name != name and fresh.accepted("u") == []
        assert index_and_ledger(fresh) == ({}, {})
        assert fresh.index.client.get_collection(name).count() == len(rows) == 1


@pytest.mark.enable_socket
def test_a_backlog_larger_than_one_server_request_is_indexed(tmp_path, chroma_url, index_and_ledger):
    from shared_core.executor import Step
    from shared_core.schema import Action

    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:     # the server refuses 4,000 rows at once
        eng.apply("u", [Step(Action.APPEND, Claim(text=f"fact number {i} about item {i % 97}", namespace="u"))
                        for i in range(4100)])
        eng.flush()
        indexed, truth = index_and_ledger(eng)
        assert indexed == truth and len(indexed) == 4100
