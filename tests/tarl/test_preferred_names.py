""""Preferred name: Toluwalase" names what someone is called, one value, as "call me Tolu" does: it was read as one
of several preferences, so the name a user asks to go by was kept beside the old one. Through the engine's default
policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_name_to_go_by_revises_the_preferred_name(decides) -> None:
    decides("Preferred name: Toluwalase.", "everybody calls me Tolu, go with that",
            Action.REVISE, Ledger.HISTORY)


def test_a_preferred_name_is_a_name() -> None:
    from shared_core.families import family

    for text in ("Preferred name: Toluwalase", "nickname at the club is Tank", "Full name: Ana Sofia Reyes"):
        assert family(text)[0] == "name", text
