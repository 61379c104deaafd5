"""Remarks (``shared_core.chitchat``): chat with nothing to remember is dropped, short facts are kept."""

from __future__ import annotations

import pytest

from shared_core import Claim, MemoryEngine
from shared_core.chitchat import remark
from shared_core.schema import Action


@pytest.mark.parametrize("text", ["ugh what a day lol", "anyway, long story", "lol ok", "nah", "haha omg", "she's so cute today lol",
                                  "ok now what lol", "so tired now lol", "me too lol", "same too lol"])
def test_remarks_are_dropped(tmp_path, text: str) -> None:
    with MemoryEngine.open(tmp_path / "m") as engine:
        d = engine.write(Claim(text=text, namespace="u"))
        assert d.action is Action.NOOP and d.target_id is None
        assert engine.accepted("u") == []


@pytest.mark.parametrize("text", ["I like sushi", "thank you! I moved to Porto last week", "we got a puppy lol", "my flight lands at 23:40 on the 2nd ffs",
                                  "Remind me to book the dentist", "I am vegan now", "kids are asleep finally"])
def test_short_facts_are_not_remarks(text: str) -> None:
    assert not remark(text, "user")


def test_structured_output_is_never_a_remark() -> None:
    assert not remark('{"ok": true}', "tool") and not remark('[{"status": "fine"}]', "tool")


@pytest.mark.parametrize(("first", "then"), [("we use Slack at work", "teams now, ugh"),
                                             ("my commute is the 7:40 train", "cycling instead, honestly love it"),
                                             ("i buy most of my basics at cos", "arket too tbh")])
def test_a_chatty_reply_naming_a_new_value_is_kept(tmp_path, first: str, then: str) -> None:
    """"teams now, ugh" read as a remark (0.94) and was dropped, as was "arket too tbh": a value said to have changed, or
    one more said to hold, is never chat."""
    with MemoryEngine.open(tmp_path / "m") as engine:
        engine.write(Claim(text=first, namespace="u"))
        d = engine.write(Claim(text=then, namespace="u"))
        assert d.action is not Action.NOOP and then in [e.text for e in engine.accepted("u")]
