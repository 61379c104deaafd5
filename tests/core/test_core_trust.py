"""The trust rule for agent-written memories (``shared_core.trust``): lower freely, raise with evidence."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_core import TarlError
from shared_core.trust import LOWER, MODEL_SOURCES, attribute, supports

CONVERSATION = [
    ("user", "I just moved to Porto last week"),
    ("assistant", "Congratulations! Let me check your orders."),
    ("tool", '{"order": "A-1001", "ship_to": "12 Rua Nova, Porto"}'),
]


@pytest.mark.parametrize(("fact", "claimed", "expected"), [
    ("The user lives in Porto", "user", "user"),                       # relayed in the model's words
    ("Order A-1001 now ships to 12 Rua Nova, Porto", "tool", "tool"),
    ("Order A-1001 now ships to 12 Rua Nova, Porto", None, "tool"),    # memory finds who said it
    ("The user lives in Porto", None, "user"),
    ("The user lives in Madrid", "user", "assistant"),                  # nobody said it: the model's own
    ("Order A-1001 ships to 9 Rua Velha, Porto", "tool", "assistant"),  # a value the tool never returned
    ("The user lives in Madrid", "third_party", "third_party"),
    ("The user probably likes football", "assistant", "assistant"),
])
def test_attribution(fact, claimed, expected):
    assert attribute(fact, claimed, CONVERSATION).source == expected


@pytest.mark.parametrize("claimed", ["system", "reflection", "User", "admin", ""])
def test_sources_a_model_may_not_claim_are_refused(claimed):
    with pytest.raises(TarlError, match="source"):
        attribute("The user lives in Porto", claimed, CONVERSATION)


@given(fact=st.text(min_size=1, max_size=60), claimed=st.sampled_from(MODEL_SOURCES + (None,)),
       said=st.lists(st.tuples(st.sampled_from(["user", "assistant", "tool", "system"]), st.text(max_size=60)),
                     max_size=4))
def test_never_raises_trust_without_a_supporting_message(fact, claimed, said):
    got = attribute(fact, claimed, said)
    if claimed in LOWER:
        assert got.source == claimed
    elif got.source in ("user", "tool"):
        assert any(role == got.source and supports(text, fact) for role, text in said)
    else:
        assert got.source == "assistant"


@pytest.mark.parametrize(("message", "fact", "supported"), [
    ("The bank meeting is on Monday at 3pm, by the way.", "The user's meeting is on Monday at 3pm", True),
    ("I run 10k every Sunday.", "The user runs 10k every Sunday", True),           # "10" of "10k"
    ("I weigh 80kg now.", "The user weighs 80kg", True),
    ("I'm 34.", "The user is 34 years old", True),                                  # the value anchors a paraphrase
    ("A-1001 arrived today.", "Order A-1001 was delivered", True),
    ("Got promoted to senior engineer!", "The user's job title is senior engineer", True),   # "the user" is no content
    ("I'm 34.", "The user is 43 years old", False),                                 # another value
    ("My flight is at 10am.", "The user's flight is at 1am", False),
    ("I moved last week.", "The user lives in Madrid now", False),                  # no value, nothing said
])
def test_a_relay_is_read_the_way_people_write(message, fact, supported):
    assert supports(message, fact) is supported


def test_a_paraphrase_anchored_on_a_closed_class_value_relays_the_user() -> None:
    """"aisle from now on" is the user's word for "The user prefers an aisle seat": aisle is a value (the seat
    family's), so the paraphrase needs a third of its other words, as one anchored on a name does; it was
    recorded as the assistant's and rejected against the window seat the user had set."""
    from shared_core.trust import attribute, supports

    assert supports("Actually, aisle from now on", "The user prefers an aisle seat")
    assert not supports("Window seat for me", "The user prefers an aisle seat")
    said = [("user", "Window seat for me"), ("assistant", "Noted."), ("user", "Actually, aisle from now on")]
    assert attribute("The user prefers an aisle seat", "user", said).source == "user"
