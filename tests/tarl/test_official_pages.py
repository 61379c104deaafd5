"""A page that speaks for its own subject ("Casa Tua (own website): ...", "nodejs.org: ...") is the keeper's word, as a
signed notice is: its other value revises what memory holds, not a web page's hearsay rejected or left waiting; a page
that does not say whose it is stays hearsay."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_places_own_page_revises(decides) -> None:
    decides("Casa Tua: open Tue-Sat 12:00-22:00", "Casa Tua (own website): we're now open on Sundays too, same hours!",
            Action.REVISE, Ledger.HISTORY, source="web", first_source="user")


def test_a_projects_own_domain_revises(decides) -> None:
    decides("Latest LTS of Node: 20", "nodejs.org: Node.js 22 is now the active LTS release", Action.REVISE, Ledger.HISTORY,
            source="web", first_source="user")


def test_a_page_of_no_one_stays_hearsay(two_writes) -> None:
    _, _, d = two_writes("Casa Tua: open Tue-Sat 12:00-22:00", "some blog: Casa Tua is now open on Sundays too", "web", "user")
    assert d.action is not Action.REVISE
