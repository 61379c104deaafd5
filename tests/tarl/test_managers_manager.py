"""The person an entry holds as the user's manager reports to someone: "oskar reports to Marguerite Dubois, she runs
engineering" after "My manager is Oskar Lind" is Oskar's own manager, a further fact, not a new manager of the user's
(the subject guesser names no subject for such a sentence, so the subjects could not tell the two apart). Said by the
user of themselves, it is theirs again. Through the engine's default policy on a real SQLite store, in wordings the
corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger


@pytest.mark.parametrize("first, then, source", [
    ("My manager is Oskar Lind.", "oskar reports to Marguerite Dubois, she runs engineering", "user"),
    ("My boss is Oskar Lind", "oskar answers to marguerite, the cto", "user"),     # was dropped as a repeat
    ("User's manager: Beatriz Osei", "Org update: Beatriz Osei will report to Colm Hart from March", "system"),
])
def test_the_managers_own_manager_is_kept_beside(decides, first: str, then: str, source: str) -> None:
    decides(first, then, Action.APPEND, Ledger.ACCEPTED, source=source, first_source="user")


def test_the_user_reporting_to_someone_else_changes_their_manager(decides) -> None:
    decides("my team lead is Oskar Lind", "i report to marguerite now, oskar moved teams", Action.REVISE, Ledger.HISTORY)
