"""A put that corroborates a value held in Pending on its own key, with a change, is never dropped.

Found in a user session (ux4): a third party's ``{"text": "The user needs to renew the passport", "done":
False, "source": "third_party"}`` waits in Pending; the user's own ``{... "done": True}`` on the same key
restates its text, so it promoted the Pending value and was itself logged as ``noop``: ``get`` returned
``done: False`` and the third party's source, and ``versions`` did not list the user's put at all.
"""

from __future__ import annotations

import pytest
from shared_core import Action, Ledger

NS = ("memories", "ana")
TEXT = "The user needs to renew the passport"


@pytest.mark.parametrize("first, then", [
    ({"text": TEXT, "done": False, "source": "third_party"}, {"text": TEXT, "done": True}),
    ({"text": "The user lives in Berlin", "source": "third_party", "since": 2019},
     {"text": "The user lives in Berlin", "source": "user", "since": 2021}),
])
def test_a_changed_put_that_corroborates_a_pending_value_becomes_current(store, first, then):
    store.put(NS, "k", first)
    d = store.put(NS, "k", then)
    assert store.get(NS, "k").value == then
    assert then in [v.value for v in store.versions(NS, "k")]
    assert d.action is not Action.NOOP
    assert [v.entry.ledger for v in store.versions(NS, "k")].count(Ledger.ACCEPTED) == 1


def test_a_plain_corroboration_still_promotes(store):
    first = {"text": "The user lives in Berlin", "source": "third_party"}
    if store.put(NS, "city", first).action is not Action.DEFER_VERIFY:
        pytest.skip("this policy does not hold the hearsay")
    same = {"text": "The user lives in Berlin", "source": "third_party"}
    assert store.put(NS, "city", same).action is Action.NOOP          # the same writer again: nothing new
