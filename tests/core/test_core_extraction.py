"""The core's extraction helpers: which stored keys name a slot, and how the slots in memory are shown
to the extracting model (the adapters' tests drive them through real agents)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from shared_core.extraction import (KNOWN_SLOTS, EXTRACT_PROMPT, ExtractedFact, line, named_slot, store_key,
                                    with_known_slots)


def test_keys_that_name_a_slot_and_keys_that_do_not():
    assert named_slot("user.home_city") == ("user.home_city", False)
    assert named_slot("user.home_city", many=True) == ("user.home_city", True)
    assert named_slot("user.likes_food#1a2b3c4d") == ("user.likes_food", True)      # a multi-valued key
    for key in ("tea", "3f5953cd6fd240de", "fact#1a2b3c4d", "User.Home City", "", None, 7):
        assert named_slot(key) is None, key


def test_store_keys_of_slotted_facts_name_their_slot_back():
    for many in (False, True):
        fact = ExtractedFact(text="The user likes sushi", slot="user.likes_food", many=many)
        assert named_slot(store_key(fact)) == ("user.likes_food", many)
    assert named_slot(store_key(ExtractedFact(text="hello world"))) is None


def test_known_slots_are_listed_once_each_most_relevant_first():
    known = [("user.home_city", False, "The user lives in\n Lisbon"), ("user.likes_food", True, "likes sushi"),
             ("user.home_city", False, "The user lives in Porto")]
    prompt = with_known_slots(EXTRACT_PROMPT, known)
    assert prompt.startswith(EXTRACT_PROMPT)
    tail = prompt[len(EXTRACT_PROMPT):]
    assert "- user.home_city (one value): The user lives in Lisbon\n- user.likes_food (several values): likes sushi" in tail
    assert "Porto" not in tail
    assert with_known_slots(EXTRACT_PROMPT, []) == EXTRACT_PROMPT


@given(st.lists(st.from_regex(r"[a-z]{1,6}\.[a-z]{1,6}", fullmatch=True), max_size=40))
def test_at_most_the_limit_is_shown(slots):
    tail = with_known_slots("P", [(s, False, "x") for s in slots])[1:]
    assert tail.count("\n- ") == min(len(set(slots)), KNOWN_SLOTS)


def test_a_slotted_memory_names_its_slot_to_the_model():
    assert line("The user lives in Porto", "user.home_city") == "- The user lives in Porto (slot: user.home_city)"
    assert line("My order id is A-7731", None) == line("My order id is A-7731", "3f5953cd6fd240de") == \
        "- My order id is A-7731"
