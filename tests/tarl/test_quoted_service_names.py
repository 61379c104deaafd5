"""Two services, jobs or dashboards named by quoted names ("service 'billing'" and "service 'search'") are two things,
both kept; one named service given another value still changes."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_two_quoted_services_are_two_things(kept_beside) -> None:
    kept_beside("Opsgenie: service 'billing' routes alerts to team Ledger.",
                "Opsgenie: service 'search' routes alerts to team Discovery.")


def test_one_quoted_service_changes(decides) -> None:
    decides("Opsgenie: service 'billing' routes alerts to team Ledger.",
            "Opsgenie: service 'billing' now routes alerts to team Payments.", Action.REVISE, Ledger.HISTORY, "tool")
