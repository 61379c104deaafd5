"""A thing named by an id before its verb ("WMS: pallet PL-40772 holds 36 cartons") and a reading of another id of the same
shape ("PL-40727") are two things, kept both, however alike the ids; an id after the verb may be the value that moved
("my locker is L-4" after "my locker is L-2"), and the same id read again with a new value still replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_an_id_one_digit_swapped_is_another_thing(kept_beside) -> None:
    kept_beside("WMS: pallet PL-40772 holds 36 cartons in aisle 9.", "WMS export row (pallet,aisle,qty): PL-40727,9,12")


def test_a_record_of_a_near_id_is_another_thing(kept_beside) -> None:
    kept_beside("Vial rack VR-118 is stored in cold room 2.", "cold-store export (rack,room,temp): VR-181,2,4C")


def test_the_same_id_moved_revises(decides) -> None:
    decides("WMS: pallet PL-40772 holds 36 cartons in aisle 9.", "WMS export row (pallet,aisle,qty): PL-40772,9,30",
            Action.REVISE, Ledger.HISTORY, "tool")
