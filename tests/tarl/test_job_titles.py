"""A job title at a name says where someone works ("Data Scientist at Lindqvist Partners"): an old profile naming another
employer contradicts the user's own word and is rejected, not left to wait as a new fact; the title's own word
("manager", a bank's name) does not make it a manager or a bank. Through the engine's default policy on a real SQLite
store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.families import family
from shared_core.schema import Action, Ledger


def test_an_old_profile_naming_another_employer_is_rejected(decides) -> None:
    decides("I work at Kestrel Analytics", "Xing profile (2021): Mara Voss, Data Scientist at Lindqvist Partners, Hamburg",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, source="web", first_source="user")


def test_a_title_at_a_name_is_an_employer() -> None:
    assert family("Engineering Manager at Kestrel Analytics")[0] == "employer"
    assert family("staff accountant at Monzo since march")[0] == "employer"
    assert family("my manager at work is Tom")[0] == "manager"          # no title at a name
    assert family("the engineer at the door fixed the boiler") is None   # "at" a thing, not a name
