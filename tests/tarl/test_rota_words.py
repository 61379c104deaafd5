"""A rota's "primary" and "secondary" beside an on-call are the rota's, not a school's: "Storage primary on-call this
week: Felix" was read as a school, so a paging tool's reading of the rota found it as another attribute."""

from __future__ import annotations

from shared_core.families import family


def test_a_rotas_primary_is_no_school() -> None:
    assert family("Storage primary on-call this week: Felix")[0] == "on_call"
    assert family("secondary pager for db-ops: Hamid")[0] == "on_call"
    assert family("Maya starts at Oakfield Primary in September")[0] == "school"
