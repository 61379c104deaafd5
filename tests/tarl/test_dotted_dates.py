"""A day written with dots and its year ("30.04.2027", day first, as German, Dutch or Polish write it) is the day
"30 April 2027" names: a letter that gives the same date in its own format repeats the entry, where it was taken for
a new date. Without a year ("14.03") it stays a number. Through the engine's default policy on a real SQLite store,
in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_dotted_date_restated_is_a_repeat(decides) -> None:
    decides("my residence permit runs until 30 April 2027",
            "Gemeente letter: verblijfsvergunning geldig tot 30.04.2027",
            Action.NOOP, Ledger.ACCEPTED, source="tool", first_source="user")


def test_only_a_dotted_day_with_its_year_is_a_date() -> None:
    from shared_core.written import written_alike

    assert written_alike("geldig tot 30.04.2027") == written_alike("valid until 30 April 2027").replace("valid until", "geldig tot")
    assert written_alike("pH 14.03") == "pH 14.03"
    assert written_alike("release v1.2.2026") == "release v1.2.2026"
