"""Store contract: TarlStore behaves as LangGraph's InMemoryStore where TARL has nothing to decide
(distinct, unrelated facts), and as TARL where it does (revise, reject, retract). Sync and async."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp
from langgraph.store.memory import InMemoryStore
from shared_core import Action, Ledger, Reason, TarlError

from langchain_tarl import TarlItem, TarlStore

NS = ("memories", "alice")
FACTS = {
    "tea": {"text": "Alice drinks green tea every morning", "kind": "habit", "rank": 1},
    "bike": {"text": "Her bicycle is a red Peugeot", "kind": "object", "rank": 2},
    "job": {"text": "Works as a marine biologist at Oceanario", "kind": "work", "rank": 3},
}


def fill(store, ns=NS):
    for key, value in FACTS.items():
        store.put(ns, key, value)


async def afill(store, ns=NS):
    for key, value in FACTS.items():
        await store.aput(ns, key, value)


def by_key(items):
    return {i.key: i.value for i in items}


# -- contract shared with InMemoryStore ------------------------------------------------------------
def test_put_get_roundtrip(any_store):
    fill(any_store)
    for key, value in FACTS.items():
        item = any_store.get(NS, key)
        assert item.value == value and item.key == key and item.namespace == NS
    assert any_store.get(NS, "missing") is None
    assert any_store.get(("memories", "bob"), "tea") is None


async def test_put_get_roundtrip_async(any_store):
    await afill(any_store)
    assert (await any_store.aget(NS, "bike")).value == FACTS["bike"]
    assert await any_store.aget(NS, "missing") is None


def test_search_without_query_filter_limit_offset(any_store):
    fill(any_store)
    assert by_key(any_store.search(NS)) == FACTS
    assert by_key(any_store.search(("memories",))) == FACTS          # prefix
    assert any_store.search(("other",)) == []
    assert by_key(any_store.search(NS, filter={"kind": "work"})) == {"job": FACTS["job"]}
    assert set(by_key(any_store.search(NS, filter={"rank": {"$gte": 2}}))) == {"bike", "job"}
    assert set(by_key(any_store.search(NS, filter={"kind": {"$ne": "habit"}}))) == {"bike", "job"}
    pages = [i.key for p in range(3) for i in any_store.search(NS, limit=1, offset=p)]
    assert sorted(pages) == sorted(FACTS) and len(any_store.search(NS, limit=2)) == 2
    assert any_store.search(NS, offset=3) == []


async def test_search_async(any_store):
    await afill(any_store)
    assert by_key(await any_store.asearch(NS, filter={"kind": "object"})) == {"bike": FACTS["bike"]}


def test_delete(any_store):
    fill(any_store)
    any_store.delete(NS, "tea")
    assert any_store.get(NS, "tea") is None
    assert set(by_key(any_store.search(NS))) == {"bike", "job"}
    any_store.delete(NS, "never-there")                              # deleting a missing key is a no-op


async def test_delete_async(any_store):
    await afill(any_store)
    await any_store.adelete(NS, "bike")
    assert await any_store.aget(NS, "bike") is None


def test_list_namespaces(any_store):
    for ns in [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]:
        any_store.put(ns, "k", {"text": f"a fact stored under {'/'.join(ns)}"})
    assert any_store.list_namespaces() == [("a", "b", "c"), ("a", "b", "d"), ("a", "x"), ("z", "b")]
    assert any_store.list_namespaces(prefix=("a", "b")) == [("a", "b", "c"), ("a", "b", "d")]
    assert any_store.list_namespaces(suffix=("b",)) == [("z", "b")]
    assert any_store.list_namespaces(prefix=("a", "*", "d")) == [("a", "b", "d")]
    assert any_store.list_namespaces(max_depth=2) == [("a", "b"), ("a", "x"), ("z", "b")]
    assert any_store.list_namespaces(limit=2, offset=1) == [("a", "b", "d"), ("a", "x")]


def test_namespace_without_accepted_memories_is_not_listed(store):
    """As LangGraph's Postgres store (InMemoryStore keeps emptied namespaces listed)."""
    store.put(("a", "x"), "k", {"text": "a fact"})
    store.delete(("a", "x"), "k")
    assert store.list_namespaces() == []


