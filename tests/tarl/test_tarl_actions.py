"""Each TARL action executes as specified when a policy chooses it inside a real engine, and the
shipped learned policy makes the obvious calls."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core.engine import MemoryEngine
from shared_core.grounding import Grounding
from shared_core.policy import LearnedPolicy
from shared_core.reliability import Comparison
from shared_core.schema import Action, Claim, Decision, Ledger, Reason

T0 = datetime(2026, 3, 1, tzinfo=timezone.utc)


class Always:
    """A real policy that always picks one action against the grounded target."""

    def __init__(self, action: Action) -> None:
        self.name, self.action = f"always_{action.value}", action

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision:
        if grounding.target is None or self.action is Action.APPEND:
            return Decision(action=Action.APPEND)
        return Decision(action=self.action, target_id=grounding.target.id)


def claim(text: str, **kw) -> Claim:
    return Claim(text=text, namespace="ana", slot="home", **kw)


@pytest.mark.parametrize("action", [Action.APPEND, Action.NOOP, Action.REVISE, Action.REJECT_CONFLICT, Action.DEFER_VERIFY])
def test_action_moves_exactly_as_specified(action: Action) -> None:
    """The labelling contract applies to every policy, so each action is asked for where it is allowed:
    a restatement for noop, a fact about another attribute for append (a second home city beside the
    first is not allowed: a single-valued slot holds one answer), a hedged claim for defer_verify."""
    with MemoryEngine.open(policy=Always(action)) as eng:
        first = eng.write(claim("Ana lives in Rome", observed_at=T0))
        second = {Action.NOOP: claim("Ana lives in Rome", observed_at=T0 + timedelta(days=1)),
                  Action.APPEND: Claim(text="Ana plays the cello", namespace="ana", observed_at=T0 + timedelta(days=1)),
                  # the user's own unhedged word never waits on itself: a deferred claim is a hedged one
                  Action.DEFER_VERIFY: claim("Ana probably lives in Oslo", observed_at=T0 + timedelta(days=1)),
                  # nor is it rejected for what it said before: a conflict is rejected when hearsay brings it
                  Action.REJECT_CONFLICT: claim("Ana lives in Oslo", source="third_party", observed_at=T0 + timedelta(days=1))}
        d = eng.write(second.get(action) or claim("Ana lives in Oslo", observed_at=T0 + timedelta(days=1)))
        acc = {e.text for e in eng.accepted("ana")}
        pen = {e.text for e in eng.pending("ana")}
        hist = {(e.text, e.reason) for e in eng.history("ana")}
        expected = {
            Action.APPEND: ({"Ana lives in Rome", "Ana plays the cello"}, set(), set()),
            Action.NOOP: ({"Ana lives in Rome"}, set(), set()),
            Action.REVISE: ({"Ana lives in Oslo"}, set(), {("Ana lives in Rome", Reason.SUPERSEDED)}),
            Action.REJECT_CONFLICT: ({"Ana lives in Rome"}, set(), {("Ana lives in Oslo", Reason.REJECTED)}),
            Action.DEFER_VERIFY: ({"Ana lives in Rome"}, {"Ana probably lives in Oslo"}, set()),
        }[action]
        assert (acc, pen, hist) == expected
        assert d.action is action and [t.action for t in eng.log("ana")] == [Action.APPEND, action]
        if action in (Action.REVISE, Action.REJECT_CONFLICT):
            assert d.target_id == first.entry_id


@pytest.mark.parametrize("source, hedge, kept", [("user", "", "Ana lives in Oslo"), ("user", "probably ", "Ana lives in Rome"),
                                                   ("third_party", "", "Ana lives in Rome")])
def test_owners_unhedged_word_is_never_rejected(source: str, hedge: str, kept: str) -> None:
    """A policy that rejects every conflict still cannot reject the owner's unhedged later word against
    the owner's own earlier one: a change wins (tarl_labels.md). Hearsay and hedged words still can be."""
    with MemoryEngine.open(policy=Always(Action.REJECT_CONFLICT)) as eng:
        eng.write(claim("Ana lives in Rome", observed_at=T0))
        d = eng.write(claim(f"Ana {hedge}lives in Oslo", source=source, observed_at=T0 + timedelta(days=1)))
        assert {e.text for e in eng.accepted("ana")} == {kept}
        assert (d.action is Action.REJECT_CONFLICT) == (kept == "Ana lives in Rome")


def test_learned_policy_makes_the_obvious_calls() -> None:
    with MemoryEngine.open(policy=LearnedPolicy()) as eng:
        assert eng.write(Claim(text="Ana works at Globex", namespace="ana", source="user", observed_at=T0)).action is Action.APPEND
        again = eng.write(Claim(text="Ana works at Globex", namespace="ana", source="user", observed_at=T0 + timedelta(hours=1)))
        assert again.action is Action.NOOP
        order = eng.write(Claim(text="Order #KX12345 status: shipped", namespace="ana", source="tool", slot="order:KX12345",
                                valid_from=T0, observed_at=T0))
        assert order.action is Action.APPEND
        fresh = eng.write(Claim(text="Order #KX12345 status: delivered", namespace="ana", source="tool", slot="order:KX12345",
                                valid_from=T0 + timedelta(days=2), observed_at=T0 + timedelta(days=2)))
        assert fresh.action is Action.REVISE and fresh.target_id == order.entry_id
        rumour = eng.write(Claim(text="Someone said Ana works at Initech", namespace="ana", source="third_party",
                                 confidence=0.6, observed_at=T0 + timedelta(days=3)))
        assert rumour.action in (Action.REJECT_CONFLICT, Action.DEFER_VERIFY)
        assert {e.text for e in eng.accepted("ana")} == {"Ana works at Globex", "Order #KX12345 status: delivered"}
        for d in (again, fresh, rumour):
            assert abs(sum(d.probabilities.values()) - 1.0) < 1e-6
