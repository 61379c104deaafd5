"""An embedded store's collection is built with the lower HNSW effort (its graph is never searched by the
engine); reopening keeps the collection as it was made, and its rows are still found by id and by vector."""

from datetime import datetime, timezone

from shared_core.index import chroma
from shared_core.index.embedders import default_embedder
from shared_core.schema import Entry, Ledger


def _entry(i: int, text: str) -> Entry:
    return Entry(id=f"e{i}", namespace="ns", text=text, ledger=Ledger.ACCEPTED, source="user", confidence=0.9,
                 observed_at=datetime(2026, 1, 1, tzinfo=timezone.utc), created_tx=i + 1)


def test_an_embedded_collection_is_built_with_the_lower_effort_and_still_finds_its_rows(tmp_path) -> None:
    texts = ["Alice lives in Lisbon", "Bob plays the cello", "the lease ends in May", "order #1001 shipped"]
    client = chroma.persistent_client(tmp_path)
    index = chroma.EntryIndex(client, default_embedder(), store_id="s1")
    assert index.created and index.collection.metadata["hnsw:construction_ef"] == chroma.CONSTRUCTION_EF
    index.write([_entry(i, t) for i, t in enumerate(texts)], {})
    best = index.query(index.embed(["Bob plays the cello"])[0], "ns", 1)
    assert best[0][0] == "e1" and best[0][1] > 0.99
    assert set(index.vectors_of(["e0", "e3", "nope"])) == {"e0", "e3"}
    client.close()
    again = chroma.persistent_client(tmp_path)
    reopened = chroma.EntryIndex(again, default_embedder(), store_id="s1")
    assert not reopened.created and reopened.count() == 4
    assert reopened.collection.metadata["hnsw:construction_ef"] == chroma.CONSTRUCTION_EF
    again.close()


def test_a_served_collection_keeps_chromas_default_effort(tmp_path) -> None:
    # the flag is what a Chroma server's index gets: its graph answers the engine's reads (served.py)
    client = chroma.persistent_client(tmp_path)
    index = chroma.EntryIndex(client, default_embedder(), store_id="s2", served=True)
    assert "hnsw:construction_ef" not in (index.collection.metadata or {})
    client.close()
