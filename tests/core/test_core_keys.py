"""Keyed writes (``shared_core.keys``): keys are independent, and a changed value never vanishes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core import Action, Claim, Ledger, MemoryEngine, RulePolicy, TarlError

TEXTS = st.sampled_from(["Buy milk", "Buy oat milk", "maybe buy milk", "The user lives in Porto", "ok"])
SOURCES = st.sampled_from(["user", "assistant", "third_party", "tool", "web"])
DONE = st.booleans()


@pytest.mark.parametrize("policy", [None, RulePolicy()], ids=["default", "rules"])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(puts=st.lists(st.tuples(TEXTS, SOURCES, DONE), min_size=1, max_size=8))
def test_a_changed_value_never_vanishes(policy, puts):
    """Each put either leaves the key's Accepted value equal to it (new or already there), or leaves
    it visible in Pending or History; a noop only when the key already holds exactly this value."""
    with MemoryEngine.open(policy=policy) as engine:
        for text, source, done in puts:
            claim = Claim(text=text, namespace="n", source=source, slot="todo", metadata={"done": done})
            before = [(e.text, e.metadata) for lg in (Ledger.ACCEPTED, Ledger.PENDING) for e in engine.by_slot("n", "todo", lg)]
            d = engine.write(claim, keyed=True)
            if d.action is Action.NOOP and d.target_id and engine.get(d.target_id).ledger is Ledger.ACCEPTED:
                assert (text, {"done": done}) in before     # (also when it vouched for a Pending value: ux4)
            else:
                assert d.action is not Action.NOOP or d.target_id is not None      # noop only names a holder
            if d.entry_id:
                assert engine.get(d.entry_id).text == text


def test_keys_do_not_ground_on_each_other():
    with MemoryEngine.open(policy=RulePolicy()) as engine:
        engine.write(Claim(text="Alice lives in Lisbon", namespace="n", slot="alice_city"), keyed=True)
        d = engine.write(Claim(text="Bob lives in Porto", namespace="n", slot="bob_city"), keyed=True)
        assert d.action is Action.APPEND and d.target_id is None
        assert sorted(e.text for e in engine.accepted("n")) == ["Alice lives in Lisbon", "Bob lives in Porto"]


def test_same_text_other_metadata_is_a_change():
    with MemoryEngine.open() as engine:
        engine.write(Claim(text="Buy milk", namespace="n", slot="t", metadata={"done": False}), keyed=True)
        d = engine.write(Claim(text="Buy milk", namespace="n", slot="t", metadata={"done": True}), keyed=True)
        assert d.action is Action.REVISE and "changed" in d.rationale
        [current] = engine.by_slot("n", "t")
        assert current.metadata == {"done": True}


def test_keys_are_exact_and_a_keyed_write_needs_one():
    with MemoryEngine.open() as engine:
        engine.write(Claim(text="x", namespace="n", slot=" k "), keyed=True)
        assert engine.by_slot("n", "k") == [] and engine.by_slot("n", " k ")[0].slot == " k "
        with pytest.raises(TarlError, match="claim.slot"):
            engine.write(Claim(text="x", namespace="n"), keyed=True)


def test_only_keyed_writes_get_the_key_value_promises():
    """A slotted claim written without ``keyed`` is TARL's own business: the policy's noop stands."""
    with MemoryEngine.open(policy=RulePolicy()) as engine:
        engine.write(Claim(text="I support Leeds United", namespace="n", slot="team"))
        d = engine.write(Claim(text="yep, still a Leeds United fan", namespace="n", slot="team"))
        assert "so it is not dropped" not in d.rationale
        with pytest.raises(TarlError, match="scope"):
            engine.write(Claim(text="x", namespace="n", slot="k"), keyed=True, scope="everything")


@pytest.mark.parametrize("policy", [None, RulePolicy()], ids=["default", "rules"])
@pytest.mark.parametrize("first, second", [("jazz", "techno"), ("likes jazz", "likes techno"),
                                           ("The user likes sushi", "The user likes ramen")])
def test_a_further_value_of_a_many_key_is_kept_beside_the_others(policy, first, second):
    """A key declared multi-valued holds several values: a second one never pushes the first out of Accepted,
    whichever policy decides (the rule policy revised "likes jazz" with "likes techno")."""
    with MemoryEngine.open(policy=policy) as engine:
        for text in (first, second):
            engine.write(Claim(text=text, namespace="n", source="user", slot="music", many=True), keyed=True)
        assert sorted(e.text for e in engine.state("n").accepted) == sorted([first, second])


def test_a_changed_value_that_vouches_for_a_pending_one_is_kept_after_it():
    """The third party's ``done: False`` waits; the user's ``done: True`` on the same text vouches for it (it is
    promoted) and, being a change, is then kept over it in the same write: current, with the third party's
    value in History (found in a LangGraph store session, ux4; the engine keeps it for every keyed caller)."""
    with MemoryEngine.open() as engine:
        first = engine.write(Claim(text="The user needs to renew the passport", namespace="n", source="third_party",
                                   slot="todo", metadata={"done": False}), keyed=True)
        assert first.action is Action.DEFER_VERIFY
        d = engine.write(Claim(text="The user needs to renew the passport", namespace="n", source="user", slot="todo",
                               metadata={"done": True}), keyed=True)
        assert d.action is Action.REVISE and d.entry_id is not None and "corroborates pending" in d.rationale
        [current] = engine.accepted("n")
        assert current.id == d.entry_id and current.metadata == {"done": True} and current.source == "user"
        assert [e.metadata for e in engine.history("n")] == [{"done": False}]
        assert [t.action for t in engine.log("n")] == [Action.DEFER_VERIFY, Action.NOOP, Action.PROMOTE, Action.REVISE]
