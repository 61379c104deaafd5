"""A time of day said in words ("quarter past six", "ten after seven", "quarter to nine") is its clock time, so a
change to it is seen ("pickup is quarter past three from the 3rd" after "school pickup 15:30" was kept beside it) and
the same time said again is a repeat. "Ten to twelve people" is a range, not 11:50. Through the engine's default policy
on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_time_said_in_words_moves_the_time(decides) -> None:
    decides("nursery collection 17:30", "from monday nursery collection is quarter past five, they're shortening the day",
            Action.REVISE, Ledger.HISTORY)


def test_spoken_times_are_clock_times() -> None:
    from shared_core.written import written_alike

    assert written_alike("collection is quarter past five") == written_alike("collection is 17:15")
    assert written_alike("doors at quarter to eight") == written_alike("doors at 7:45")
    assert written_alike("ten after six") == written_alike("6:10")
    assert "12" in written_alike("ten to twelve people came")
