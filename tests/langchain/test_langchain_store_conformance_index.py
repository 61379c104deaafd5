"""LangGraph ``BaseStore`` conformance, second part: what an ``IndexConfig`` and a put's ``index`` argument
mean, filter edge cases, the reserved root label through ``batch``, TTL arguments and value shapes, as
LangGraph's own stores (``InMemoryStore``, and its SQL stores where they say more) behave.

Each test runs on the reference ``InMemoryStore`` and on ``TarlStore`` in memory and on disk, all opened
with the same ``index`` (a small character-count embedder, so scores are exact cosines of known texts).
Where ``TarlStore`` differs by design the test says so, and the README's store table has the row.
"""

from __future__ import annotations

import math

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore
from shared_core import TarlError

from langchain_tarl import TarlStore

NS = ("docs", "u1")
DIMS = 64


def char_counts(texts: list[str]) -> list[list[float]]:
    """Characters counted into DIMS slots over a small floor in every slot: dense, as a real model's
    vectors are (the engine weighs sparse query slots by how rare they are; dense ones are left as they are)."""
    out = []
    for text in texts:
        row = [0.05] * DIMS
        for ch in text.lower():
            row[ord(ch) % DIMS] += 1.0
        out.append(row)
    return out


def cosine(a: str, b: str) -> float:
    x, y = char_counts([a, b])
    return sum(i * j for i, j in zip(x, y)) / math.sqrt(sum(i * i for i in x) * sum(j * j for j in y))


def open_store(kind: str, tmp_path, fields: list[str] | None = None):
    index = {"dims": DIMS, "embed": char_counts, **({"fields": fields} if fields is not None else {})}
    if kind == "in_memory":
        return InMemoryStore(index=index)
    return TarlStore.open(tmp_path / "mem" if kind == "tarl_disk" else None, index=index)


@pytest.fixture(params=["in_memory", "tarl_memory", "tarl_disk"])
def kind(request):
    return request.param


@pytest.fixture
def make(kind, tmp_path):
    opened = []

    def _make(fields: list[str] | None = None):
        store = open_store(kind, tmp_path / str(len(opened)), fields)
        opened.append(store)
        return store

    yield _make
    for store in opened:
        if isinstance(store, TarlStore):
            store.close()


def is_tarl(store) -> bool:
    return isinstance(store, TarlStore)


# -- the index configuration --------------------------------------------------------------------------
def test_the_index_config_is_kept(make):
    store = make(fields=["text"])
    assert store.index_config["dims"] == DIMS and store.index_config["fields"] == ["text"]
    assert store.embeddings is not None


def test_a_query_is_scored_by_cosine_of_the_indexed_field(make):
    store = make(fields=["summary"])
    store.put(NS, "k", {"summary": "zebra crossing", "body": "apples and pears"})
    for query in ("zebra crossing", "apples", "xyz"):
        [hit] = store.search(NS, query=query)
        assert hit.score == pytest.approx(cosine(query, "zebra crossing"), abs=1e-4)


@pytest.mark.parametrize(("value", "path", "text"), [
    ({"a": {"b": "kiwi fruit"}, "c": "melon"}, "a.b", "kiwi fruit"),
    ({"tags": ["kiwi fruit"], "c": "melon"}, "tags[*]", "kiwi fruit"),
    ({"items": [{"name": "kiwi fruit"}], "c": "melon"}, "items[0].name", "kiwi fruit"),
    ({"n": 4242, "c": "melon"}, "n", "4242"),                       # a number is embedded as its text
])
def test_a_put_can_name_the_fields_to_index(make, value, path, text):
    store = make()
    store.put(NS, "k", value, index=[path])
    [hit] = store.search(NS, query=text)
    assert hit.score == pytest.approx(1.0, abs=1e-4) and hit.value == value


def test_a_put_with_index_false_is_found_without_a_score_after_the_scored(make):
    store = make()
    store.put(NS, "a", {"text": "red apple"})
    store.put(NS, "b", {"text": "blue car"})
    store.put(NS, "c", {"text": "red apple"}, index=False)            # the very words of the query
    hits = store.search(NS, query="red apple")
    assert [h.key for h in hits] == ["a", "b", "c"] and hits[-1].score is None
    assert all(h.score is not None for h in hits[:2])
    assert "c" not in [h.key for h in store.search(NS, query="red apple", limit=2)]
    assert sorted(h.key for h in store.search(NS)) == ["a", "b", "c"]  # listed as any other item
    assert store.get(NS, "c").value == {"text": "red apple"}


def test_a_value_without_the_indexed_fields_is_kept_and_unscored(make):
    store = make(fields=["summary"])
    store.put(NS, "with", {"summary": "kiwi"})
    store.put(NS, "without", {"title": "kiwi", "body": "no summary here"})
    hits = store.search(NS, query="kiwi")
    assert [(h.key, h.score is None) for h in hits] == [("with", False), ("without", True)]
    assert store.get(NS, "without").value == {"title": "kiwi", "body": "no summary here"}


