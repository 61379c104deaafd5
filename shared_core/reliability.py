"""Reliability comparison: how much to trust the new claim against the entry it is about.

Source prior x stated confidence, discounted for hedged language; validity time and recency break
near-ties. The margin rho = r_new - r_old is what the policy reads: >> 0 favours revise, << 0
reject_conflict, ~0 defer_verify.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .schema import Claim, Entry

SOURCE_PRIORS: Mapping[str, float] = {
    "user": 0.95,        # the user speaking about themselves
    "system": 0.9,
    "tool": 0.85,        # a tool reporting on its own domain (an order API about an order)
    "reflection": 0.7,
    "assistant": 0.6,    # the assistant's own inference
    "document": 0.55,
    "third_party": 0.4,  # hearsay: someone else about the user
    "web": 0.35,
}
UNKNOWN_SOURCE_PRIOR = 0.5

_HEDGE = re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|i think|i guess|i believe|not sure|unsure|i heard|"
    r"rumou?r|apparently|supposedly|allegedly|someone said|could be|kind of|sort of|not certain|i suppose|"
    r"if i remember|iirc|i reckon|unconfirmed|likely|seems|seemed|might be|may be|considering|thinking about|"
    r"planning to|hoping to|not 100%|suspect|presumably|assume|appears|guessing|my guess|could)\b",
    re.I,
)
HEDGE_FACTOR = 0.6


def hedged(text: str) -> bool:
    return bool(_HEDGE.search(text))


def reliability(item: Claim | Entry, priors: Mapping[str, float] = SOURCE_PRIORS) -> float:
    prior = priors.get(item.source, UNKNOWN_SOURCE_PRIOR)
    score = prior * item.confidence
    return score * HEDGE_FACTOR if hedged(item.text) else score


@dataclass(frozen=True)
class Comparison:
    new: float
    old: float
    margin: float
    newer: bool
    """The claim was observed after the target (recency favours it a little)."""
    outdates: bool
    """The claim's validity starts after the target's ends or starts: a newer state of the world."""
    stale: bool = False
    """The claim describes an earlier state than the target (a late-arriving older fact)."""

    def vector(self) -> list[float]:
        """The comparison as policy features, in ``FEATURE_NAMES`` order."""
        return [self.new, self.old, self.margin, float(self.newer), float(self.outdates), float(self.stale)]


RECENCY_BONUS = 0.05
VALIDITY_BONUS = 0.1


def compare(claim: Claim, target: Entry, priors: Mapping[str, float] = SOURCE_PRIORS) -> Comparison:
    new, old = reliability(claim, priors), reliability(target, priors)
    newer = claim.observed_at > target.observed_at
    outdates = bool(
        claim.valid_from is not None
        and ((target.valid_to is not None and claim.valid_from >= target.valid_to)
             or (target.valid_from is not None and claim.valid_from > target.valid_from))
    )
    stale = bool(
        (claim.valid_to is not None and target.valid_from is not None and claim.valid_to <= target.valid_from)
        or (claim.valid_from is not None and target.valid_from is not None and claim.valid_from < target.valid_from)
    )
    margin = (new - old + (RECENCY_BONUS if newer else -RECENCY_BONUS) + (VALIDITY_BONUS if outdates else 0.0)
              - (VALIDITY_BONUS if stale else 0.0))
    return Comparison(new=new, old=old, margin=margin, newer=newer, outdates=outdates, stale=stale)


FEATURE_NAMES: tuple[str, ...] = ("r_new", "r_old", "margin", "newer", "outdates", "stale")
