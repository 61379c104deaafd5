"""LangGraph ``BaseStore`` conformance, written from LangGraph's own store semantics (``BaseStore`` and
``InMemoryStore`` and their tests in ``langchain-ai/langgraph``): put/get/delete, search with filters,
limit/offset and query, ``list_namespaces`` with match conditions and ``max_depth``, batch order, async
twins, timestamps, odd keys and rich values.

Every test runs on the reference ``InMemoryStore`` and on ``TarlStore`` in memory and on disk, under the
default policy. Where ``TarlStore`` differs by design the tests say so in one section ("where TarlStore
differs by design"), each of those a row of the README's store table; a change the shipped policy does not
yet make current is listed in :data:`POLICY_MISSES` (xfail, empty today).
"""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore
from shared_core import Action, Ledger, TarlError
from shared_core.index import default_embedder

from langchain_tarl import TarlStore

NS = ("memories", "alice")
_EMBEDDER = default_embedder()


def _embed(texts: list[str]) -> list[list[float]]:
    return _EMBEDDER(list(texts)).tolist()


@pytest.fixture(params=["in_memory", "tarl_memory", "tarl_disk"])
def store(request, tmp_path):
    """The reference store (indexed with the project's offline embedder, so a query ranks) and ours."""
    if request.param == "in_memory":
        yield InMemoryStore(index={"dims": _EMBEDDER.dim, "embed": _embed, "fields": ["text"]})
        return
    with TarlStore.open(tmp_path / "mem" if request.param == "tarl_disk" else None) as s:
        yield s


def is_tarl(store) -> bool:
    return isinstance(store, TarlStore)


def keys(items) -> list[str]:
    return [i.key for i in items]


# -- put / get / delete -----------------------------------------------------------------------------
def test_get_returns_what_was_put(store):
    value = {"text": "Alice drinks green tea", "kind": "habit"}
    store.put(NS, "tea", value)
    item = store.get(NS, "tea")
    assert (item.value, item.key, item.namespace) == (value, "tea", NS)


def test_get_missing_key_or_namespace_is_none(store):
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    assert store.get(NS, "coffee") is None and store.get(("memories", "bob"), "tea") is None
    assert store.get(("memories",), "tea") is None                    # a prefix is another namespace


def test_value_is_a_copy(store):
    value = {"text": "Alice has a cat", "tags": ["pet"]}
    store.put(NS, "cat", value)
    value["tags"] = ["mutated"]
    got = store.get(NS, "cat").value
    assert got == {"text": "Alice has a cat", "tags": ["pet"]}


@pytest.mark.parametrize(("old", "new"), [
    ({"text": "Alice drinks tea"}, {"text": "Alice drinks coffee"}),
    ({"text": "Buy milk", "done": False}, {"text": "Buy milk", "done": True}),      # same text, other field
    ({"text": "Order o1 ships to warehouse 1"}, {"text": "Order o1 ships to warehouse 7"}),
    ({"count": 1}, {"count": 2}),
    ({"text": "prefers dark mode"}, {"text": "prefers light mode"}),
])
def test_a_changed_value_on_the_same_key_becomes_current(store, old, new):
    store.put(NS, "k", old)
    store.put(NS, "k", new)
    current = store.get(NS, "k").value
    if is_tarl(store) and (old.get("text"), new.get("text")) in POLICY_MISSES:
        assert current == old and store.versions(NS, "k")[0].value == new     # not lost: it waits, visible
        pytest.xfail(POLICY_MISSES[old.get("text"), new.get("text")])
    assert current == new
    assert len(store.search(NS)) == 1


POLICY_MISSES: dict[tuple[str | None, str | None], str] = {}
"""(old text, new text) -> why the shipped policy does not make the change current yet (marked xfail;
the check above fails once it does: then remove the entry)."""


def test_putting_the_same_value_again_changes_nothing(store):
    store.put(NS, "k", {"text": "Alice drinks tea"})
    store.put(NS, "k", {"text": "Alice drinks tea"})
    assert store.get(NS, "k").value == {"text": "Alice drinks tea"} and len(store.search(NS)) == 1


def test_keys_are_independent(store):
    """Nine similar orders stay nine, and one person's city does not replace another's."""
    for i in range(10):
        store.put(NS, f"o{i}", {"text": f"Order {i} shipped to warehouse {i}"})
    store.put(NS, "alice_city", {"text": "Alice lives in Lisbon"})
    store.put(NS, "bob_city", {"text": "Bob lives in Porto"})
    assert [store.get(NS, f"o{i}").value["text"] for i in range(10)] == [
        f"Order {i} shipped to warehouse {i}" for i in range(10)]
    assert store.get(NS, "alice_city").value["text"] == "Alice lives in Lisbon"
    assert len(store.search(NS, limit=100)) == 12


