"""A tool's later reading of its own record with a number moved is never a silent drop: "ledger-api 4/4" after a record of
2 replicas, "nodeCount: 6" after "runs 4 nodes", are the record's news, kept even where nothing says which entry they
replace. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action


@pytest.mark.parametrize(("first", "then"), [
    ('{"deployment":"ledger-api","namespace":"finance","replicas":2}',
     "NAME   READY   UP-TO-DATE   AVAILABLE   AGE   ledger-api   4/4   4   4   17d"),
    ("Worker pool gpu-a runs 4 nodes.", "$ gcloud container node-pools describe gpu-a -> nodeCount: 6"),
])
def test_a_number_moved_in_a_tools_reading_is_kept(first, then, two_writes) -> None:
    _, _, d = two_writes(first, then, "tool", "tool")
    assert d.action in (Action.APPEND, Action.REVISE), d.rationale
