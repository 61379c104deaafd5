"""The fault bench's slot counter tells a broken invariant (two Accepted values of a single-valued
relation) from memory working (several Accepted values of "likes" or "has order")."""

from __future__ import annotations

from shared_core.bench.faults import check
from shared_core.engine import MemoryEngine
from shared_core.executor import Step
from shared_core.schema import Action, Claim


def test_single_valued_violations_are_counted_apart_from_multi_valued_slots(tmp_path):
    target = str(tmp_path / "store")
    texts = [("Ana lives in Lisbon", "Ana:lives in"), ("Ana lives in Porto", "Ana:lives in"),
             ("Ana likes jazz", "Ana:likes"), ("Ana likes chess", "Ana:likes"),
             ("Ben has order #A-1001", "Ben:has order"), ("Ben has order #A-1002", "Ben:has order"),
             ("Ben works at Acme", "Ben:works at")]
    with MemoryEngine.open(target) as engine:      # appended by hand: the policy would never keep both cities
        engine.apply("u", [Step(Action.APPEND, Claim(text=t, namespace="u", slot=s)) for t, s in texts])
    result = check(target, None, [])
    assert result["slot_violations"] == 1
    assert result["multi_valued_slots_crowded"] == 2
    assert result["lost"] == 0 and result["index_diff"] == 0 and result["inconsistent"] == 0


def test_a_violation_the_policy_would_not_make_is_told_from_its_own(tmp_path):
    """Replaying the log's claims in one process redoes the policy's decisions: two Accepted cities that
    no decision put there (appended by hand here, as a race between writers would) are not reproduced."""
    from shared_core.bench.faults import replayed_violations

    target = str(tmp_path / "store")
    with MemoryEngine.open(target) as engine:
        engine.apply("u", [Step(Action.APPEND, Claim(text=t, namespace="u", slot="Ana:lives in"))
                           for t in ("Ana lives in Lisbon", "Ana lives in Porto now")])
    assert check(target, None, [])["slot_violations"] == 1
    assert replayed_violations(target, None) == 0
