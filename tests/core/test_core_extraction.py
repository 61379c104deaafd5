"""The core's extraction helpers: which stored keys name a slot, and how the slots in memory are shown
to the extracting model (the adapters' tests drive them through real agents)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from shared_core.extraction import (EXTRACT_PROMPT, KNOWN_SLOTS, ExtractedFact, canonical_slot, line, named_slot,
                                    parse_facts, store_key, with_known_slots)


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


def test_slots_written_in_words_are_the_users():
    for raw in ("user manager", "User Manager", "User's manager", "the user manager", "Manager", "user.manager"):
        assert canonical_slot(raw) == "user.manager", raw
    assert canonical_slot("home city") == "user.home_city"


def test_sloppy_model_replies_are_read_not_refused():
    """What chat models send when asked for JSON in plain chat or through structured output: a fenced
    block, nulls for optional fields, a capitalised or dashed source, a percentage, no list at all."""
    reply = ('```json\n{"facts": [{"text": "The user lives in Porto", "source": "User", "slot": "user.home_city",'
             ' "many": null, "confidence": 95}, {"text": "Bo says the user likes jazz", "source": "third-party",'
             ' "confidence": null}]}\n```')
    first, second = parse_facts(reply)
    assert (first.text, first.source, first.slot, first.many, first.confidence) == (
        "The user lives in Porto", "user", "user.home_city", False, 0.95)
    assert (second.source, second.confidence) == ("third_party", 0.9)
    assert parse_facts('Sure! Here they are: {"facts": [{"text": "The user has a cat"}]}')[0].text == "The user has a cat"
    assert parse_facts('{"facts": null}') == parse_facts("NONE") == []
    assert parse_facts("There are no durable facts in this conversation.") == []


def test_a_model_cannot_name_a_source_it_may_not_claim():
    [fact] = parse_facts({"facts": [{"text": "The user's plan is Pro", "source": "system"}]})
    assert fact.source == "assistant"


def test_a_bad_fact_is_still_refused_naming_the_field():
    import pytest

    with pytest.raises(ValueError, match="text"):
        parse_facts({"facts": [{"source": "user"}]})


def test_a_judge_answer_in_a_code_fence_is_read():
    from shared_core.judging import parse_answer

    answer = parse_answer('```json\n{"action": "append", "target_id": null, "rationale": "a new fact"}\n```')
    assert (answer.action, answer.target_id) == ("append", None)
