"""A child who starts another activity on another day has one more activity: the weekday the claim names belongs to
what it says began, so it changes no day the entry holds ("leo started piano lessons on tuesdays" after "Leo plays
football on Saturday mornings" revised the football). A rescheduling says no start ("karate's moving to thursdays").
Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_activity_begun_on_another_day_is_kept_beside(decides) -> None:
    decides("Our son Arlo does judo on Thursday evenings",
            "arlo started guitar lessons on mondays after school, loving it so far",
            Action.APPEND, Ledger.ACCEPTED)


def test_a_day_moved_is_still_a_change() -> None:
    from shared_core.change import replaced

    assert replaced("arlo's judo moved to mondays", "Our son Arlo does judo on Thursday evenings")
    assert not replaced("arlo started guitar lessons on mondays", "Our son Arlo does judo on Thursday evenings")
