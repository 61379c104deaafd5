"""Paging a ranked search: ``search(query=..., limit=, offset=)`` pages through every match exactly once,
as InMemoryStore's do. Found driving TarlStore as a LangGraph developer would (a query that shares no
word with several memories scores them all 0.0; pages used to repeat one of them and never show another)."""

from __future__ import annotations

import pytest

NS = ("users", "u1", "memories")


def test_pages_of_a_tied_query_show_each_item_once(any_store):
    for key, text in [("a", "likes tea"), ("b", "lives in Paris"), ("c", "has a dog named Rex")]:
        any_store.put(NS, key, {"text": text})
    pages = [[i.key for i in any_store.search(NS, query="pets", limit=1, offset=o)] for o in range(4)]
    assert sorted(k for page in pages for k in page) == ["a", "b", "c"]
    assert pages[-1] == []


@pytest.mark.parametrize("size", [2, 5])
def test_pages_of_a_query_cover_every_item_once(any_store, size):
    for i in range(12):
        any_store.put(NS, f"k{i:02d}", {"text": f"note {i} about {'cats' if i % 2 else 'dogs'}", "i": i})
    seen = [i.key for o in range(0, 12, size) for i in any_store.search(NS, query="cats", limit=size, offset=o)]
    assert sorted(seen) == [f"k{i:02d}" for i in range(12)]
    whole = [i.key for i in any_store.search(NS, query="cats", limit=12)]
    assert seen == whole                            # the pages are the one ranking, cut
