"""A greeting that asks after the other ("heyy how's your week been", "wassup") is a conversational act: nothing to
keep, whatever memory holds; a question about a held thing is not one."""

from __future__ import annotations

from shared_core import chitchat
from shared_core.schema import Action, Ledger


def test_a_greeting_is_dropped(decides) -> None:
    decides("I work at Halcyon Labs as a data scientist", "heyy how's your week been", Action.NOOP, Ledger.ACCEPTED)
    decides("my sister lives in Quito", "yo how u doing", Action.NOOP, Ledger.ACCEPTED)


def test_only_a_greeting_is_read_as_one() -> None:
    assert chitchat._GREETING.search("wassup dude")
    assert not chitchat._GREETING.search("how's it going with the new job at Halcyon")
    assert not chitchat._GREETING.search("what's up with order #5512, still not shipped")