def test_index_false_and_filters_and_paging_together(make):
    store = make()
    for i in range(4):
        store.put(NS, f"s{i}", {"text": f"note {i}", "even": i % 2 == 0})
    store.put(NS, "u", {"text": "note 9", "even": True}, index=False)
    hits = store.search(NS, query="note", filter={"even": True})
    assert sorted(h.key for h in hits[:2]) == ["s0", "s2"] and hits[2].key == "u" and hits[2].score is None
    assert [h.key for h in store.search(NS, query="note", filter={"even": True}, offset=2)] == ["u"]


# -- filters ------------------------------------------------------------------------------------------
DOCS = {
    "hyphen": {"access-level": "public", "user": {"access-level": "nested", "age": 30}},
    "digit": {"123abc": "ok", "user": {"123abc": "ok2", "age": 50}},
    "plain": {"text": "no user here", "rank": "high"},
}


def fill(store):
    for key, value in DOCS.items():
        store.put(NS, key, value)


@pytest.mark.parametrize(("flt", "expected"), [
    ({"access-level": "public"}, ["hyphen"]),
    ({"123abc": "ok"}, ["digit"]),
    ({"user": {"age": 30}}, ["hyphen"]),
    ({"user": {"age": {"$gte": 40}}}, ["digit"]),
    ({"rank": {"$ne": "low"}}, ["digit", "hyphen", "plain"]),        # a missing field is not "low"
])
def test_filter_keys_and_nested_objects(make, flt, expected):
    store = make()
    fill(store)
    assert sorted(h.key for h in store.search(NS, filter=flt)) == expected


@pytest.mark.parametrize(("flt", "expected"), [
    ({"user.access-level": "nested"}, ["hyphen"]),
    ({"user.123abc": "ok2"}, ["digit"]),
    ({"user.age": 50}, ["digit"]),
])
def test_dotted_filter_keys_name_nested_fields(make, flt, expected):
    """As LangGraph's SQLite and Postgres stores read them; InMemoryStore reads the key literally."""
    store = make()
    fill(store)
    got = sorted(h.key for h in store.search(NS, filter=flt))
    assert got == (expected if is_tarl(store) else [])


def test_a_comparison_that_cannot_be_made_is_no_match(make):
    """``$gt`` on an item without the field (or with a word there): Postgres finds no match; InMemoryStore
    raises from ``float(None)``. TarlStore answers as Postgres."""
    store = make()
    fill(store)
    store.put(NS, "n", {"rank": 5})
    if not is_tarl(store):
        with pytest.raises((TypeError, ValueError)):
            store.search(NS, filter={"rank": {"$gt": 1}})
        return
    assert [h.key for h in store.search(NS, filter={"rank": {"$gt": 1}})] == ["n"]


def test_a_literal_dotted_key_is_matched_first(make):
    store = make()
    store.put(NS, "k", {"a.b": 1, "a": {"b": 2}})
    assert [h.key for h in store.search(NS, filter={"a.b": 1})] == ["k"]


# -- namespaces, TTL arguments, value shapes ----------------------------------------------------------
def test_the_reserved_root_is_refused_by_put_but_not_by_batch(make):
    store = make()
    with pytest.raises(InvalidNamespaceError):
        store.put(("langgraph", "foo"), "bar", {"text": "x"})
    store.batch([PutOp(("langgraph", "foo"), "bar", {"text": "x"})])
    assert store.get(("langgraph", "foo"), "bar").value == {"text": "x"}
    assert store.search(("langgraph", "foo"))[0].value == {"text": "x"}
    store.delete(("langgraph", "foo"), "bar")
    assert store.get(("langgraph", "foo"), "bar") is None


async def test_the_reserved_root_through_abatch(make):
    store = make()
    with pytest.raises(InvalidNamespaceError):
        await store.aput(("langgraph", "foo"), "bar", {"text": "x"})
    await store.abatch([PutOp(("langgraph", "foo"), "bar", {"text": "x"})])
    assert (await store.aget(("langgraph", "foo"), "bar")).value == {"text": "x"}


def test_prefixes_may_be_lists(make):
    """LangGraph's SQL stores' tests pass lists; InMemoryStore's search compares a list to its tuples."""
    store = make()
    store.put(("test", "docs"), "d", {"text": "a doc"})
    store.put(("test", "img"), "i", {"text": "an image"})
    assert sorted(store.list_namespaces(prefix=["test"])) == [("test", "docs"), ("test", "img")]
    found = (len(store.search(["test"])), len(store.search(["test", "docs"])))
    assert found == ((2, 1) if is_tarl(store) else (0, 0))


def test_labels_differing_by_a_newline_are_distinct(make):
    store = make()
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    store.put((" lead", "x "), "k", {"v": 3})
    assert store.list_namespaces(suffix=["alice"]) == [("users", "alice")]
    assert store.get(("users", "alice"), "k").value == {"v": 1}
    assert store.get(("users", "alice\n"), "k").value == {"v": 2}
    assert store.get((" lead", "x "), "k").value == {"v": 3} and store.get(("lead", "x"), "k") is None


