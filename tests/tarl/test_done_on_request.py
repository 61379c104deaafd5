"""A change the speaker says it made at the user's word ("As requested, I moved the booking to 8:30pm") is the owner's
change carried out: it revises what it changed, not a weaker source's word rejected against the user's; without the
user's word behind it, the assistant's other value is still no revision."""

from __future__ import annotations

import pytest

from shared_core.cues import CUES
from shared_core.schema import Action, Ledger


@pytest.mark.parametrize(("text", "done"), [
    ("As requested, I moved your haircut to Saturday at 10am.", True),
    ("I've switched your spin class to the 7am one, like you asked.", True),
    ("I moved to Leeds as you know", False),
])
def test_a_change_made_at_the_users_word(text: str, done: bool) -> None:
    assert bool(CUES["cue_done"].search(text)) is done


def test_it_revises_what_it_changed(decides) -> None:
    decides("Physio appointment Tuesday 4pm", "Done - I've rescheduled your physio to Thursday 4pm as you asked.",
            Action.REVISE, Ledger.HISTORY, source="assistant", first_source="user")


def test_the_assistants_other_value_alone_revises_nothing(two_writes) -> None:
    _, _, d = two_writes("Physio appointment Tuesday 4pm", "Your physio is on Thursday at 4pm.", "assistant", "user")
    assert d.action is not Action.REVISE
