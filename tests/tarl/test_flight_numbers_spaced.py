"""A flight named by its carrier's code and number written apart ("flight LH 902") is that flight, as "LH902" is: a
return flight LH 917 is another flight kept beside it, while LH 902 leaving later is the same flight changed."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_spaced_flight_number_is_another_flight(kept_beside) -> None:
    kept_beside("Itinerary: flight LH 902 FRA-LHR on 4 May, 10:40.", "Itinerary: flight LH 917 LHR-FRA on 8 May, 19:05.",
                "document")


def test_another_return_flight_is_kept(kept_beside) -> None:
    kept_beside("Flight AC 101 departs YYZ at 09:15.", "Return flight AC 104 departs YHZ at 18:30 on the 12th.", "user")


def test_the_same_spaced_flight_number_changes(decides) -> None:
    decides("Our flight AC 101 leaves at 09:15.", "flight AC 101 now leaves at 10:05", Action.REVISE, Ledger.HISTORY)
