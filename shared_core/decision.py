"""THE decision function: how one claim changes memory, from a read view of the namespace.

``MemoryEngine.write`` calls it under the ledger's write lock; ``tarl bench tarl-mem`` and training call
it on gold (or rolled-out) states; so the benchmark measures the shipped path. It is pure: it reads
the candidates it is handed and returns the steps to execute, never writing anything itself.

Pipeline: check the source against the configuration -> slots (the claim's explicit or inferred
``subject.attribute`` and cardinality, and each candidate's) -> grounding (the candidate with evidence
of identity, else the nearest one, as context) -> reliability comparison -> the policy's scores -> the
labelling contract (``policy.contract``) -> pending resolution (corroboration promotes a Pending entry,
never one untrusted source by another).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import pending, slots
from .config import PolicyConfig, default_config
from .executor import Step
from .grounding import Grounding, claim_features, content_free, content_tokens, features, match_score, proposition
from .policy.base import Policy
from .policy.contract import enforce
from .reliability import Comparison, compare, reliability
from .schema import Claim, Decision, Entry, Ledger

CHANGE_CUE = ("update_cue", "negation_differs")


@dataclass(frozen=True)
class Outcome:
    decision: Decision
    steps: list[Step]
    grounding: Grounding
    comparison: Comparison | None


RESTATES = 0.6
"""Content-word Jaccard from which a claim repeats an entry: the same words are the same slot."""


def restates(claim: Claim, entry: Entry) -> bool:
    a, b = content_tokens(proposition(claim.text)), content_tokens(proposition(entry.text))
    return bool(a) and len(a & b) / len(a | b) >= RESTATES


def slot_of(item: Claim | Entry) -> slots.Slot:
    many = item.many if isinstance(item, Claim) else item.metadata.get("many")
    return slots.of(item.text, item.slot, many if isinstance(many, bool) else None)


def situate(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_entries: Sequence[Entry] = (),
            config: PolicyConfig | None = None) -> tuple[Grounding, Comparison | None]:
    """Grounding and reliability comparison of ``claim`` over the open candidates it is handed:
    ``neighbours`` (nearest open entries with their cosine) and ``slot_entries`` (open entries of the
    claim's explicit slot). Raises ``TarlError`` (field ``source``) for a source the config does not know."""
    cfg = config or default_config()
    source = cfg.source(claim.source)
    sims = {e.id: s for e, s in neighbours}
    pool = list({e.id: e for e in [*slot_entries, *(e for e, _ in neighbours)] if e.ledger is not Ledger.HISTORY}.values())
    mine = slot_of(claim)
    base = {"source_prior": cfg.source_priors[source], "claim_reliability": reliability(claim, cfg),
            "untrusted": float(source in cfg.untrusted), "many": float(mine.many), "slot_known": float(mine.known)}
    scored = []
    for e in pool:
        theirs = slot_of(e)
        if not slots.same_subject(mine, theirs):    # another order, item or person: not what this claim is about
            continue
        ident = slots.identity(mine, theirs) or (slots.same_subject(mine, theirs) and restates(claim, e))
        score = match_score(claim, e, sims.get(e.id, 0.0))
        if mine.many and ident:     # several values: the entry holding the claim's value is the one it is about
            score += 0.5 * bool(mine.values & theirs.values)
        scored.append((ident, score, e.ledger is Ledger.ACCEPTED, e, theirs))
    scored.sort(key=lambda t: (t[0], t[1], t[2]), reverse=True)
    if scored and (scored[0][0] or scored[0][1] >= cfg.match_threshold):
        ident, _, _, best, theirs = scored[0]
        runner = scored[1][1] if len(scored) > 1 else 0.0
        sim = sims.get(best.id, 0.0)
        f = features(claim, best, sim, runner)
        f.update(base, identity=float(ident), same_subject=float(slots.same_subject(mine, theirs)),
                 same_attribute=float(slots.same_attribute(mine, theirs)),
                 value_differs=float(slots.differs(mine, theirs) or bool(f["value_replaced"]) or bool(f["numbers_differ"])),
                 value_overlap=float(bool(mine.values & theirs.values)),
                 same_slot=float(mine.explicit is not None and mine.explicit == theirs.explicit),
                 many=float(mine.many or theirs.many),
                 change_signal=float(any(f.get(k) for k in CHANGE_CUE) or mine.negated))
        g = Grounding(best, sim, f, tuple(neighbours))
        comparison = compare(claim, best, cfg)
        return g, comparison
    f = {**claim_features(claim), **base, "change_signal": float(mine.negated)}
    return Grounding(None, max((s for _, s in neighbours), default=0.0), f, tuple(neighbours)), None


def decide(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_entries: Sequence[Entry], policy: Policy,
           config: PolicyConfig | None = None, *, contract: bool = True) -> Outcome:
    """The decision and the executor steps for ``claim`` (see the module docstring). ``contract=False``
    only for external baselines in the benchmark, which are measured as they are."""
    cfg = config or default_config()
    g, c = situate(claim, neighbours, slot_entries, cfg)
    d = policy.decide(claim, g, c)
    if contract:
        d = enforce(d, g)
    if content_free(claim.text) and not g.features.get("identity"):
        return Outcome(d, [Step(d.action, claim, d.target_id, decision=d)], g, c)
    decision, steps = pending.resolve(claim, g, d, trusted=cfg.trusted)
    return Outcome(decision, steps, g, c)

