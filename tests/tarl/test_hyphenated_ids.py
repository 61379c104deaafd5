"""An id of digit groups joined by hyphens ("113-8820315", a marketplace's order number) names one thing as "A-88213"
does: another order's record is another order, kept beside the first, not its new address. Through the engine's default
policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_hyphenated_order_is_another_order(decides) -> None:
    decides("Order #204-1182934 ships to 5 Mill Lane, York YO1 7HH",
            '{"order_id": "204-5521870", "status": "shipped", "ship_to": "12 Quay St, Bristol BS1 4DJ"}',
            Action.APPEND, Ledger.ACCEPTED, source="tool", first_source="user")
