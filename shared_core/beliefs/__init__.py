"""Memory that forgets: dependencies and cascades, hypotheses with a lifecycle, exclusion groups,
drift and explanations. Everything here is pure; the executor calls ``consequences`` inside each
transaction and the engine's belief methods only turn requests into executor steps.

>>> from shared_core import MemoryEngine
>>> eng = MemoryEngine.open()
>>> g = eng.exclusion_group("Which catalyst works?", "lab", closed_world=True)
>>> a, b, c = (eng.hypothesis(f"catalyst {x} works", "lab", prior=p, group=g.id).id
...            for x, p in (("A", 0.5), ("B", 0.3), ("C", 0.2)))
>>> scale = eng.hypothesis("A scales to 10 kg", "lab", depends_on=[a]).id
>>> exp = eng.start_experiment(a, "bench test of A")
>>> eng.status(a).value
'in_progress'
>>> t = eng.record_result(a, False, experiment_id=exp.id)   # one transaction settles the rest
>>> [eng.status(i).value for i in (a, scale)]
['refuted', 'pruned']
>>> _ = eng.record_result(b, False)
>>> eng.status(c).value                                     # closed world: the last one standing
'deduced'
>>> eng.explain(c).justification.note                    # doctest: +ELLIPSIS
'deduced: the only member of closed group ... still in play'
>>> eng.close()

Semantics: ``propagate`` (cascade, pruning, restoration, results, groups), ``hypotheses`` (statuses,
frontier, sampling), ``drift`` (expiry, valid-at), ``explain``, ``kinds`` (metadata keys and checks).
For agents: ``tools`` (``BeliefTools``: the tool definitions both adapters wrap, with short ids from
``aliases`` and a ``live`` view) and ``briefing`` (the summary put into the prompt); import them from
their modules (they read the executor's state, which imports this package).
"""

from .drift import expired, expires_at, valid_at
from .explain import Explanation, Justification, explain, justification
from .graph import ancestors, justification_loop
from .hypotheses import Status, best, frontier, sample, status
from .kinds import check_claim, confirmation
from .propagate import cascade, consequences

__all__ = [
    "Explanation", "Justification", "Status", "ancestors", "best", "cascade", "check_claim", "confirmation",
    "consequences", "expired", "expires_at", "explain", "frontier", "justification", "justification_loop",
    "sample", "status", "valid_at",
]
