"""A blood group is written many ways ("B+", "B pos", "group B RhD positive", "AB Rh(D) negative"): a lab's or a donor
card's reading of the group the user gave is a repeat, another group is a change. Through the engine's default policy
on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.written import written_alike


def test_a_tool_reading_the_same_group_in_other_words_repeats_it(decides) -> None:
    decides("my blood type is B+", "Blood bank card: group B RhD positive", Action.NOOP, Ledger.ACCEPTED,
            source="tool", first_source="user")


def test_a_tool_reading_another_group_changes_it(decides) -> None:
    decides("my blood type is B+", "Haematology result: blood group A RhD negative", Action.REVISE, Ledger.HISTORY,
            source="tool", first_source="user")


def test_groups_are_written_one_way_where_the_text_speaks_of_blood() -> None:
    assert written_alike("blood group O Rh(D) positive") == written_alike("blood group O+") == "blood group O-positive"
    assert written_alike("o neg, blood donor since 2019") == "O-negative, blood donor since 2019"
    assert written_alike("blood test: a positive result") == "blood test: a positive result"    # an article, no group
    assert written_alike("graded A- for the essay") == "graded A- for the essay"                # no blood spoken of