async def test_list_namespaces_async(any_store):
    await any_store.aput(("p", "q"), "k", {"text": "one fact"})
    assert await any_store.alist_namespaces(prefix=("p",)) == [("p", "q")]


@pytest.mark.parametrize("ns", [(), ("a.b",), ("",), ("langgraph", "x")])
def test_put_refuses_bad_namespaces(any_store, ns):
    with pytest.raises(InvalidNamespaceError):
        any_store.put(ns, "k", {"text": "x"})
    assert any_store.search(()) == []


def test_a_dotted_label_is_refused_by_batch_too(store):
    """InMemoryStore's ``batch`` accepts ("users", "ana@x.io"); TarlStore cannot: "." joins the ledger's labels."""
    with pytest.raises(InvalidNamespaceError, match="ana@x.io"):
        store.batch([PutOp(("users", "ana@x.io"), "k", {"text": "x"})])
    assert store.list_namespaces() == []


# -- TARL semantics ------------------------------------------------------------------------------
def test_put_returns_the_decision_and_revise_reject_are_observable(store):
    first = store.put(NS, "home", {"text": "The user lives in Lisbon", "source": "tool"})
    assert first.action is Action.APPEND
    revised = store.put(NS, "home", {"text": "The user lives in Porto", "source": "user"})
    assert revised.action is Action.REVISE and revised.target_id == first.entry_id
    hearsay = store.put(NS, "home", {"text": "The user lives in Madrid", "source": "third_party"})
    assert hearsay.action is Action.REJECT_CONFLICT
    item = store.get(NS, "home")
    assert isinstance(item, TarlItem) and item.value["text"] == "The user lives in Porto"
    assert item.entry.ledger is Ledger.ACCEPTED and item.entry.source == "user"
    assert [h.value["text"] for h in store.search(NS, query="where does the user live")] == ["The user lives in Porto"]
    reasons = {e.text: e.reason for e in store.engine.history("memories.alice")}
    assert reasons == {"The user lives in Lisbon": Reason.SUPERSEDED, "The user lives in Madrid": Reason.REJECTED}
    assert [(i.value["text"], i.entry.ledger) for i in store.versions(NS, "home")] == [
        ("The user lives in Madrid", Ledger.HISTORY), ("The user lives in Porto", Ledger.ACCEPTED),
        ("The user lives in Lisbon", Ledger.HISTORY)]


@pytest.mark.parametrize("policy", [None, "rules"])
def test_grounding_across_keys_is_opt_in(policy):
    from shared_core.policy import RulePolicy

    with TarlStore.open(policy=RulePolicy() if policy else None, ground_across_keys=True) as store:
        store.put(NS, "k1", {"text": "The user lives in Porto", "source": "user"})
        hearsay = store.put(NS, "k2", {"text": "The user lives in Madrid", "source": "third_party"})
        assert hearsay.action in (Action.REJECT_CONFLICT, Action.DEFER_VERIFY)
        assert store.get(NS, "k2") is None
        assert [h.key for h in store.search(NS, query="where does the user live")] == ["k1"]


def test_batch_put_result_is_none_and_decision_logged(store):
    assert store.batch([PutOp(NS, "k", {"text": "Alice owns a cat named Miso"})]) == [None]
    [tx] = store.engine.log("memories.alice")
    assert tx.action is Action.APPEND and tx.claim.slot == "k"


def test_delete_retracts_into_history_never_erases(store):
    store.put(NS, "home", {"text": "The user lives in Lisbon"})
    store.delete(NS, "home")
    [gone] = store.engine.history("memories.alice")
    assert gone.reason is Reason.RETRACTED and gone.text == "The user lives in Lisbon"
    assert store.search(NS, query="Lisbon") == []


