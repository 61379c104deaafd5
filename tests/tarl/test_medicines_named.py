"""A medicine named by its international name ("atorvastatin", "bisoprolol") beside another one held, each with its
own dose, is a second medicine (people take several), not the first one's dose changed; the one held said again with
a new dose still moves."""

from __future__ import annotations

from shared_core import medicines
from shared_core.schema import Action, Ledger


def test_a_second_medicine_is_kept_beside_the_first(kept_beside) -> None:
    kept_beside("Mum takes atorvastatin 20 mg at night", "Mum takes bisoprolol 5 mg in the morning", "user")


def test_the_same_medicine_at_a_new_dose_moves(decides) -> None:
    decides("Mum takes atorvastatin 20 mg at night", "mum's atorvastatin went up to 40 mg", Action.REVISE, Ledger.HISTORY)


def test_a_switch_is_no_second_medicine() -> None:
    assert not medicines.apart("switched her to rosuvastatin instead", "Mum takes atorvastatin 20 mg at night")
    assert medicines.named("Dad: lisinopril 10mg, metformin 500mg") == {"lisinopril", "metformin"}
