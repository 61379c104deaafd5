"""What someone "keeps saying" (or "has been saying") is their word, relayed, as what they "said": a change of theirs
said to come waits to be confirmed ("anna keeps saying she'll move back to london soon" revised "My sister Anna lives in
Porto"). Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_change_someone_keeps_saying_will_come_waits(decides) -> None:
    decides("My brother Tom lives in Derby", "tom keeps saying he'll move to Valencia one of these days",
            Action.DEFER_VERIFY, Ledger.ACCEPTED)


def test_what_they_have_been_saying_is_hearsay() -> None:
    from shared_core.cues import CUES

    assert CUES["cue_hearsay"].search("mum's been saying the clinic moves to friday")
    assert not CUES["cue_hearsay"].search("saying goodbye to the old flat today")