def test_refresh_ttl_is_accepted_and_ttl_is_not_supported(make):
    store = make()
    store.put(NS, "k", {"text": "kept"}, ttl=None)
    assert store.get(NS, "k", refresh_ttl=True).value == store.get(NS, "k", refresh_ttl=False).value
    assert len(store.search(NS, refresh_ttl=False)) == 1
    assert store.batch([GetOp(NS, "k", refresh_ttl=False), SearchOp(NS, refresh_ttl=True)])[0].key == "k"
    assert store.supports_ttl is False
    with pytest.raises(NotImplementedError):
        store.put(NS, "k2", {"text": "expiring"}, ttl=5)
    assert store.get(NS, "k2") is None


@pytest.mark.parametrize("value", [
    {"text": "short", "blob": "x" * 20_000},                          # large, with a short text
    {"payload": {"deep": [{"n": i} for i in range(50)]}},              # no text field at all
    {"text": "日本語のメモ 🍵", "note": "ünïcödé"},
    {"text": 42, "n": None},                                         # a non-string text field
])
def test_value_shapes_round_trip(make, value):
    store = make()
    store.put(NS, "k", value)
    assert store.get(NS, "k").value == value and [h.value for h in store.search(NS)] == [value]


def test_get_after_delete_and_put_none(make):
    store = make()
    store.put(NS, "a", {"text": "one"})
    store.put(NS, "b", {"text": "two"})
    store.delete(NS, "a")
    store.put(NS, "b", None)
    assert store.get(NS, "a") is None and store.get(NS, "b") is None and store.search(NS) == []
    # a namespace left empty: listed no more (as the SQL stores); InMemoryStore keeps listing it
    assert store.list_namespaces() == ([] if is_tarl(store) else [NS])


# -- where TarlStore differs by design (each is a README store-table row) ----------------------------
def test_several_indexed_fields_are_embedded_as_one_text(make):
    """LangGraph embeds each field on its own and scores an item by its best field; TarlStore embeds
    the fields together as the item's one text (the claim TARL weighs), scored once."""
    store = make(fields=["k1", "k2"])
    store.put(NS, "d", {"k1": "xxx", "k2": "zzz"})
    [hit] = store.search(NS, query="xxx")
    if is_tarl(store):
        assert hit.score == pytest.approx(cosine("xxx", "xxx\nzzz"), abs=1e-4) and hit.score < 0.99
    else:
        assert hit.score == pytest.approx(1.0, abs=1e-4)


def test_only_cosine_distance(kind, tmp_path):
    index = {"dims": DIMS, "embed": char_counts, "distance_type": "l2"}
    if kind == "in_memory":
        InMemoryStore(index=index)                                   # accepted (and scored by cosine)
        return
    with pytest.raises(TarlError, match="distance_type"):
        TarlStore.open(tmp_path / "mem" if kind == "tarl_disk" else None, index=index)


@pytest.mark.parametrize("index", [True, "text", [1]])
def test_a_bad_index_argument_is_refused_naming_it(make, index):
    store = make()
    if not is_tarl(store):
        return                                                        # InMemoryStore: undefined
    if index == "text":
        store.put(NS, "k", {"text": "one"}, index=index)               # one path, as a list of one
        assert store.get(NS, "k") is not None
        return
    with pytest.raises(TarlError, match="index"):
        store.put(NS, "k", {"text": "one"}, index=index)
    assert store.get(NS, "k") is None


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"index": {"dims": DIMS}}, "index"),                                       # no embed
    ({"index": {"dims": 0, "embed": char_counts}}, "index.dims"),
    ({"index": {"dims": DIMS, "embed": char_counts}, "embeddings": object()}, "index"),
])
def test_a_bad_index_config_is_refused_before_opening(kwargs, field, tmp_path):
    with pytest.raises(TarlError, match=field):
        TarlStore.open(tmp_path / "mem", **kwargs)
    assert not (tmp_path / "mem").exists()


def test_sqlite_spelling_of_fields(tmp_path):
    """LangGraph's SqliteStore names the paths ``text_fields``; TarlStore reads either spelling."""
    index = {"dims": DIMS, "embed": char_counts, "text_fields": ["summary"]}
    with TarlStore.open(tmp_path / "mem", index=index) as store:
        store.put(NS, "k", {"summary": "kiwi", "body": "melon"})
        assert store.index_config["text_fields"] == ["summary"]
        assert store.search(NS, query="kiwi")[0].score == pytest.approx(1.0, abs=1e-4)


def test_a_ttl_config_is_refused_as_put_ttl_is(tmp_path):
    with pytest.raises(NotImplementedError, match="valid_to"):
        TarlStore.open(tmp_path / "mem", ttl={"default_ttl": 1.0, "refresh_on_read": True})
    assert not (tmp_path / "mem").exists()


def test_a_wrong_dims_is_refused_on_first_use():
    with TarlStore.open(index={"dims": DIMS + 1, "embed": char_counts}) as store, pytest.raises(ValueError, match="dim"):
        store.put(NS, "k", {"text": "one"})