def test_claim_fields_ride_in_the_value(store):
    value = {"content": "Alice is on holiday", "source": "tool", "confidence": 0.7,
             "valid_from": "2099-08-01T00:00:00+00:00", "valid_to": "2099-08-15T00:00:00+00:00",
             "metadata": {"origin": "calendar"}}
    store.put(NS, "holiday", value)
    item = store.get(NS, "holiday")
    assert item.value == value
    e = item.entry
    assert (e.text, e.source, e.confidence, e.slot) == ("Alice is on holiday", "tool", 0.7, "holiday")
    assert e.valid_to.isoformat() == "2099-08-15T00:00:00+00:00" and e.metadata["origin"] == "calendar"


def test_structured_value_without_text_is_searchable_by_its_json(store):
    store.put(NS, "pet", {"species": "cat", "name": "Miso"})
    [hit] = store.search(NS, query="cat Miso")
    assert hit.value == {"species": "cat", "name": "Miso"} and hit.score > 0


def test_engine_written_entries_are_visible_by_id(store):
    d = store.engine.write({"text": "Alice speaks Portuguese", "namespace": "memories.alice"})
    assert store.get(NS, d.entry_id).value == {"text": "Alice speaks Portuguese"}
    store.delete(NS, d.entry_id)
    assert store.engine.get(d.entry_id).reason is Reason.RETRACTED


def test_search_ranks_across_namespaces_under_a_prefix(store):
    store.put(("m", "u1"), "a", {"text": "prefers window seats on trains"})
    store.put(("m", "u2"), "b", {"text": "allergic to peanuts and almonds"})
    hits = store.search(("m",), query="peanuts allergy")
    assert [h.namespace for h in hits] == [("m", "u2"), ("m", "u1")] and hits[0].score > hits[1].score
    assert [h.key for h in store.search(("m",), query="peanuts allergy", limit=1, offset=1)] == ["a"]


def test_persists_across_reopen(tmp_path):
    with TarlStore.open(tmp_path / "mem") as s:
        s.put(NS, "home", {"text": "The user lives in Porto"})
    with TarlStore.open(tmp_path / "mem") as s:
        assert s.get(NS, "home").value == {"text": "The user lives in Porto"}
        assert [h.key for h in s.search(NS, query="Porto")] == ["home"]


async def test_async_tarl_decisions(store):
    await store.aput(NS, "home", {"text": "The user lives in Lisbon", "source": "tool"})
    d = await store.aput(NS, "home", {"text": "The user lives in Porto", "source": "user"})
    assert d.action is Action.REVISE
    assert [h.value["text"] for h in await store.asearch(NS, query="the user")] == ["The user lives in Porto"]


# -- bad input: a clear error naming the field, and nothing written ------------------------------------
@pytest.mark.parametrize(("value", "field"), [
    ("The user lives in Lisbon", "value"), (["a"], "value"),
    ({"text": "x", "confidence": 2}, "value.confidence"), ({"text": "x", "metadata": "m"}, "value.metadata"),
    ({"text": "x", "valid_from": "2026-09-01", "valid_to": "2026-01-01"}, "value"),
    ({"text": object()}, "value"),
])
def test_bad_values_are_refused_and_nothing_is_written(store, value, field):
    with pytest.raises(TarlError) as err:
        store.put(NS, "k", value)
    assert err.value.field.startswith(field)
    assert store.engine.log() == []


def test_one_bad_op_in_a_batch_writes_nothing(store):
    with pytest.raises(TarlError):
        store.batch([PutOp(NS, "a", {"text": "a good fact"}), PutOp(NS, "b", "not a dict")])  # type: ignore[arg-type]
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(NS, "a", {"text": "a good fact"}), GetOp(("bad.label",), "k")])
    assert store.engine.log() == []


