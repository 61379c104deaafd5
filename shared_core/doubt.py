"""The CPU policy's sense of its own doubt: which decisions to send to a judge, and how many.

Escalation is only as good as this ranking. Top probability alone misses doubt that lives in grounding
(a claim the policy would revise whose grounding found nothing) and in the contract (which renormalises
the probabilities over what it allows, so an overridden choice looks certain). :func:`doubt_terms`
reads every signal a decision exposes; :class:`Uncertainty` is a logistic model of "the base policy
is wrong" over them, fitted on the hand-written dev split by ``tarl bench escalation``.

A fixed threshold on that score escalates whatever share the stream happens to produce (a threshold
set for 20% of dev escalated 31% of free-text test). :class:`ShareGate` turns the score into a budget
instead: it escalates the decisions whose doubt ranks in the top ``share`` of the recent stream.
"""

from __future__ import annotations

import bisect
import math
import threading
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import TarlError
from .grounding import Grounding, content_tokens, entities, identifiers, proposition
from .reliability import prior
from .schema import Action, Claim, Decision, Ledger

ACTIONS = ("append", "noop", "revise", "reject_conflict", "defer_verify")
TERMS = ("low_probability", "leans_to_missing_target", "close_candidates", "small_margin", "removes_accepted",
         "near_miss", "update_without_target", "weak_source", "empty_memory", "contract_override",
         "close_actions", "shares_words_without_target", "shares_names_without_target",
         *(f"executes_{a}" for a in ACTIONS))
"""The signals of doubt, in order (see :func:`doubt_terms`)."""
CLOSE_GAP = 0.05
"""Two candidates whose match scores differ by less than this are too close to tell apart."""
MARGIN_BAND = 0.15
"""A reliability margin |rho| below this does not say which of claim and target to trust."""
STRICT_PROBABILITY = 0.9
"""A revise (it removes an Accepted entry) needs at least this probability not to count as in doubt."""
TRUSTED_PRIOR = 0.9
"""Sources with a prior below this (assistant, tool, documents, hearsay, web) are weighed case by case."""
_LEANS = {Action.REVISE.value, Action.REJECT_CONFLICT.value}


def _unlinked_overlap(claim: Claim, grounding: Grounding) -> tuple[float, float]:
    """With no target: the largest share of the claim's content words found in one open entry, and
    whether an open entry names one of its ids or names. Cosine misses a reworded or hedged claim
    about a stored fact; shared words and ids say memory may hold what it is about after all."""
    if grounding.target is not None:
        return 0.0, 0.0
    words = content_tokens(proposition(claim.text))
    names = identifiers(claim.text) | entities(claim.text)
    overlap, named = 0.0, 0.0
    for entry, _ in grounding.candidates:
        if entry.ledger is Ledger.HISTORY:
            continue
        overlap = max(overlap, len(words & content_tokens(proposition(entry.text))) / max(1, len(words)))
        named = max(named, float(bool(names & (identifiers(entry.text) | entities(entry.text)))))
    return overlap, named


def doubt_terms(claim: Claim, decision: Decision, grounding: Grounding,
                proposed: Decision | None = None) -> tuple[float, ...]:
    """The signals of doubt (:data:`TERMS`), each in [0, 1], for the executed ``decision`` and the
    policy's ``proposed`` one before the labelling contract (None: the same). The proposal is read
    because the contract renormalises probabilities over the actions it allows: a policy that wanted
    revise at 0.9 and is held to append would otherwise look certain of the append.

    - ``low_probability``: 1 - the probability the policy gave the action that is executed;
    - ``leans_to_missing_target``: the base's most probable action is revise or reject_conflict, but
      grounding found no target (it believes the claim updates something memory could not locate);
    - ``close_candidates``: a target was found but the runner-up matched almost as well;
    - ``small_margin``: a target was found and the reliability margin is near zero;
    - ``removes_accepted``: the action removes an Accepted entry (revise) below a stricter probability;
    - ``near_miss``: no target, yet an open entry is this similar (cosine): grounding may have missed it;
    - ``update_without_target``: the claim reads as an update ("now", "moved", "switched") of nothing found;
    - ``weak_source``: the source is not one memory trusts by default;
    - ``empty_memory``: nothing open to relate the claim to (a new claim there is rarely misjudged);
    - ``contract_override``: the contract did not allow the policy's own choice;
    - ``close_actions``: 1 - the gap between the policy's two most probable actions;
    - ``shares_words_without_target`` / ``shares_names_without_target``: no target, yet an open entry
      holds most of the claim's words / one of its ids or names;
    - ``executes_<action>``: which action is executed (each errs at its own rate).
    """
    proposed = proposed or decision
    probs = proposed.probabilities
    p = probs.get(decision.action.value, 1.0 if proposed.action is decision.action else 0.0)
    lean = max(probs, key=probs.__getitem__) if probs else decision.action.value
    target = grounding.target is not None
    nearest = max((s for _, s in grounding.candidates), default=0.0)
    best, second = (sorted(probs.values(), reverse=True) + [0.0, 0.0])[:2]
    return (
        1.0 - p,
        float(lean in _LEANS and not target),
        float(target and grounding.features.get("runner_up_gap", 1.0) < CLOSE_GAP),
        float(target and abs(decision.margin) < MARGIN_BAND),
        float(decision.action is Action.REVISE and p < STRICT_PROBABILITY),
        0.0 if target else min(1.0, max(0.0, nearest)),
        float(not target and bool(grounding.features.get("update_cue"))),
        float(grounding.features.get("source_prior", prior(claim)) < TRUSTED_PRIOR),
        float(not grounding.candidates and not target),
        float(proposed.action is not decision.action),
        min(1.0, max(0.0, 1.0 - (best - second))),
        *_unlinked_overlap(claim, grounding),
        *(float(decision.action.value == a) for a in ACTIONS),
    )


