"""A call whose output is the value memory holds ("SHOW max_connections; -> 250" after "Postgres max_connections = 250")
is that value read back, a repeat: the words that differ are the call's, not a value swapped (it revised the entry it
confirms). Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_call_that_reads_the_held_value_back_is_a_repeat(decides) -> None:
    decides("Postgres shared_buffers = 4GB", "SHOW shared_buffers; -> 4GB", Action.NOOP, Ledger.ACCEPTED, source="tool")
    decides("MySQL max_allowed_packet = 64M", "SELECT @@max_allowed_packet; -> 64M", Action.NOOP, Ledger.ACCEPTED,
            source="tool")


def test_a_call_that_reads_another_value_still_moves_it(decides) -> None:
    decides("Postgres shared_buffers = 4GB", "SHOW shared_buffers; -> 8GB", Action.REVISE, Ledger.HISTORY, source="tool")