@pytest.mark.parametrize(("kwargs", "field"), [({"limit": -1}, "limit"), ({"offset": -2}, "offset")])
def test_negative_paging_is_refused(store, kwargs, field):
    with pytest.raises(TarlError, match=field):
        store.search(NS, **kwargs)


def test_search_op_with_non_string_query_is_refused(store):
    with pytest.raises(TarlError, match="query"):
        store.batch([SearchOp(NS, query=3)])  # type: ignore[arg-type]


def test_ttl_is_not_supported(store):
    with pytest.raises(NotImplementedError):
        store.put(NS, "k", {"text": "x"}, ttl=5)
    assert store.engine.log() == []


def test_langchain_embeddings_can_drive_the_engine():
    from langchain_core.embeddings import DeterministicFakeEmbedding

    with TarlStore.open(embeddings=DeterministicFakeEmbedding(size=16)) as s:
        assert s.put(NS, "k", {"text": "Alice keeps bees"}).action is Action.APPEND
        assert s.engine.index.embedder.dim == 16 and s.engine.index.embedder.name == "lc-DeterministicFakeEmbedding"
        assert [h.key for h in s.search(NS, query="Alice keeps bees")] == ["k"]


@pytest.mark.parametrize("ns", [(), ("a.b",)])
def test_get_and_delete_refuse_bad_namespaces(store, ns):
    store.put(NS, "k", {"text": "a fact"})
    with pytest.raises(InvalidNamespaceError, match="namespace"):
        store.delete(ns, "k")
    with pytest.raises(InvalidNamespaceError):
        store.get(ns, "k")
    assert len(store.engine.log()) == 1


def test_something_that_is_not_embeddings_is_refused():
    with pytest.raises(TypeError, match="Embeddings"):
        TarlStore.open(embeddings=lambda texts: texts)


@pytest.mark.parametrize("source", ["crm", "User", 5])
def test_an_unknown_default_source_is_refused_at_open(tmp_path, source):
    """It was accepted, and every later put without a source failed on it."""
    with pytest.raises(TarlError, match=rf"default_source={source!r}"):
        TarlStore.open(tmp_path / "mem", default_source=source)
    assert not (tmp_path / "mem").exists()
    from shared_core import MemoryEngine
    with MemoryEngine.open(config={"source_aliases": {"crm": "tool"}}) as engine:
        assert TarlStore(engine, default_source="crm").put(NS, "k", {"text": "Order A-1 shipped"}).action is Action.APPEND
        if source != "crm":
            with pytest.raises(TarlError, match=rf"default_source={source!r}"):
                TarlStore(engine, default_source=source)


def test_pending_claims_are_invisible_until_verified(store):
    d = store.put(NS, "music", {"text": "Maybe Alice likes jazz", "source": "assistant"})
    assert d.action is Action.DEFER_VERIFY
    assert store.get(NS, "music") is None and store.search(NS) == []
    store.engine.verify(d.entry_id, accept=True)
    assert store.get(NS, "music").value["text"] == "Maybe Alice likes jazz"


def test_a_free_fact_is_grounded_against_the_namespace(store):
    """``add`` (no key of its own): a restatement of a memory is a noop naming it; a new fact's key is
    its entry id."""
    first = store.put(NS, "tea", {"text": "Alice drinks green tea every morning"})
    again = store.add(NS, {"text": "Alice drinks green tea every morning"})
    assert again.action is Action.NOOP and again.target_id == first.entry_id
    new = store.add(NS, {"text": "Alice keeps three beehives"})
    assert new.action is Action.APPEND and store.get(NS, new.entry_id).value == {"text": "Alice keeps three beehives"}


def test_keys_are_independent_under_every_policy(store):
    store.put(NS, "alice_city", {"text": "Alice lives in Lisbon"})
    store.put(NS, "bob_city", {"text": "Bob lives in Porto"})
    for i in range(10):
        store.put(NS, f"o{i}", {"text": f"Order {i} shipped to warehouse {i}"})
    assert store.get(NS, "alice_city").value["text"] == "Alice lives in Lisbon"
    assert all(store.get(NS, f"o{i}") is not None for i in range(10))


