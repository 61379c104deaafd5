"""A thing of a kind named by its id in a key's form ("warehouse=W-21", "site_id=3170") is the same kind as one
named in words ("Warehouse W-12", "Trial site 3107"): two ids, two things, however alike the ids."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_keyed_id_of_another_warehouse_is_another_warehouse(kept_beside) -> None:
    kept_beside("Warehouse W-12 receives deliveries on Mondays.", "wms: warehouse=W-21 receiving_day=Monday")


def test_a_keyed_id_of_another_site_is_another_site(kept_beside) -> None:
    kept_beside("Trial site 3107 (York) has 41 patients enrolled.", "ctms: site_id=3170 city=Lyon enrolled=41")


def test_the_same_store_keyed_revises(decides) -> None:
    decides("Store 2217 (Harrogate) has 14 staff on the rota.", "HR export: store_id=2217, town=Harrogate, headcount=16",
            Action.REVISE, Ledger.HISTORY, "tool")
