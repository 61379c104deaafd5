"""A document that says its own year ("Yelp (last updated 2022)", "Scanned 2016 guidebook", "inventory spreadsheet
(Q3 2022)", "data as of December 2023") was true then: against what memory holds from a later year, or was told over a
year after it, it is the older validity, which loses (tarl_labels.md), as a record stamped with an older day does.
Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_an_old_document_against_what_is_held_is_rejected(decides) -> None:
    decides("NAS has 4 drive bays, 2 filled with 8TB", "asset register (Q2 2021): NAS - 2 bays, 2x4TB",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, source="tool")


def test_a_document_year_is_read_and_a_spoken_year_is_not() -> None:
    from datetime import datetime, timezone

    from shared_core.stamps import older, year

    now = datetime(2025, 3, 1, tzinfo=timezone.utc)
    assert year("Council leaflet (last updated 2019): bins go out on Mondays") == 2019
    assert year("2021 prospectus: the sixth form opens at 8:40") == 2021
    assert year("been at the practice since 2019") is None
    assert older("Yelp (last updated 2022): open till 9", "Bar Lume closes at 11", now) == -1
    assert older("Yelp (last updated 2024): open till 9", "Bar Lume closes at 11", now) == 0


def test_a_copy_from_a_year_dates_its_record(decides) -> None:
    from shared_core.stamps import year

    assert year("Calendar export from June 2022: dentist is Dr Patel") == 2022
    assert year("copied from my 2020 resume: lives in Bristol") == 2020
    assert year("backed up my photos from the 2019 trip") is None
    decides("My dentist is Dr Osei", "Calendar export from June 2022: dentist is Dr Patel", Action.REJECT_CONFLICT,
            Ledger.ACCEPTED, source="tool", first_source="user")
