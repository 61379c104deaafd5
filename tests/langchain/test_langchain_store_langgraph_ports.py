"""LangGraph's own SQL-store tests (``langchain-ai/langgraph``: ``libs/checkpoint-sqlite/tests/test_store.py`` and
``libs/checkpoint-postgres/tests/test_store.py``, MIT), ported to ``TarlStore`` with only the fixture changed: the
ones the conformance files do not already cover (namespace matching at segment boundaries, metacharacters and case;
vector search on LangGraph's character embeddings with filters, paging, odd queries and non-ASCII text).

Ported and run against ``TarlStore`` in the ux4 audit, not kept here: the batch, basic-ops, list and search tests
(all pass, covered by ``test_langchain_store_conformance*.py``); those that fail only where the README's store
table differs on purpose (several indexed fields are one text, so ``test_embed_with_path*`` scores differ; TTL;
cosine only) or that test a SQL store's internals (migrations, ``conn``, LIKE/GLOB escaping, filter-key SQL).
"""

from __future__ import annotations

import math
import random
from collections import Counter, defaultdict

import pytest
from langchain_core.embeddings import Embeddings

from langchain_tarl import TarlStore


class CharacterEmbeddings(Embeddings):
    """LangGraph's test embeddings: character frequencies through fixed random projections."""

    def __init__(self, dims: int = 500, seed: int = 42) -> None:
        rng = random.Random(seed)
        self.dims = dims
        self._proj: dict[str, list[float]] = defaultdict(lambda: [rng.gauss(0, 1 / math.sqrt(dims)) for _ in range(dims)])

    def _one(self, text: str) -> list[float]:
        counts, total = Counter(text), len(text)
        if not total:
            return [0.0] * self.dims
        vec = [0.0] * self.dims
        for ch, n in counts.items():
            for i, p in enumerate(self._proj[ch]):
                vec[i] += n / total * p
        norm = math.sqrt(sum(x * x for x in vec))
        return [x / norm for x in vec] if norm else vec

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


@pytest.fixture(params=["memory", "disk"])
def store(request, tmp_path):
    with TarlStore.open(tmp_path / "m" if request.param == "disk" else None) as s:
        yield s


@pytest.fixture(params=["memory", "disk"])
def vector_store(request, tmp_path):
    index = {"dims": 500, "embed": CharacterEmbeddings(), "fields": ["text"]}
    with TarlStore.open(tmp_path / "v" if request.param == "disk" else None, index=index) as s:
        yield s


def _found(store, prefix):
    return {item.namespace for item in store.search(prefix, limit=100)}


def test_search_namespace_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foo", "child", "deep"), ("foobar",), ("foobar", "baz"), ("foo2",)]:
        store.put(ns, "k", {"v": 1})
    assert _found(store, ("foo",)) == {("foo",), ("foo", "child"), ("foo", "child", "deep")}
    assert _found(store, ("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert _found(store, ("foo", "child")) == {("foo", "child"), ("foo", "child", "deep")}
    assert _found(store, ("foo2",)) == {("foo2",)} and _found(store, ("fo",)) == set()


def test_search_empty_prefix_is_unconstrained(store):
    for ns in [("a",), ("b", "c"), ("d", "e", "f")]:
        store.put(ns, "k", {"v": 1})
    assert _found(store, ()) == {("a",), ("b", "c"), ("d", "e", "f")}


def test_search_namespace_wildcard_chars_are_literal(store):
    for ns in [("user_1",), ("user_1", "child"), ("userX1",), ("a%b",), ("axxb",), ("star*",), ("starX",)]:
        store.put(ns, "k", {"v": 1})
    assert _found(store, ("user_1",)) == {("user_1",), ("user_1", "child")}
    assert _found(store, ("a%b",)) == {("a%b",)} and _found(store, ("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store):
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert _found(store, ("foo",)) == {("foo",)} and _found(store, ("Foo",)) == {("Foo",)}


def test_list_namespaces_segment_boundary(store):
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("foobar", "baz"), ("uid", "users", "alice"),
               ("uid", "users", "malice"), ("uid", "a", "b", "alice")]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=["foo"])) == {("foo",), ("foo", "child")}
    assert set(store.list_namespaces(suffix=["alice"])) == {("uid", "users", "alice"), ("uid", "a", "b", "alice")}
    assert set(store.list_namespaces(prefix=["uid", "*", "alice"])) == {("uid", "users", "alice")}
    assert len(store.list_namespaces(prefix=["uid"])) == 3


@pytest.mark.parametrize("label, decoy", [("star*", "starX"), ("q?m", "qXm"), ("br[ack]et", "brXacXket"),
                                          ("user_1", "userX1"), ("a%b", "axxb"), ("plus+", "plusX")])
def test_list_namespaces_metacharacter_labels(store, label, decoy):
    for ns in [(label,), (decoy,), (label, "child")]:
        store.put(ns, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=[label])) == {(label,), (label, "child")}
    assert set(store.list_namespaces(prefix=[label, "child"])) == {(label, "child")}


def test_namespace_labels_with_trailing_newline(store):
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=["alice"])) == {("users", "alice")}
    assert set(store.list_namespaces(prefix=["users", "alice"])) == {("users", "alice")}


def test_vector_search_with_filters(vector_store):
    for key, value in [("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
                       ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
                       ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
                       ("doc4", {"text": "blue car", "color": "blue", "score": 3.5})]:
        vector_store.put(("test",), key, value)
    found = vector_store.search(("test",), query="apple", filter={"color": "red"})
    assert [r.key for r in found][:1] == ["doc1"] and len(found) == 2
    assert vector_store.search(("test",), query="car", filter={"color": "red"})[0].key == "doc2"
    found = vector_store.search(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}})
    assert len(found) == 3 and found[0].key == "doc4"
    both = {"score": {"$gte": 4.0}, "color": "green"}
    assert vector_store.search(("test",), query="apple", filter=both)[0].key == "doc3"


def test_vector_search_pagination(vector_store):
    for i in range(5):
        vector_store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = vector_store.search(("test",), query="test", limit=2)
    page2 = vector_store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == len(page2) == 2 and not {r.key for r in page1} & {r.key for r in page2}
    assert page1[0].score >= page1[1].score >= page2[0].score >= page2[1].score
    assert len(vector_store.search(("test",), query="test", limit=10)) == 5


@pytest.mark.parametrize("query", ["", None, "test " * 100, "test!@#$%^&*()"])
def test_vector_search_edge_cases(vector_store, query):
    vector_store.put(("test",), "doc1", {"text": "test document"})
    assert len(vector_store.search(("test",), query=query)) == 1


def test_vector_update_with_embedding(vector_store):
    for key, text in [("doc1", "zany zebra Xerxes"), ("doc2", "something about dogs"), ("doc3", "text about birds")]:
        vector_store.put(("test",), key, {"text": text})
    first = vector_store.search(("test",), query="Zany Xerxes")[0]
    assert first.key == "doc1"
    vector_store.put(("test",), "doc1", {"text": "new text about dogs"})
    after = next(r.score for r in vector_store.search(("test",), query="Zany Xerxes") if r.key == "doc1")
    assert after < first.score


def test_non_ascii(vector_store):
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, 1):
        vector_store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, 1):
        assert vector_store.search(("user_123", "memories"), query=text)[0].key == str(i)