@dataclass(frozen=True)
class Uncertainty:
    """P(the base policy is wrong) = sigmoid(bias + weights . doubt_terms); escalate at >= threshold
    (or, under a :class:`ShareGate`, when the score ranks in the top share of the stream).

    The defaults were fitted by ``tarl bench escalation`` on the hand-written dev split (free text and
    slotted claims, the shipped learned policy under the labelling contract); the default ``threshold``
    escalated about 20% of dev decisions. Refit when the policy's weights change: the bench prints the
    new fit."""

    weights: tuple[float, ...] = (1.74, 0.3, 0.12, -0.1, -0.01, 0.24, 0.24, 0.07, -0.91, 1.24,
                                  1.65, 0.04, 0.3, 0.14, -0.25, -0.09, -0.21, 0.42)
    bias: float = -2.74
    threshold: float = 0.4

    def __post_init__(self) -> None:
        if len(self.weights) != len(TERMS):
            raise TarlError("weights", self.weights, f"expected {len(TERMS)} numbers, one per term {TERMS}")
        if not 0.0 <= self.threshold <= 1.0:
            raise TarlError("threshold", self.threshold, "must be within [0, 1]")

    def p(self, terms: Iterable[float]) -> float:
        """P(wrong) for a vector of :data:`TERMS`."""
        z = self.bias + sum(w * t for w, t in zip(self.weights, terms))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def score(self, claim: Claim, decision: Decision, grounding: Grounding, proposed: Decision | None = None) -> float:
        """P(the executed decision is wrong), as the rule estimates it."""
        return self.p(doubt_terms(claim, decision, grounding, proposed))

    def why(self, claim: Claim, decision: Decision, grounding: Grounding, proposed: Decision | None = None,
            gate: ShareGate | None = None) -> str | None:
        """None when the base is confident enough (below ``threshold``, or outside ``gate``'s share);
        else a short reason naming the strongest signal."""
        terms = doubt_terms(claim, decision, grounding, proposed)
        p = self.p(terms)
        if not (gate.admits(p) if gate is not None else p >= self.threshold):
            return None
        top = max(range(len(TERMS)), key=lambda i: self.weights[i] * terms[i])
        return f"uncertain: P(wrong)={p:.2f}, mostly {TERMS[top]}"


class ShareGate:
    """Escalate the ``share`` most doubtful decisions of the recent stream: a score escalates when
    fewer than ``share`` of the last ``window`` scores (itself included) are above it, and the gate has
    escalated fewer than ``share`` of the decisions it has seen plus ``burst`` (a budget: a stream more
    doubtful than the scores it remembers does not push the share above it; the small credit lets a
    cluster of doubtful writes through after a calm stretch). ``seed``: scores to start from (the bench
    seeds the dev split's); until ``warmup`` scores are held, the rule's fixed threshold ranks, so a
    fresh store does not escalate its first writes wholesale. ``burst`` 5 came closest to the nominal
    shares on the dev streams (mean gap 0.6 points on free text, vs 0.9 for 3 and 1.8 for 1)."""

    def __init__(self, share: float, threshold: float, *, window: int = 500, warmup: int = 50, burst: int = 5,
                 seed: Iterable[float] = ()) -> None:
        if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0.0 <= share <= 1.0:
            raise TarlError("share", share, "must be a fraction within [0, 1]")
        if isinstance(window, bool) or not isinstance(window, int) or window < 1:
            raise TarlError("window", window, "must be a positive integer")
        if isinstance(burst, bool) or not isinstance(burst, int) or burst < 0:
            raise TarlError("burst", burst, "must be a non-negative integer")
        self.share, self.threshold, self.warmup, self.burst = float(share), threshold, warmup, burst
        self.seen, self.escalated = 0, 0
        self.recent: deque[float] = deque(maxlen=window)
        self.ranked: list[float] = []           # the same scores, sorted: a rank is one bisection
        self._lock = threading.Lock()
        for s in seed:
            self._add(s)

    def _add(self, score: float) -> None:
        if len(self.recent) == self.recent.maxlen:
            del self.ranked[bisect.bisect_left(self.ranked, self.recent[0])]
        self.recent.append(score)
        bisect.insort(self.ranked, score)

    def admits(self, score: float) -> bool:
        """Whether ``score`` escalates; it joins the window either way."""
        with self._lock:
            self._add(score)
            self.seen += 1
            if len(self.ranked) < self.warmup:
                doubtful = score >= self.threshold
            else:
                doubtful = len(self.ranked) - bisect.bisect_right(self.ranked, score) < self.share * len(self.ranked)
            if not doubtful or not self.share or self.escalated + 1 > self.share * self.seen + self.burst:
                return False
            self.escalated += 1
            return True
