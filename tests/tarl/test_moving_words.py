"""A thing moved to another place or holder is a change said: "migrated the newsletter to Buttondown", "transferred
the pension to Vanguard", "the council took over the bins". These verbs were no update cue, so the claim, which says
nothing else of change, was kept beside the value it replaces. Through the engine's default policy on a real SQLite
store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_migrated_revises(decides) -> None:
    decides("our newsletter goes out through Mailchimp",
            "migrated the newsletter over to buttondown last night, mailchimp account closed",
            Action.REVISE, Ledger.HISTORY)


def test_transferred_revises(decides) -> None:
    decides("My workplace pension sits with Aviva",
            "transferred the pension over to vanguard in the spring, aviva sent the closing letter",
            Action.REVISE, Ledger.HISTORY)


def test_the_words_are_change_cues() -> None:
    from shared_core.grounding import time_cue_only, UPDATE_CUE

    for text in ("migrated the wiki to Notion", "transferred my ISA to Trading 212", "the council took over the bins",
                 "swapped the boiler for a heat pump"):
        assert UPDATE_CUE.search(text), text
        assert not time_cue_only(text), text
