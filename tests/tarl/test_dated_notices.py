"""A document that dates the change it states ("with effect from 1 April 2025 your annual charge will be £1,748") is the
labels' firm future-dated change: it revises, the old value kept in History for as-of queries, where a rumour of a
change waits. Not an e-mail whose sender says so, nor a record that only says when it was made. Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_notice_dating_a_new_charge_revises(decides) -> None:
    decides("our council tax is £1,642 a year",
            "Council tax bill 2025/26: with effect from 1 April 2025 your annual charge will be £1,748.",
            Action.REVISE, Ledger.HISTORY, source="document", first_source="user")


def test_a_notice_dating_a_new_weekday_revises(decides) -> None:
    decides("the bin day is Tuesday",
            "Waste services notice: from Monday 3 March your recycling collection will be on Wednesdays.",
            Action.REVISE, Ledger.HISTORY, source="document", first_source="user")


def test_an_emails_dated_change_still_waits(decides) -> None:
    decides("my parking bay at work is B4",
            "From: Estates <estates@campus-mail.net> Subject: Parking. From 1 May your parking bay moves to C12.",
            Action.DEFER_VERIFY, Ledger.ACCEPTED, source="document", first_source="user")


def test_a_date_the_change_takes_effect_from() -> None:
    from shared_core.tense import dated_from

    assert dated_from("effective 1 March: staff attend on Tuesdays")
    assert dated_from("from your next payment on 1 Aug the fee is £27.99")
    assert not dated_from("A payslip from March shows a salary of £52,000")     # when the record was made
    assert not dated_from("cut-off moves from the 20th to the 18th")            # a schedule's day, no date
