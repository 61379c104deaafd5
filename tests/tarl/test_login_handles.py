"""A paging tool's override that names the rota by its login handles ("override created - Search primary m.diaz")
is the on-call's new state: "override created" names the rota, and an initial and a surname ("m.diaz") is a person
where no capital says so. It was read as a school's "primary" naming no one new, and dropped as a repeat. Through the
engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_an_override_naming_another_login_revises(decides) -> None:
    decides("Opsgenie: Search primary on-call today: k.lee",
            "Opsgenie webhook: override created - Search primary m.diaz until Thu 17:00",
            Action.REVISE, Ledger.HISTORY, source="tool")


def test_the_same_login_again_is_no_other_person() -> None:
    from shared_core.change import replaced
    from shared_core.families import family

    assert family("override created - Search primary m.diaz")[0] == "on_call"
    assert not replaced("Opsgenie: Search primary on-call: k.lee (until Thu)", "Opsgenie: Search primary on-call today: k.lee")
