"""Two services (or jobs) named by their joined names at the front of sentences alike ("search-indexer runs on host ...",
"mail-relay runs on host ..."): two services, both kept; the same service on another host still moved."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_two_joined_names_are_two_services(kept_beside) -> None:
    kept_beside("search-indexer runs on host si-04 (10.2.0.8).", "mail-relay runs on host mr-01 (10.2.0.9).")


def test_one_service_on_another_host_moved(decides) -> None:
    decides("search-indexer runs on host si-04 (10.2.0.8).", "search-indexer runs on host si-07 (10.2.0.12).",
            Action.REVISE, Ledger.HISTORY, "tool")
