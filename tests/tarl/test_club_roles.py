"""A club's or a committee's post (treasurer, secretary, chair, captain, president) is a role, one value, so a post
handed over for another names the same attribute ("handed the treasurer books over at the agm, i'm secretary for grange
park" read as nothing the entry "I'm treasurer for the Grange Park Residents' Association" holds)."""

from __future__ import annotations

from shared_core.slots import family


def test_a_club_post_is_a_role() -> None:
    assert family("Meena's the PTA secretary these days")[0] == "role"
    assert family("i'm club captain now")[0] == "role"
    assert family("she was voted chairwoman of the parish council")[0] == "role"


def test_furniture_is_no_post() -> None:
    assert (family("Return open for the office chair") or ("",))[0] != "role"
