"""A decision made before the write lock (a policy that may ask an LLM; any write on a Chroma server) is
executed as made only if nothing committed since its candidates were read; then they are not read again.
A commit in between (another writer) makes the candidates be read and the decision be made again."""

from __future__ import annotations

from shared_core.engine import MemoryEngine
from shared_core.policy import LearnedPolicy
from shared_core.schema import Claim


class SlowPolicy:
    """Decides like the shipped policy, but says it may ask a judge (so the engine decides before the
    write lock); ``meanwhile`` runs once, while the first such decision is being made."""

    asks_judge = True

    def __init__(self) -> None:
        self.base = LearnedPolicy()
        self.meanwhile = None

    def decide(self, claim, grounding, comparison):
        act, self.meanwhile = self.meanwhile, None
        if act is not None:
            act()
        return self.base.decide(claim, grounding, comparison)


def _counting(engine):
    calls = []
    real = engine.candidates
    engine.candidates = lambda *a, **k: calls.append(1) or real(*a, **k)
    return calls


def test_nothing_committed_meanwhile_the_candidates_are_read_once():
    policy = SlowPolicy()
    with MemoryEngine.open(policy=policy) as engine:
        engine.write(Claim(text="Ana lives in Lisbon", namespace="ana", slot="Ana:lives in"))
        calls = _counting(engine)
        engine.write(Claim(text="Ana lives in Rome now", namespace="ana", slot="Ana:lives in"))
        assert len(calls) == 1                                   # before the lock only
        assert [e.text for e in engine.by_slot("ana", "Ana:lives in")] == ["Ana lives in Rome now"]


def test_a_commit_while_deciding_makes_the_decision_again_on_what_is_now():
    policy = SlowPolicy()
    with MemoryEngine.open(policy=policy) as engine:
        engine.write(Claim(text="Ana lives in Lisbon", namespace="ana", slot="Ana:lives in"))
        porto = Claim(text="Ana lives in Porto now", namespace="ana", slot="Ana:lives in")
        policy.meanwhile = lambda: engine.write(porto)          # another writer commits meanwhile
        calls = _counting(engine)
        engine.write(Claim(text="Ana lives in Rome since May", namespace="ana", slot="Ana:lives in"))
        assert len(calls) >= 3                                   # Porto's write, Rome's twice: read again
        assert len(engine.by_slot("ana", "Ana:lives in")) == 1  # Rome's decision saw Porto
