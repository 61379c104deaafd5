"""A tool's log that shows a value and the one it became ("setpoint 17.5 -> 16.5 C", "zone B -> zone D") changes the
entry that holds the first: the claim names the old value too, so it read as the entry said again (a silent drop) or
as another record. A call and its output ("dig api.x -> 198.51.100.24") is no such pair. Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_two_amounts_across_an_arrow_revise(decides) -> None:
    decides("Greenhouse heater setpoint is 17.5 C",
            "heater controller log 2024-11-02 07:10: setpoint edited 17.5 -> 16.5 C",
            Action.REVISE, Ledger.HISTORY, source="tool", first_source="user")


def test_two_values_of_one_word_across_an_arrow_revise(decides) -> None:
    decides("visitor parking permit VP-5512: bay B",
            "estates portal: VP-5512 amended, bay B -> bay D, effective 01/12",
            Action.REVISE, Ledger.HISTORY, source="tool", first_source="user")


def test_a_call_and_its_output_move_nothing() -> None:
    from shared_core.change import replaced

    assert not replaced("dig +short mail.kestrel.io -> 203.0.113.7", "mail.kestrel.io A 203.0.113.7")
    assert replaced("setpoint edited 17.5 -> 16.5 C", "heater setpoint is 17.5 C")
