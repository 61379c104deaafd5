"""A change the speaker says it made at the user's word ("As requested, I moved the booking to 8:30pm") is the owner's
change carried out: it revises what it changed, not a weaker source's word rejected against the user's; without the
user's word behind it, the assistant's other value is still no revision."""

from __future__ import annotations

from shared_core.grounding import claim_features
from shared_core.schema import Action, Claim, Ledger


def _done(text: str) -> bool:
    return bool(claim_features(Claim(text=text, namespace="ns"))["cue_done"])


def test_a_change_made_at_the_users_word() -> None:
    assert _done("As requested, I moved the Lupa booking to 8:30pm, same confirmation #R8821.")
    assert _done("I changed your Ocado slot to Sunday 8-9am like you asked.")
    assert not _done("I moved to Leeds as you know")


def test_it_revises_what_it_changed(decides) -> None:
    decides("Physio appointment Tuesday 4pm", "Done - I've rescheduled your physio to Thursday 4pm as you asked.",
            Action.REVISE, Ledger.HISTORY, source="assistant", first_source="user")


def test_the_assistants_other_value_alone_revises_nothing(two_writes) -> None:
    _, _, d = two_writes("Physio appointment Tuesday 4pm", "Your physio is on Thursday at 4pm.", "assistant", "user")
    assert d.action is not Action.REVISE
