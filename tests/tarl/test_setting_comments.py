"""A setting read with a comment after it ("dark_launch = on  # flipped by ops") or a note of where it lives
("dark_launch = off (features.ini)") holds the setting's value alone: the same flag read otherwise is the flag moved,
read alike a repeat. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe
sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_flag_read_otherwise_replaces_the_one_held(decides) -> None:
    decides("Feature flag dark_launch = off (features.ini)", "features.ini: dark_launch = on  # flipped 2025-02-11 by ops",
            Action.REVISE, Ledger.HISTORY, "tool")


def test_the_same_flag_read_again_is_a_repeat(decides) -> None:
    decides("Feature flag dark_launch = off (features.ini)", "features.ini: dark_launch = off  # since 2025-01-02",
            Action.NOOP, Ledger.ACCEPTED, "tool")
