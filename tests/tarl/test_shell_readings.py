"""A shell's or a database client's reading of the value memory holds is a repeat: the prompt ("deploy-bot $ ...",
"cache-3:6379> ...") and the arrow to the output are no move, and "v1.7.5" names the version "Terraform v1.7.5" holds.
The same reading with another value is still a change. Through the engine's default policy on a real SQLite store, in
wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import grounding, records
from shared_core.schema import Action

@pytest.mark.parametrize(("first", "then", "action"), [
    ("deploy-bot runs terraform v1.7.5", "deploy-bot $ terraform version -> Terraform v1.7.5 on linux_amd64", Action.NOOP),
    ("redis on cache-3 keeps 16 databases", 'cache-3:6379> CONFIG GET databases  1) "databases" 2) "16"', Action.NOOP),
    ("deploy-bot runs terraform v1.7.5", "deploy-bot $ terraform version -> Terraform v1.8.0 on linux_amd64", Action.REVISE),
])
def test_a_reading_of_the_value_held(first, then, action, two_writes) -> None:
    _, first_id, d = two_writes(first, then, "tool")
    assert d.action is action
    assert d.target_id == first_id


def test_the_prompt_and_its_arrow_report_no_move() -> None:
    assert records.confirms("web-4 $ nproc -> 8", "web-4 has 8 cores", frozenset())
    assert not records.confirms("web-4 $ nproc -> 16", "web-4 has 8 cores", frozenset())


@pytest.mark.parametrize(("value", "words", "named"), [
    ("v20", {"v20.11.1"}, True),        # a version's head, its "v" kept
    ("3.11", {"3.11.4"}, True),
    ("2", {"2.5"}, False),              # a count is no head of a decimal
])
def test_a_version_named_by_its_head(value, words, named) -> None:
    assert grounding._named(value, words) is named
