"""The default extractor keeps what the user stated and leaves out what they asked the assistant."""

from __future__ import annotations

import pytest
from llama_index.core.base.llms.types import ChatMessage

from llamaindex_tarl import TarlMemory, user_statements


def _said(text: str) -> list[str]:
    return user_statements([ChatMessage(role="user", content=text)])


@pytest.mark.parametrize("text, kept", [
    ("I live in Lisbon.", "I live in Lisbon."),
    ("I just moved to Berlin, can you recommend a good sushi place near Mitte?", "I just moved to Berlin"),
    ("I'm allergic to peanuts. Is pad thai safe for me?", "I'm allergic to peanuts."),
    ("My order id is A-7731, right?", "My order id is A-7731"),
    ("My doctor is Dr. Smith. Find me a pharmacy near her office.", "My doctor is Dr. Smith."),
    ("I work at Nordlys. I'd like you to draft a cover letter.", "I work at Nordlys."),
    ("We got a puppy!\nPlease, tell me how to train him", "We got a puppy!"),
    ("Book club is on Tuesdays.", "Book club is on Tuesdays."),              # a noun, not a request
    ("Order A-7731 was delayed again", "Order A-7731 was delayed again"),
    ("Call me Ana.", "Call me Ana."),
    ("When I was a kid I lived in Porto", "When I was a kid I lived in Porto"),
    ("Remind me to buy milk", "Remind me to buy milk"),                      # a reminder is a memory
])
def test_statements_are_kept(text, kept):
    assert _said(text) == [kept]


@pytest.mark.parametrize("text", [
    "Where is the nearest bakery?", "Write me a poem about cats", "Book me a flight to Rome",
    "Summarize our conversation", "Tell me my order id", "Can you remind me what my order id is",
    "Please book a table for two at 8pm", "Translate 'hello' to French", "What's up", "What\u2019s my order id",
    "I\u2019d like you to book it", "How do I reset my password", "Could you check my order, please?", "Help!",
    "Is pad thai safe for me?", "Forget that.", "Ignore my last message",
])
def test_questions_and_requests_are_left_out(text):
    assert _said(text) == []


def test_one_claim_per_statement_a_pronoun_keeping_its_sentence():
    turn = [ChatMessage(role="user", content="I have a cat. She is called Miso. What should I feed her?"),
            ChatMessage(role="assistant", content="You live in Porto."),
            ChatMessage(role="user", content="Show me cat food shops"),
            ChatMessage(role="user", content="Also, I moved to Braga.")]
    assert user_statements(turn) == ["I have a cat. She is called Miso.", "Also, I moved to Braga."]
    assert _said("My doctor is Dr. Smith. I live in Porto.") == ["My doctor is Dr. Smith.", "I live in Porto."]


def test_a_chat_remembers_the_fact_before_the_question(engine):
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="s")
    for text in ["I just moved to Berlin, can you recommend a sushi place near Mitte?", "Book me a flight to Rome"]:
        memory.put_messages([ChatMessage(role="user", content=text), ChatMessage(role="assistant", content="Sure.")])
    assert [e.text for e in engine.accepted("u")] == ["I just moved to Berlin"]


@pytest.mark.parametrize("first, then, kept, gone", [
    ("I prefer dark mode. I'm allergic to peanuts.", "Actually light mode now.",
     "I'm allergic to peanuts.", "I prefer dark mode."),
    ("My name is Ana. My order id is A-7731.", "My order id is now A-7740.", "My name is Ana.", "My order id is A-7731."),
])
def test_correcting_one_fact_of_a_message_keeps_the_others(engine, first, then, kept, gone):
    """Found in a user session (ux4): a message stating two facts was one claim, so correcting one of them
    superseded both, and the allergy (or the name) was never recalled again."""
    memory = TarlMemory.from_defaults(engine=engine, namespace="u", session_id="s")
    for text in [first, then]:
        memory.put_messages([ChatMessage(role="user", content=text), ChatMessage(role="assistant", content="Noted.")])
    accepted = [e.text for e in engine.accepted("u")]
    assert kept in accepted and then in accepted and gone not in accepted
    assert kept in TarlMemory.from_defaults(engine=engine, namespace="u", session_id="t").get(input=kept)[0].content
