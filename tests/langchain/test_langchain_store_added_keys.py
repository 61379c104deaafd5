"""The key of a memory added without one (``TarlStore.add``) is its entry id: that key names that memory
for ``get``, ``delete``, ``versions`` and ``put``, as any key names what was put under it."""

from __future__ import annotations

import pytest
from shared_core import Action, Ledger, Reason, TarlError

NS = ("m", "u")
PEANUTS, SHELLFISH = "The user is allergic to peanuts", "The user is allergic to peanuts and shellfish"


def added(store):
    return store.add(NS, {"text": PEANUTS}).entry_id


def test_delete_on_an_added_memorys_key_removes_everything_under_it(store):
    """A put on the key followed by a delete used to bring the old value back."""
    key = added(store)
    store.put(NS, key, {"text": SHELLFISH})
    store.delete(NS, key)
    assert store.get(NS, key) is None and store.search(NS) == []
    assert {i.entry.ledger for i in store.versions(NS, key)} == {Ledger.HISTORY}
    assert Reason.RETRACTED in {i.entry.reason for i in store.versions(NS, key)}


def test_versions_of_an_added_memorys_key_include_the_added_value(store):
    key = added(store)
    store.put(NS, key, {"text": SHELLFISH})
    assert [i.value["text"] for i in store.versions(NS, key)] == [SHELLFISH, PEANUTS]
    assert all(i.key == key for i in store.versions(NS, key))


def test_a_put_on_an_added_memorys_key_is_weighed_against_that_memory(store):
    key = added(store)
    decision = store.put(NS, key, {"text": SHELLFISH})
    assert decision.target_id == key                                   # weighed against the added memory
    assert [(i.key, i.value["text"]) for i in store.search(NS)] == [(key, SHELLFISH)]   # one item per key
    assert store.get(NS, key).value["text"] == SHELLFISH
    assert [i.entry.ledger for i in store.versions(NS, key)] == [Ledger.ACCEPTED, Ledger.HISTORY]


def test_a_free_text_change_of_a_keyed_value_stays_under_the_key(store):
    """An agent's free-text memory (``add``, a remember without a slot) that revises a keyed value takes
    the key: the next put on the key is weighed against it instead of leaving two current values."""
    store.put(NS, "user.home_city", {"text": "I live in Porto"})
    moved = store.add(NS, {"text": "I moved to Lisbon last week"})
    assert moved.action is Action.REVISE
    assert store.get(NS, "user.home_city").value["text"] == "I moved to Lisbon last week"
    assert store.get(NS, moved.entry_id).value["text"] == "I moved to Lisbon last week"    # its id still finds it
    store.put(NS, "user.home_city", {"text": "I live in Berlin now"})
    assert [i.value["text"] for i in store.search(NS)] == ["I live in Berlin now"]


@pytest.mark.parametrize("value", [{"text": ""}, {"text": "   "}, {"text": None, "source": "user"}, {"text": 42},
                                   {"content": ""}, {}, {"source": "user", "kind": "note"}])
async def test_a_free_fact_without_text_is_refused_and_writes_nothing(store, value):
    """A free fact is weighed on its words alone; without any, its JSON was grounded against every memory
    (noop against one of them, or stored as the 'fact' '{"text": ""}')."""
    store.put(NS, "user.home_city", {"text": "I live in Porto"})
    before = len(store.engine.log())
    field = "value.content" if "content" in value else "value.text"
    with pytest.raises(TarlError, match=rf"{field}="):
        store.add(NS, value)
    with pytest.raises(TarlError, match=rf"{field}="):
        await store.aadd(NS, value)
    assert len(store.engine.log()) == before
    assert [i.value["text"] for i in store.search(NS)] == ["I live in Porto"]
