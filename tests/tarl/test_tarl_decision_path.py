"""``tarl bench tarl-mem`` measures the shipped path: on the same claims, the benchmark's rollout and
``MemoryEngine.write`` make the same decisions (action and target), because both call
``decision.decide``."""

from __future__ import annotations

from datetime import timedelta

import pytest

from shared_core import MemoryEngine
from shared_core.bench.corpus import RawEpisode, to_episode
from shared_core.bench.episodes import EPOCH, entry_id
from shared_core.bench.tarl_mem_examples import Vectors
from shared_core.bench.tarl_mem_rollout import rollout
from shared_core.index import default_embedder
from shared_core.policy import LearnedPolicy, RulePolicy

STEPS = [
    ("I live in Lisbon", "user", "append"), ("lol ok", "user", "noop"),
    ("Big news: I moved to Porto", "user", "revise"), ("My cousin says I live in Braga", "third_party", "reject_conflict"),
    ("I like jazz", "user", "append"), ("I like sushi", "user", "append"),
    ("Order #1000 ships to warehouse 0", "tool", "append"), ("Order #1001 ships to warehouse 1", "tool", "append"),
    ("I might move to Berlin next year", "user", "defer_verify"), ("still in Porto btw", "user", "noop"),
]


def episode() -> RawEpisode:
    targets = {2: 0, 3: 2, 9: 2}
    steps = tuple({"text": t, "source": s, "action": a, "target": targets.get(i), "day": float(i)}
                  for i, (t, s, a) in enumerate(STEPS))
    return RawEpisode("path-1", "mixed", "path", steps, "inline")


@pytest.mark.parametrize("policy", [LearnedPolicy(), RulePolicy()], ids=["learned", "rules"])
def test_benchmark_and_engine_decide_alike(policy) -> None:
    ep = to_episode(episode(), slots=False)
    bench = rollout(policy.name, policy, [ep], Vectors(default_embedder()))
    made: dict[str, int] = {}
    with MemoryEngine.open(policy=policy) as engine:
        for i, s in enumerate(ep.steps):
            d = engine.write(s.claim.model_copy(update={"observed_at": EPOCH + timedelta(days=i)}))
            if d.entry_id:
                made[d.entry_id] = i
            target = entry_id(made[d.target_id]) if d.target_id in made else None
            assert (d.action.value, target) == (bench[i].pred, bench[i].target), f"step {i}: {s.claim.text!r}"


def test_the_callers_own_key_outranks_an_inferred_link(tmp_path) -> None:
    """A claim on an explicit slot is about that slot's entry, even when the linker scores a Pending
    guess about the same person higher (the demo's "Maya moved to Porto in May" once appended beside
    "Maya lives in Lisbon" because "Maybe Maya likes jazz" outscored it)."""
    from shared_core import Claim, MemoryEngine
    from shared_core.schema import Action

    with MemoryEngine.open(tmp_path / "m") as engine:
        lisbon = engine.write(Claim(text="Maya lives in Lisbon", namespace="d", slot="home_city"))
        engine.write(Claim(text="Maybe Maya likes jazz", namespace="d", source="assistant"))
        d = engine.write(Claim(text="Maya moved to Porto in May", namespace="d", slot="home_city"))
        assert d.action is Action.REVISE and d.target_id == lisbon.entry_id
        assert [e.text for e in engine.accepted("d") if e.slot == "home_city"] == ["Maya moved to Porto in May"]
