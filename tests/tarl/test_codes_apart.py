"""Two codes named by what each opens ("storage unit gate code", "... alarm code"; "... number is", "... reference is") are two
codes, both kept; the same code given a new value still replaces the old one."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_locks_code_is_kept_beside(kept_beside) -> None:
    kept_beside("Storage unit gate code is 1470.", "Storage unit alarm code is 2583.", "user")


def test_the_same_code_changed_revises(decides) -> None:
    decides("Storage unit gate code is 1470.", "storage unit gate code is 9006 now", Action.REVISE, Ledger.HISTORY)