def test_a_changed_field_is_a_change_under_every_policy(store):
    store.put(NS, "todo", {"text": "Buy milk", "done": False})
    d = store.put(NS, "todo", {"text": "Buy milk", "done": True})
    assert d.action is Action.REVISE and store.get(NS, "todo").value["done"] is True
    assert store.put(NS, "todo", {"text": "Buy milk", "done": True}).action is Action.NOOP


def test_a_key_holds_one_value_whatever_its_words(any_store):
    """As in every BaseStore, a second put on a key replaces its value: words that name a multi-valued
    attribute ("likes") do not make the key hold two current values. Search lists the key once."""
    any_store.put(NS, "music", {"text": "Alice likes jazz"})
    any_store.put(NS, "music", {"text": "Alice likes jazz and techno"})
    assert any_store.get(NS, "music").value == {"text": "Alice likes jazz and techno"}
    assert [i.key for i in any_store.search(NS)] == ["music"]


def test_a_key_declared_many_keeps_each_value_and_a_repeat_changes_nothing(store):
    store.put(NS, "likes", {"text": "Alice likes jazz", "many": True})
    d = store.put(NS, "likes", {"text": "Alice also likes techno", "many": True})
    assert d.action is Action.APPEND
    assert sorted(i.value["text"] for i in store.search(NS)) == ["Alice also likes techno", "Alice likes jazz"]
    assert store.put(NS, "likes", {"text": "Alice also likes techno", "many": True}).action is Action.NOOP


def test_history_loaded_newest_first_leaves_the_newest_value_current():
    """A put observed before the value it meets (older validity, labels: it loses) does not replace it,
    whoever wrote it; it is kept in History, visible as a version."""
    with TarlStore.open() as store:
        for source in ("user", "tool"):
            key = f"home_{source}"
            store.put(("crm", "alice"), key, {"text": "The user lives in Berlin", "source": source,
                                              "observed_at": "2023-03-01T00:00:00+00:00"})
            store.put(("crm", "alice"), key, {"text": "The user lives in Lisbon", "source": source,
                                              "observed_at": "2019-01-01T00:00:00+00:00"})
            assert store.get(("crm", "alice"), key).value["text"] == "The user lives in Berlin"
            assert {v.value["text"] for v in store.versions(("crm", "alice"), key)} == {
                "The user lives in Berlin", "The user lives in Lisbon"}


def test_a_value_past_its_valid_to_is_gone_like_an_expired_ttl():
    """The README's answer to TTL is ``valid_to``: past it, get, search and listing no longer serve the
    value (no sweep needed), and its version stays visible."""
    past = (datetime.now(timezone.utc) - timedelta(days=1)).isoformat()
    with TarlStore.open() as store:
        store.put(NS, "otp", {"text": "The one-time code is 4471", "valid_to": past})
        store.put(NS, "promo", {"text": "The discount code is SPRING10"})
        assert store.get(NS, "otp") is None
        assert [i.key for i in store.search(NS)] == ["promo"] and [i.key for i in store.search(NS, query="code")] == ["promo"]
        assert [v.value["text"] for v in store.versions(NS, "otp")] == ["The one-time code is 4471"]


def test_a_put_saying_one_value_replaces_a_key_that_held_several():
    """The latest put says how many values its key holds: one ``"many": true`` by mistake does not leave
    every later value of a single-valued key current beside the others."""
    with TarlStore.open() as store:
        store.put(NS, "user.home_city", {"text": "The user lives in Lisbon", "many": True})
        store.put(NS, "user.home_city", {"text": "The user lives in Berlin", "many": False})
        assert [i.value["text"] for i in store.search(NS)] == ["The user lives in Berlin"]
