"""One more value said in the negative ("kit can't eat sesame either" after "Our son Kit is allergic to eggs") is a further
value, never a repeat to drop nor a replacement; "either way" and "either of them" add nothing. Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.grounding import claim_features
from shared_core.schema import Action, Claim, Ledger


def test_a_further_restriction_said_with_either_is_kept_beside_the_first(decides) -> None:
    decides("Our son Kit is allergic to eggs", "kit can't eat sesame either, the clinic confirmed it on friday",
            Action.APPEND, Ledger.ACCEPTED)


def test_either_adds_only_after_a_negated_verb() -> None:
    def adds(text: str) -> bool:
        return bool(claim_features(Claim(text=text, namespace="n", source="user"))["additive_cue"])

    assert adds("she won't watch anything with clowns either")
    assert adds("cant have gluten either apparently")
    assert not adds("either way the booking stands")
    assert not adds("not keen on either of them")
    assert not adds("went plant-based, so no cheese either")     # a change's consequence, not one more value
