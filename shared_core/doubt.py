"""The CPU policy's sense of its own doubt: which decisions to send to a judge, and how many.

Escalation is only as good as this ranking. Top probability alone misses doubt that lives in grounding
(a claim the policy would revise whose grounding found nothing) and in the contract (which renormalises
the probabilities over what it allows, so an overridden choice looks certain). :func:`doubt_terms`
reads every signal a decision exposes; :class:`Uncertainty` is a logistic model of "the base policy
is wrong" over them, fitted on the hand-written dev split.

The model is stale as soon as the policy changes: ``tarl bench escalation --refit`` refits it on the
dev split for the policy the checkout ships and writes :data:`WEIGHTS`.

A fixed threshold on that score escalates whatever share the stream happens to produce (a threshold
set for 20% of dev escalated 31% of free-text test). :class:`ShareGate` turns the score into a budget
instead: it escalates the decisions whose doubt ranks in the top ``share`` of the recent stream.
"""

from __future__ import annotations

import bisect
import json
import math
import threading
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .errors import TarlError
from .grounding import Grounding, content_tokens, entities, identifiers, proposition
from .policy.contract import ACTIONS as CONTRACT_ACTIONS
from .policy.contract import allowed
from .reliability import prior
from .schema import Action, Claim, Decision, Ledger

ACTIONS = ("append", "noop", "revise", "reject_conflict", "defer_verify")
TERMS = ("low_probability", "leans_to_missing_target", "close_candidates", "small_margin", "removes_accepted",
         "near_miss", "update_without_target", "weak_source", "empty_memory", "contract_override",
         "close_actions", "shares_words_without_target", "shares_names_without_target",
         *(f"executes_{a}" for a in ACTIONS), "target_accepted", "change_undecided",
         "forced_mass", "crowded", "untrusted", "content_free", "hedged", "structured", "long_claim")
"""The signals of doubt, in order (see :func:`doubt_terms`)."""
CROWD = 10
"""Open candidates from which memory is crowded around the claim (``crowded`` is their count over this)."""
LONG = 4.0
"""``claim_length`` (log1p of content words) from which a claim is long (``long_claim`` is 1): ~50 words."""
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


def low_probability(decision: Decision, proposed: Decision | None = None) -> float:
    """1 - the probability the policy (its ``proposed`` decision) gave the action that is executed."""
    proposed = proposed or decision
    return 1.0 - proposed.probabilities.get(decision.action.value, 1.0 if proposed.action is decision.action else 0.0)


