"""A phone said the everyday way ("on android", "iphones") names the device the user has: a move from one to the other
revises it; an Android app is no device."""

from __future__ import annotations

from shared_core import families
from shared_core.schema import Action, Ledger


def test_a_move_between_phones_revises(decides) -> None:
    decides("I'm on android", "whole household is on iphones now", Action.REVISE, Ledger.HISTORY)


def test_an_android_app_is_no_device() -> None:
    assert families.family("we're on android since 2019")[0] == "device"
    assert (families.family("the android app keeps crashing") or ("",))[0] != "device"
