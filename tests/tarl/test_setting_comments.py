"""A setting read with a comment after it ("dark_launch = on  # flipped by ops") or a note of where it lives
("dark_launch = off (features.ini)") holds the setting's value alone: the same flag read otherwise is the flag moved,
read alike a repeat. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe
sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_flag_read_otherwise_replaces_the_one_held(two_writes) -> None:
    engine, first_id, d = two_writes("Feature flag dark_launch = off (features.ini)",
                                     "features.ini: dark_launch = on  # flipped 2025-02-11 by ops", "tool", "tool")
    assert d.action is Action.REVISE, d.rationale
    assert engine.get(first_id).ledger is Ledger.HISTORY


def test_the_same_flag_read_again_is_a_repeat(two_writes) -> None:
    engine, first_id, d = two_writes("Feature flag dark_launch = off (features.ini)",
                                     "features.ini: dark_launch = off  # since 2025-01-02", "tool", "tool")
    assert d.action is Action.NOOP, d.rationale
    assert engine.get(first_id).ledger is Ledger.ACCEPTED
