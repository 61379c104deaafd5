"""A "gangway" seat is an aisle seat: asking for one after window seats changes the seat."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_gangway_seat_replaces_a_window_seat(decides) -> None:
    decides("User prefers window seats on trains.", "gangway for me every time, my knees need the room", Action.REVISE,
            Ledger.HISTORY)
