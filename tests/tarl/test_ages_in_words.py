"""An age said in words ("turned twelve", "Arun's twelve now") is an age as "turned 12" and "Arun is 12" are, so it
revises the age held ("Zoe turned eight" was kept beside "Daughter Zoe is 7": a second age). Through the engine's default
policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_an_age_in_words_revises(decides) -> None:
    decides("My nephew Arun is 11", "Arun turned twelve on friday", Action.REVISE, Ledger.HISTORY)
    decides("My nephew Arun is 11", "Arun's twelve now", Action.REVISE, Ledger.HISTORY)


def test_an_age_in_words_is_an_age_and_ages_inside_a_list_are_not() -> None:
    from shared_core.slots import family

    assert family("Zoe's eight now")[0] == "age"
    assert (family("we've got two kids, Finn's 7 and Rosie's 4") or ("",))[0] != "age"