def test_delete(store):
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    store.put(NS, "bike", {"text": "Alice rides a red bike"})
    store.delete(NS, "tea")
    assert store.get(NS, "tea") is None and keys(store.search(NS)) == ["bike"]
    store.delete(NS, "tea")                                            # deleting twice is fine
    store.delete(NS, "never-there")


def test_put_after_delete_restores_the_key(store):
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    store.delete(NS, "tea")
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    assert store.get(NS, "tea").value == {"text": "Alice drinks green tea"}


def test_put_value_none_deletes(store):
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    store.batch([PutOp(NS, "tea", None)])
    assert store.get(NS, "tea") is None


# -- search ------------------------------------------------------------------------------------------
DOCS = {
    "a": {"text": "Alice drinks green tea every morning", "kind": "habit", "rank": 1, "meta": {"lang": "en"}},
    "b": {"text": "Her bicycle is a red Peugeot", "kind": "object", "rank": 2, "meta": {"lang": "fr"}},
    "c": {"text": "Works as a marine biologist", "kind": "work", "rank": 3, "meta": {"lang": "en"},
          "tags": ["ocean", "fish"]},
}


def fill(store, ns=NS):
    for key, value in DOCS.items():
        store.put(ns, key, value)


def test_search_lists_a_namespace_and_its_children(store):
    fill(store)
    fill(store, NS + ("work",))
    assert sorted(keys(store.search(NS))) == ["a", "a", "b", "b", "c", "c"]
    assert sorted(keys(store.search(NS + ("work",)))) == ["a", "b", "c"]
    assert store.search(("nobody",)) == []
    assert {i.namespace for i in store.search(("memories",))} == {NS, NS + ("work",)}


@pytest.mark.parametrize(("flt", "expected"), [
    ({"kind": "work"}, {"c"}),
    ({"kind": {"$eq": "object"}}, {"b"}),
    ({"kind": {"$ne": "habit"}}, {"b", "c"}),
    ({"rank": {"$gt": 1}}, {"b", "c"}),
    ({"rank": {"$gte": 2, "$lt": 3}}, {"b"}),
    ({"rank": {"$lte": 2}}, {"a", "b"}),
    ({"meta": {"lang": "en"}}, {"a", "c"}),                            # nested object
    ({"tags": ["ocean", "fish"]}, {"c"}),                              # whole list
    ({"kind": "habit", "rank": 1}, {"a"}),                             # every condition
    ({"kind": "nothing"}, set()),
])
def test_search_filters(store, flt, expected):
    fill(store)
    assert set(keys(store.search(NS, filter=flt))) == expected


def test_search_limit_and_offset_page_through_everything_once(store):
    for i in range(7):
        store.put(NS, f"k{i}", {"text": f"note number {i}", "i": i})
    pages = [keys(store.search(NS, limit=3, offset=o)) for o in (0, 3, 6)]
    assert [len(p) for p in pages] == [3, 3, 1]
    assert sorted(k for p in pages for k in p) == [f"k{i}" for i in range(7)]
    assert store.search(NS, offset=7) == [] and store.search(NS, limit=0) == []
    assert len(store.search(NS)) == 7                                  # default limit 10


def test_search_with_filter_pages_after_filtering(store):
    for i in range(6):
        store.put(NS, f"k{i}", {"text": f"note number {i}", "even": i % 2 == 0})
    got = keys(store.search(NS, filter={"even": True}, limit=2)) + keys(store.search(NS, filter={"even": True}, offset=2))
    assert sorted(got) == ["k0", "k2", "k4"]


def test_search_with_query_ranks_by_relevance(store):
    store.put(NS, "allergy", {"text": "Alice is allergic to peanuts"})
    store.put(NS, "bike", {"text": "Alice rides a red bicycle to work"})
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    hits = store.search(NS, query="peanuts allergy")
    assert hits[0].key == "allergy" and all(h.score is not None for h in hits)
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert keys(store.search(NS, query="peanuts allergy", limit=1, offset=1)) == [hits[1].key]


def test_search_with_query_and_filter(store):
    fill(store)
    hits = store.search(NS, query="green tea", filter={"meta": {"lang": "en"}})
    assert set(keys(hits)) == {"a", "c"} and hits[0].key == "a"


