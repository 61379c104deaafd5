"""The transparent rule policy: a baseline that explains every decision in one sentence."""

from __future__ import annotations

from ..grounding import Grounding
from ..reliability import Comparison, hedged, reliability
from ..schema import Action, Claim, Decision, Ledger

MARGIN = 0.15
"""|rho| below this is too close to call: the claim waits in Pending for verification."""
TRUST = 0.5
"""A brand-new claim less reliable than this is deferred rather than accepted."""


class RulePolicy:
    name = "rules"

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        action, why = self._choose(claim, grounding, comparison)
        target = grounding.target.id if grounding.target is not None and action is not Action.APPEND else None
        margin = comparison.margin if comparison else reliability(claim) - TRUST
        return Decision(action=action, target_id=target, probabilities={action.value: 1.0}, margin=margin, rationale=why)

    def _choose(self, claim: Claim, g: Grounding, c: Comparison | None) -> tuple[Action, str]:
        r = reliability(claim)
        if g.target is None or c is None:
            if r < TRUST or hedged(claim.text):
                return Action.DEFER_VERIFY, f"new and unverified (reliability {r:.2f})"
            return Action.APPEND, f"new information (reliability {r:.2f})"
        f = g.features
        if f.get("near_duplicate") and not f.get("numbers_differ") and not f.get("negation_differs"):
            return Action.NOOP, f"restates {g.target.id} (similarity {g.similarity:.2f})"
        conflict = f.get("same_slot") or f.get("numbers_differ") or f.get("entities_differ") or f.get("negation_differs")
        if not conflict:
            if r < TRUST or hedged(claim.text):
                return Action.DEFER_VERIFY, f"related to {g.target.id} but unverified (reliability {r:.2f})"
            return Action.APPEND, f"related to {g.target.id} but does not contradict it"
        if g.target.ledger is not Ledger.ACCEPTED:
            return Action.DEFER_VERIFY, f"contests {g.target.id}, itself still pending"
        if c.margin > MARGIN:
            return Action.REVISE, f"contradicts {g.target.id} and is more reliable (margin {c.margin:+.2f})"
        if c.margin >= 0 and c.newer and not hedged(claim.text):
            return Action.REVISE, f"updates {g.target.id}: as reliable and said later (margin {c.margin:+.2f})"
        if c.margin < -MARGIN:
            return Action.REJECT_CONFLICT, f"contradicts {g.target.id} and is less reliable (margin {c.margin:+.2f})"
        return Action.DEFER_VERIFY, f"contradicts {g.target.id}; too close to call (margin {c.margin:+.2f})"
