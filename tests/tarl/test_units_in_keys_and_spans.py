"""A number under a key whose name ends in its unit ("poll_interval_ms: 3000", "MAX_BODY_BYTES=10485760") and a duration
as a config writes it ("3s", "1h45m", "2h") are amounts in that unit: a tool's reading that says the held amount in
another unit repeats it instead of replacing it; another amount still replaces it."""

from __future__ import annotations

from shared_core import units
from shared_core.schema import Action, Ledger


def test_keyed_and_spanned_amounts_are_read() -> None:
    assert [a.base for a in units.amounts("worker poll_interval_ms: 3000")] == [3.0]
    assert [a.base for a in units.amounts('{"lease": "1h45m"}')] == [6300.0]
    assert [a.base for a in units.amounts("MAX_BODY_BYTES=10485760")] == [10485760.0]
    assert units.amounts("we loved the 90s") == ()


def test_milliseconds_under_a_key_repeat_seconds(decides) -> None:
    decides("ingest-worker poll_interval_ms is 3000.", "configctl get ingest-worker -> poll_interval: 3s", Action.NOOP,
            Ledger.ACCEPTED, "tool", "tool")


def test_bytes_under_a_key_repeat_mebibytes(decides) -> None:
    decides("Proxy maximum request body: 10 MiB.", "proxy container env MAX_BODY_BYTES=10485760", Action.NOOP,
            Ledger.ACCEPTED, "tool", "tool")


def test_another_amount_under_a_key_replaces_it(decides) -> None:
    decides("ingest-worker poll_interval_ms is 3000.", "configctl get ingest-worker -> poll_interval: 8s", Action.REVISE,
            Ledger.HISTORY, "tool", "tool")
