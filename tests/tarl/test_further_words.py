""""Insured separately", "added as my co-supervisor" and "working both now" say one more of a kind, as "also" and "too"
do: the further one is kept beside the first (the van's insurer revised the car's; a co-supervisor revised the
supervisor). Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_one_added_as_mine_is_kept_beside(decides) -> None:
    decides("My GP is Dr Shah at Elm Surgery", "Dr Rees was added as my named nurse practitioner",
            Action.APPEND, Ledger.ACCEPTED)


def test_further_words_are_additive_cues() -> None:
    from shared_core.grounding import claim_features
    from shared_core.schema import Claim

    def additive(text: str) -> float:
        return claim_features(Claim(text=text, namespace="n", source="user"))["additive_cue"]

    assert additive("Prof. Haas got added as my co-supervisor")
    assert additive("doing the mornings and the evenings, both now.")
    assert additive("savings are kept separately with Chase UK")
    assert not additive("both of the kids go to Elm Park")
