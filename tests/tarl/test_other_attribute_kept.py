"""A claim that gives another attribute of a held thing a value (a service's log level after its request timeout) is a
further fact, not a repeat to drop, however strongly the linker ties the two."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_attribute_is_kept_not_dropped(decides) -> None:
    decides("the api request timeout in prod is 45s", "prod log level is warn", Action.APPEND, Ledger.ACCEPTED)


def test_a_repeat_in_other_words_is_still_dropped(decides) -> None:
    decides("I'm a platform engineer", "yep still doing platform engineering, same as always", Action.NOOP, Ledger.ACCEPTED)