def test_search_items_carry_item_fields(store):
    fill(store)
    for item in store.search(NS) + store.search(NS, query="tea"):
        assert item.value == DOCS[item.key] and item.namespace == NS
        assert isinstance(item.created_at, datetime) and isinstance(item.updated_at, datetime)
        assert set(item.dict()) >= {"namespace", "key", "value", "created_at", "updated_at", "score"}


# -- list_namespaces ---------------------------------------------------------------------------------
SPACES = [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f"),
          ("b", "a", "f"), ("users", "123"), ("users", "456", "settings"), ("admin", "users", "789")]


def spaces(store):
    for i, ns in enumerate(SPACES):
        store.put(ns, f"id_{i}", {"text": f"value number {i} of {'/'.join(ns)}"})


@pytest.mark.parametrize(("kwargs", "expected"), [
    ({"prefix": ("a", "b")}, [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f")]),
    ({"suffix": ("f",)}, [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]),
    ({"prefix": ("a",), "suffix": ("f",)}, [("a", "b", "f"), ("a", "c", "f")]),
    ({"prefix": ("a", "b"), "max_depth": 3}, [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]),
    ({"prefix": ("a", "*", "f")}, [("a", "b", "f"), ("a", "c", "f")]),
    ({"suffix": ("*", "f")}, [("a", "b", "f"), ("a", "c", "f"), ("b", "a", "f")]),
    ({"prefix": ("nonexistent",)}, []),
    ({"prefix": ("users", "123")}, [("users", "123")]),
    ({"prefix": ("*", "users"), "suffix": ("*", "settings")}, []),
    ({"max_depth": 1}, [("a",), ("admin",), ("b",), ("users",)]),
    ({}, sorted(SPACES)),
])
def test_list_namespaces(store, kwargs, expected):
    spaces(store)
    assert sorted(store.list_namespaces(**kwargs)) == sorted(expected)


def test_list_namespaces_pages_in_sorted_order(store):
    for i in range(20):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"text": f"value {i}"})
    for offset in (0, 5, 15):
        got = store.list_namespaces(prefix=("namespace",), limit=5, offset=offset)
        assert got == [("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)]


def test_list_namespaces_empty_store(store):
    assert store.list_namespaces() == []


def test_list_namespaces_op_with_both_conditions(store):
    spaces(store)
    op = ListNamespacesOp(match_conditions=(MatchCondition("prefix", ("a",)), MatchCondition("suffix", ("f",))),
                          max_depth=None, limit=1, offset=1)
    assert store.batch([op]) == [[("a", "c", "f")]]


# -- namespaces and keys -----------------------------------------------------------------------------
@pytest.mark.parametrize("ns", [(), ("the", "thing.about"), ("some", "fun", ""), ("langgraph", "foo")])
def test_invalid_namespaces_are_refused(store, ns):
    with pytest.raises(InvalidNamespaceError):
        store.put(ns, "foo", {"text": "x"})
    assert store.list_namespaces() == []


def test_langgraph_is_allowed_below_the_root(store):
    ns = ("foo", "langgraph", "foo")
    store.put(ns, "bar", {"text": "x"})
    assert store.get(ns, "bar").value == {"text": "x"} and store.search(ns)[0].value == {"text": "x"}


ODD_KEYS = [" padded ", "with/slash", "dots.in.key", "ключ", "emoji 🍵", "a" * 300, "tab\tkey", "\u00e9t\u00e9",
            "UPPER", "upper"]


def test_odd_keys_are_kept_exactly(store):
    for i, key in enumerate(ODD_KEYS):
        store.put(NS, key, {"text": f"memory number {i}"})
    for i, key in enumerate(ODD_KEYS):
        assert store.get(NS, key).value == {"text": f"memory number {i}"}
    assert store.get(NS, "padded") is None and sorted(keys(store.search(NS, limit=50))) == sorted(ODD_KEYS)


def test_odd_namespace_labels(store):
    ns = ("üser", "with space", "123")
    store.put(ns, "k", {"text": "a value"})
    assert store.get(ns, "k").value == {"text": "a value"} and store.list_namespaces() == [ns]


RICH = [
    {"text": "nested", "a": {"b": {"c": [1, 2, {"d": None}]}}},
    {"numbers": [0, -1, 2.5, 1e20], "flag": True, "nothing": None},
    {"text": "unicode: 東京, Zürich, emoji 🎉", "quote": "she said \"hi\"\n"},
    {"content": "langmem's shape", "extra": ["x"]},
    {},
    {"text": ""},
    {"text": "x" * 5000},
]


@pytest.mark.parametrize("value", RICH, ids=range(len(RICH)))
def test_rich_values_round_trip(store, value):
    store.put(NS, "k", value)
    assert store.get(NS, "k").value == value
    assert [i.value for i in store.search(NS)] == [value]


# -- batch and async ---------------------------------------------------------------------------------
def test_batch_results_follow_op_order(store):
    store.put(NS, "tea", {"text": "Alice drinks green tea"})
    store.put(NS, "bike", {"text": "Alice rides a red bike"})
    out = store.batch([
        GetOp(NS, "bike"), PutOp(NS, "cat", {"text": "Alice has a cat named Miso"}), SearchOp(NS, filter={"text": "Alice drinks green tea"}),
        ListNamespacesOp(match_conditions=None, max_depth=1), GetOp(NS, "missing"), GetOp(NS, "tea"),
    ])
    assert out[0].key == "bike" and out[1] is None and keys(out[2]) == ["tea"]
    assert out[3] == [("memories",)] and out[4] is None and out[5].key == "tea"
    assert store.get(NS, "cat").value == {"text": "Alice has a cat named Miso"}


async def test_async_twins(store):
    await store.aput(NS, "tea", {"text": "Alice drinks green tea", "kind": "habit"})
    await store.aput(NS, "bike", {"text": "Alice rides a red bike", "kind": "object"})
    assert (await store.aget(NS, "tea")).value["kind"] == "habit"
    assert keys(await store.asearch(NS, filter={"kind": "object"})) == ["bike"]
    assert (await store.asearch(NS, query="green tea"))[0].key == "tea"
    assert await store.alist_namespaces() == [NS]
    await store.adelete(NS, "tea")
    assert await store.aget(NS, "tea") is None
    out = await store.abatch([GetOp(NS, "bike"), PutOp(NS, "x", {"text": "Alice owns a kayak"}), GetOp(NS, "tea")])
    assert out[0].key == "bike" and out[1] is None and out[2] is None


async def test_concurrent_async_puts_on_distinct_keys_all_land(store):
    await asyncio.gather(*(store.aput(NS, f"k{i}", {"text": f"fact number {i}"}) for i in range(8)))
    assert sorted(keys(await store.asearch(NS, limit=20))) == sorted(f"k{i}" for i in range(8))


# -- timestamps --------------------------------------------------------------------------------------
def test_timestamps(store):
    store.put(NS, "k", {"text": "Alice drinks tea"})
    first = store.get(NS, "k")
    assert first.created_at.tzinfo is not None and first.created_at <= first.updated_at
    store.put(NS, "k", {"text": "Alice drinks coffee"})
    second = store.get(NS, "k")
    assert second.updated_at >= first.updated_at and second.created_at <= second.updated_at


# -- where TarlStore differs by design (each is a README store-table row) ----------------------------
def test_put_returns_a_decision_and_batch_returns_none(store):
    out = store.put(NS, "k", {"text": "Alice drinks tea"})
    assert store.batch([PutOp(NS, "j", {"text": "Bob drinks tea"})]) == [None]
    if is_tarl(store):
        assert out.action is Action.APPEND and out.entry_id
    else:
        assert out is None


def test_a_weaker_source_on_a_key_is_kept_out_but_visible(store):
    store.put(NS, "home", {"text": "Alice lives in Porto", "source": "user"})
    store.put(NS, "home", {"text": "Alice lives in Madrid", "source": "third_party"})
    current = store.get(NS, "home").value["text"]
    if not is_tarl(store):
        assert current == "Alice lives in Madrid"                       # last write wins
        return
    assert current == "Alice lives in Porto"
    newest = store.versions(NS, "home")[0]
    assert newest.value["text"] == "Alice lives in Madrid" and newest.entry.ledger is not Ledger.ACCEPTED
    assert store.engine.log("memories.alice")[-1].claim.text == "Alice lives in Madrid"


def test_empty_key(store):
    if not is_tarl(store):
        store.put(NS, "", {"text": "x"})
        assert store.get(NS, "").value == {"text": "x"}
        return
    with pytest.raises(TarlError, match="key"):
        store.put(NS, "", {"text": "x"})
    assert store.search(NS) == []


def test_batch_reads_see_earlier_puts_of_the_same_batch(store):
    out = store.batch([PutOp(NS, "k", {"text": "Alice drinks tea"}), GetOp(NS, "k")])
    if is_tarl(store):
        assert out[1].value == {"text": "Alice drinks tea"}             # run in order
    else:
        assert out[1] is None                                           # reads are answered before writes
