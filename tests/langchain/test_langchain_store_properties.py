"""Invariants of TarlStore under arbitrary put/delete sequences (hypothesis, real engine per example)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from shared_core import Action, Ledger

from langchain_tarl import TarlStore

NS = ("memories", "p")
KEYS = st.sampled_from(["home", "job", "pet", "car"])
TEXTS = st.sampled_from([
    "The user lives in Lisbon", "The user lives in Porto", "The user works as a nurse", "The user has a cat",
    "The user has no pets", "The user drives a 2012 Fiat", "The user drives a 2019 Tesla", "maybe the user lives in Rome",
])
SOURCES = st.sampled_from(["user", "assistant", "third_party", "tool"])
OPS = st.lists(st.one_of(st.tuples(st.just("put"), KEYS, TEXTS, SOURCES), st.tuples(st.just("delete"), KEYS)),
               min_size=1, max_size=12)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=OPS)
def test_reads_see_accepted_only_and_nothing_is_ever_erased(ops):
    with TarlStore.open() as store:
        created = 0
        for op in ops:
            if op[0] == "put":
                _, key, text, source = op
                decision = store.put(NS, key, {"text": text, "source": source})
                created += decision.action is not Action.NOOP
            else:
                store.delete(NS, op[1])
                assert store.get(NS, op[1]) is None                          # a delete always hides the key
        state = store.engine.state("memories.p")
        accepted_ids = {e.id for e in state.accepted}
        listed = store.search(NS, limit=100)
        assert {i.entry.id for i in listed} == accepted_ids                   # listing = the Accepted ledger
        for key in ["home", "job", "pet", "car"]:
            item = store.get(NS, key)
            assert item is None or (item.key == key and item.entry.ledger is Ledger.ACCEPTED)
        assert len(state.accepted) + len(state.pending) + len(state.history) == created   # never erased


LIKES = st.sampled_from([
    "The user likes jazz", "The user likes jazz and techno", "The user loves sushi", "The user also likes opera",
    "The user is really into climbing", "The user enjoys long walks", "maybe the user likes rap",
])
SUBJECTS = st.sampled_from([     # texts whose own subjects differ: a key still names one thing
    "I have a cat named Tom", "Tom passed away last week", "Order #1000 ships to warehouse 0",
    "Order #1049 ships to warehouse 49", "My manager is Priya", "Priya's manager is Tom", "Ana drives a blue car",
    "Ben drives a red car", '{"editor": "vim"}', "config.get('timeout') -> 30", "config.get('retries') -> 5",
    "Martin expressed gratitude for his friends", "Martin reflected on his career", "INV-2211 is paid",
])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(st.tuples(KEYS, st.one_of(LIKES, SUBJECTS), SOURCES), min_size=1, max_size=10))
@example(ops=[("pet", "I have a cat named Tom", "user"), ("pet", "Tom passed away last week", "user")])
@example(ops=[("home", "maybe the user likes rap", "user"), ("home", "The user loves sushi", "user"),
              ("home", "The user likes jazz and techno", "user")])
@example(ops=[("home", "The user loves sushi", "third_party"), ("home", "The user likes jazz", "user"),
              ("home", "The user loves sushi", "user")])
def test_a_key_never_holds_two_current_values_unless_declared_many(ops):
    """A key-value caller's expectation: whatever the words ("likes", "also"), a key holds at most one
    Accepted value, and ``get`` returns it; search lists each key at most once. The examples were found
    by this property: a change weighed against the key's Pending value was appended beside its Accepted
    one, a restatement of a Pending value promoted it beside the key's Accepted one, and a text whose
    guessed subject differed ("Tom passed away" after "I have a cat named Tom") was appended beside it."""
    with TarlStore.open() as store:
        for key, text, source in ops:
            store.put(NS, key, {"text": text, "source": source})
            keys = [i.key for i in store.search(NS, limit=100)]
            assert len(keys) == len(set(keys))
            current = [e for e in store.engine.state("memories.p").accepted if e.slot == key]
            assert len(current) <= 1
            item = store.get(NS, key)
            assert (item is None) == (not current) and (item is None or item.entry.id == current[0].id)
