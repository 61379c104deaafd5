"""A key declared multi-valued (``"many": true``) keeps each further value beside the others, as the
README's store table promises, also when the policy reads a short new value as a restatement.

Found driving the store as a key-value user would: ``{"text": "jazz", "many": True}`` then
``{"text": "techno", "many": True}`` on one key left only techno current (the policy said ``noop`` at
similarity 0.00, and the keyed-write rule that keeps a changed value turned it into ``revise``)."""

from __future__ import annotations

import pytest
from langgraph.store.base import PutOp
from shared_core import Action, Ledger

from langchain_tarl import TarlStore

NS = ("memories", "ana")


@pytest.mark.parametrize("first, second", [("jazz", "techno"), ("likes jazz", "likes techno")])
def test_a_further_value_of_a_many_key_is_kept_beside_the_first(tmp_path, first, second):
    with TarlStore.open(tmp_path) as store:
        store.put(NS, "music", {"text": first, "many": True})
        d = store.put(NS, "music", {"text": second, "many": True})
        assert d.action is Action.APPEND
        assert sorted(i.value["text"] for i in store.search(NS)) == sorted([first, second])
        assert {v.value["text"]: v.entry.ledger for v in store.versions(NS, "music")} == {
            first: Ledger.ACCEPTED, second: Ledger.ACCEPTED}
        assert store.put(NS, "music", {"text": second, "many": True}).action is Action.NOOP


def test_the_same_through_batch_and_after_a_reopen(tmp_path):
    with TarlStore.open(tmp_path) as store:
        store.batch([PutOp(NS, "music", {"text": "jazz", "many": True}),
                     PutOp(NS, "music", {"text": "techno", "many": True})])
    with TarlStore.open(tmp_path) as store:
        assert sorted(i.value["text"] for i in store.search(NS)) == ["jazz", "techno"]


def test_a_single_valued_key_still_holds_its_last_value(tmp_path):
    with TarlStore.open(tmp_path) as store:
        store.put(NS, "music", {"text": "jazz"})
        assert store.put(NS, "music", {"text": "techno"}).action is Action.REVISE
        assert [i.value["text"] for i in store.search(NS)] == ["techno"]
