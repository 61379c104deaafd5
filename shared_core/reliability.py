"""Reliability comparison: how much to trust the new claim against the entry it is about.

Source prior x stated confidence, discounted for hedged language; validity time and recency break
near-ties. The margin rho = r_new - r_old is what the policy reads: >> 0 favours revise, << 0
reject_conflict, ~0 defer_verify.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .config import PolicyConfig, default_config
from .cuescan import Prefiltered
from .schema import Claim, Entry

CONSIDERING = r"considering(?!\s+(?:it|them|him|her|this|that|these|those)\b)"
"""Weighing a plan ("considering a move to Leeds"), not regarding a fact ("considering it rained"): a hedge and
a condition (``cues``' ``cue_conditional``)."""

_HEDGE = Prefiltered(re.compile(
    r"\b(?:maybe|perhaps|probably|possibly|might|i think|i guess|i believe|not sure|unsure|i heard|"
    r"rumou?r|apparently|supposedly|allegedly|someone said|could be|kind of|sort of|not certain|i suppose|"
    r"if i remember|iirc|i reckon|unconfirmed|likely|seems|seemed|might be|may be|" + CONSIDERING + r"|thinking about|"
    r"planning to|hoping to|not 100%|suspect|presumably|assume|appears|guessing|my guess|could|pretty sure|"
    r"may (?:want|need|have|not|stop|start|move|switch|change|leave|end|drop|go|affect|disrupt|delay|cancel|close|rise|increase)|"
    r"infer(?:s|red|ring)?|inferred_\w+|unverified|not (?:yet )?verified|"
    r"gotta be|must be|thinking of|not tested|untested|not confirmed|unconfirmed|self-diagnos\w*|nothing official|"
    r"not (?:yet )?official|unofficial(?:ly)?)\b",
    re.I,
))


_OPINION = Prefiltered(re.compile(
    r"\b(?:seems?|seemed|apparently|probably)\s+(?:(?:really|quite|pretty|very|so|kinda|super)\s+)?"
    r"(?:nice|fine|ok|okay|good|great|decent|lovely|sharp|alright|friendly|cool|fun|kind|strict|fair|solid|bad|awful|normal)\b",
    re.I))
"""A hedge on an opinion about the fact ("my manager is Felix, seems nice"; "resting heart rate 58, which is
apparently decent"), not on the fact itself."""


@lru_cache(maxsize=65536)
def hedged(text: str) -> bool:
    return bool(_HEDGE.search(_OPINION.sub(" ", text)))


def prior(item: Claim | Entry, config: PolicyConfig | None = None) -> float:
    """The source's trust prior. A claim's source was checked by the decision function; an entry
    written under an older configuration may name a source this one does not know: ``unknown``."""
    cfg = config or default_config()
    name = item.source if item.source in cfg.source_priors else cfg.source_aliases.get(item.source, "unknown")
    return cfg.source_priors.get(name, cfg.source_priors.get("unknown", 0.5))


def reliability(item: Claim | Entry, config: PolicyConfig | None = None) -> float:
    cfg = config or default_config()
    score = prior(item, cfg) * item.confidence
    return score * cfg.hedge_factor if hedged(item.text) else score


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


def compare(claim: Claim, target: Entry, config: PolicyConfig | None = None) -> Comparison:
    cfg = config or default_config()
    new, old = reliability(claim, cfg), reliability(target, cfg)
    newer = claim.observed_at > target.observed_at
    outdates = bool(
        claim.valid_from is not None
        and ((target.valid_to is not None and claim.valid_from >= target.valid_to)
             or (target.valid_from is not None and claim.valid_from > target.valid_from))
    )
    stale = bool(
        (claim.valid_to is not None and target.valid_from is not None and claim.valid_to <= target.valid_from)
        or (claim.valid_from is not None and target.valid_from is not None and claim.valid_from < target.valid_from)
        or (claim.valid_from is None and target.valid_from is None and claim.observed_at < target.observed_at)
    )   # (observed before the entry it meets, neither dated otherwise: history loaded newest first)
    margin = (new - old + (cfg.recency_bonus if newer else -cfg.recency_bonus)
              + (cfg.validity_bonus if outdates else 0.0) - (cfg.validity_bonus if stale else 0.0))
    return Comparison(new=new, old=old, margin=margin, newer=newer, outdates=outdates, stale=stale)


FEATURE_NAMES: tuple[str, ...] = ("r_new", "r_old", "margin", "newer", "outdates", "stale")