_ZEROS = (0.0,) * (len(TERMS) - 1)


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
    - ``executes_<action>``: which action is executed (each errs at its own rate);
    - ``target_accepted``: the target is an Accepted entry (whether to revise, reject or restate it is
      where the policy errs most);
    - ``change_undecided``: 1 at the change model's threshold, 0 where it is sure whether the claim says
      something different about its target (``change_p`` is rescaled so its threshold is 0.5);
    - ``forced_mass``: the probability the policy gave to actions the contract refused (the soft form of
      ``contract_override``; from the contract's mask: a decision the contract forces reports the
      policy's own probability, not a renormalised one, so the refused mass cannot be read off it);
    - ``crowded``: how many open entries grounding weighed (over :data:`CROWD`): more to confuse;
    - ``untrusted``, ``content_free``, ``hedged``, ``structured`` (JSON or key: value), ``long_claim``
      (over :data:`LONG`): what the decision function already knows of the claim itself.

    ``tarl bench escalation`` prints, for each term alone, how well it ranks the policy's errors first on
    dev (AUROC, accuracy kept). Measured there and not computed: the linker's probability near its
    threshold (AUROC 0.50), a Pending target, a question, the speech cues, the proposal's own top
    probability and entropy (below ``low_probability``), a second network's disagreement (0.57, and
    45-90 microseconds a write).
    """
    proposed = proposed or decision
    probs = proposed.probabilities
    p = 1.0 - low_probability(decision, proposed)
    lean = max(probs, key=probs.__getitem__) if probs else decision.action.value
    target = grounding.target is not None
    nearest = max((s for _, s in grounding.candidates), default=0.0)
    best, second = (sorted(probs.values(), reverse=True) + [0.0, 0.0])[:2]
    forced = sum(probs.get(a, 0.0) for a, ok in zip(CONTRACT_ACTIONS, allowed(grounding)) if not ok)
    f = grounding.features
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
        float(target and grounding.target.ledger is Ledger.ACCEPTED),  # type: ignore[union-attr]
        1.0 - abs(2.0 * grounding.features.get("change_p", 0.0) - 1.0) if target else 0.0,
        min(1.0, max(0.0, forced)),
        min(1.0, len(grounding.candidates) / CROWD),
        float(bool(f.get("untrusted"))), float(bool(f.get("content_free"))), float(bool(f.get("hedged"))),
        float(bool(f.get("structured"))), min(1.0, f.get("claim_length", 0.0) / LONG),
    )


WEIGHTS = Path(__file__).resolve().parent / "policy" / "weights" / "doubt.json"
"""The shipped doubt model, written by ``tarl bench escalation --refit`` (fitted on the dev split only)."""


def read(path: str | Path) -> dict[str, Any]:
    """A doubt model file as read: ``terms`` (name -> weight), ``crosses`` ("a*b" -> weight of the
    product of two terms; optional), ``bias``, ``threshold``, ``seed`` and how it was fitted. Weights are
    keyed by term name, so a file fitted before a term existed gives it weight 0."""
    raw: dict[str, Any] = json.loads(Path(path).read_text())
    named = set(raw["terms"]) | {t for pair in raw.get("crosses", {}) for t in pair.split("*")}
    unknown = named - set(TERMS)
    if unknown:
        raise TarlError("terms", sorted(unknown), f"{path} names terms doubt_terms does not compute; refit it")
    return raw


@cache
def shipped() -> Mapping[str, Any]:
    """The shipped file (:data:`WEIGHTS`), read once."""
    return read(WEIGHTS)


def _weights() -> tuple[float, ...]:
    return tuple(float(shipped()["terms"].get(t, 0.0)) for t in TERMS)


def _crosses(raw: Mapping[str, Any]) -> tuple[tuple[str, str, float], ...]:
    return tuple((*pair.split("*"), float(w)) for pair, w in raw.get("crosses", {}).items())  # type: ignore[misc]


@dataclass(frozen=True)
class Uncertainty:
    """P(the base policy is wrong) = sigmoid(bias + weights . doubt_terms + sum of w_ab * term_a * term_b
    over ``crosses``); escalate at >= threshold (or, under a :class:`ShareGate`, when the score ranks in
    the top share of the stream). A cross lets one signal count only together with another (doubt at a
    forced decision, say), which a sum of terms cannot express; a few products keep the score a handful
    of multiplications on the write path.

    The defaults are the shipped file (:data:`WEIGHTS`), fitted by ``tarl bench escalation --refit`` on
    the hand-written dev split (free text and slotted claims, the shipped policy under the labelling
    contract); the default ``threshold`` escalated 20% of dev decisions, and ``seed`` (the dev scores'
    percentiles) starts a :class:`ShareGate` so that a fresh store ranks its first writes against dev
    rather than against a handful of its own. A rule built with other weights has no seed unless given."""

    weights: tuple[float, ...] = field(default_factory=_weights)
    bias: float = field(default_factory=lambda: float(shipped()["bias"]))
    threshold: float = field(default_factory=lambda: float(shipped()["threshold"]))
    seed: tuple[float, ...] | None = None
    crosses: tuple[tuple[str, str, float], ...] | None = None
    """``(term_a, term_b, weight)``; None: the shipped file's when the weights are its own, else none."""
    _pairs: tuple[tuple[int, int, float], ...] = field(default=(), init=False, repr=False, compare=False)
    _first_only: bool = field(default=False, init=False, repr=False, compare=False)
    """Only ``low_probability`` weighs (the shipped rule): the other terms are read only to say why."""

    def __post_init__(self) -> None:
        if len(self.weights) != len(TERMS):
            raise TarlError("weights", self.weights, f"expected {len(TERMS)} numbers, one per term {TERMS}")
        if not 0.0 <= self.threshold <= 1.0:
            raise TarlError("threshold", self.threshold, "must be within [0, 1]")
        own = self.weights == _weights() and self.bias == float(shipped()["bias"])
        if self.seed is None:
            object.__setattr__(self, "seed", tuple(map(float, shipped()["seed"])) if own else ())
        if self.crosses is None:
            object.__setattr__(self, "crosses", _crosses(shipped()) if own else ())
        bad = [c for c in self.crosses or () if len(c) != 3 or c[0] not in TERMS or c[1] not in TERMS]
        if bad:
            raise TarlError("crosses", bad, f"each must be (term, term, weight) with terms among {TERMS}")
        object.__setattr__(self, "_pairs", tuple((TERMS.index(a), TERMS.index(b), float(w))
                                                 for a, b, w in self.crosses or () if w))
        object.__setattr__(self, "_first_only", not self._pairs and not any(self.weights[1:]))

    @classmethod
    def load(cls, path: str | Path) -> Uncertainty:
        """A rule from a file in the shipped format (what ``--refit`` writes)."""
        raw = read(path)
        return cls(tuple(float(raw["terms"].get(t, 0.0)) for t in TERMS), float(raw["bias"]),
                   float(raw["threshold"]), tuple(map(float, raw["seed"])), _crosses(raw))

    def save(self, path: str | Path, **provenance: Any) -> None:
        """Write this rule in the shipped format, with ``provenance`` (command, data, choice) beside it."""
        body = {**provenance, "terms": dict(zip(TERMS, self.weights)),
                "crosses": {f"{a}*{b}": w for a, b, w in self.crosses or ()}, "bias": self.bias,
                "threshold": self.threshold, "seed": list(self.seed or ())}
        Path(path).write_text(json.dumps(body, indent=1) + "\n")
        shipped.cache_clear()

    def contributions(self, terms: Sequence[float]) -> dict[str, float]:
        """Each term's and cross's share of the log-odds for these ``terms`` (zeros left out)."""
        out = {t: w * v for t, w, v in zip(TERMS, self.weights, terms) if w * v}
        out.update({f"{TERMS[i]}*{TERMS[j]}": w * terms[i] * terms[j] for i, j, w in self._pairs if terms[i] * terms[j]})
        return out

    def p(self, terms: Sequence[float]) -> float:
        """P(wrong) for a vector of :data:`TERMS`."""
        z = self.bias + sum(w * t for w, t in zip(self.weights, terms))
        for i, j, w in self._pairs:
            z += w * terms[i] * terms[j]
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))

    def score(self, claim: Claim, decision: Decision, grounding: Grounding, proposed: Decision | None = None) -> float:
        """P(the executed decision is wrong), as the rule estimates it."""
        if self._first_only:     # every other term weighs 0: skip reading them (half the wrapper's cost)
            return self.p((low_probability(decision, proposed),) + _ZEROS)
        return self.p(doubt_terms(claim, decision, grounding, proposed))

    def why(self, claim: Claim, decision: Decision, grounding: Grounding, proposed: Decision | None = None,
            gate: ShareGate | None = None) -> str | None:
        """None when the base is confident enough (below ``threshold``, or outside ``gate``'s share);
        else a short reason naming the strongest signal."""
        terms = None if self._first_only else doubt_terms(claim, decision, grounding, proposed)
        p = self.score(claim, decision, grounding, proposed) if terms is None else self.p(terms)
        if not (gate.admits(p) if gate is not None else p >= self.threshold):
            return None
        parts = self.contributions(terms or doubt_terms(claim, decision, grounding, proposed))
        return f"uncertain: P(wrong)={p:.2f}, mostly {max(parts, key=parts.__getitem__) if parts else 'the bias'}"


def check_share(share: object) -> None:
    """``TarlError`` naming ``share`` unless it is a fraction within [0, 1]."""
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0.0 <= share <= 1.0:
        raise TarlError("share", share, "must be a fraction within [0, 1] (the share of writes sent to the judge)")


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
        check_share(share)
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
