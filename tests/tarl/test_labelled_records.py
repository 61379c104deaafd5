"""A tool's label before its fields ("ledger_sync: invoice_id=INV-30418 ...") names no value: the record's first
field is its id, so two records of one tool with two ids are two records, and one id's record read again moves."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_two_ids_under_one_label_are_two_records(kept_beside) -> None:
    kept_beside("ledger_sync: invoice_id=INV-30418 total=220.00 GBP status=paid",
                "ledger_sync: invoice_id=INV-30481 total=95.50 GBP status=open")


def test_one_id_under_one_label_moves(decides) -> None:
    decides("ledger_sync: invoice_id=INV-30418 total=220.00 GBP status=open",
            "ledger_sync: invoice_id=INV-30418 total=220.00 GBP status=paid", Action.REVISE, Ledger.HISTORY, "tool")
