"""Pending resolution: how a deferred claim leaves Pending.

Three ways, all as executor steps in the transaction log (so ``state(ns, as_of)`` replays them):
- corroboration: a later claim that restates a Pending entry, unhedged and from another source, promotes
  it (the corroborating claim itself is logged as noop against it; promotion supersedes the Accepted entry
  the Pending one contested, if any);
- verification: ``MemoryEngine.verify(entry_id, accept)`` promotes or rejects by hand;
- expiry: ``expiry_steps`` closes Pending entries older than ``max_age`` (or whose validity has ended)
  into History with reason ``expired``; ``MemoryEngine.sweep_pending`` applies them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from .beliefs.kinds import kind
from .errors import TarlError
from .executor import Step
from .grounding import Grounding, features
from .reliability import hedged
from .schema import Action, Claim, Decision, Entry, Ledger, Reason

DEFAULT_MAX_AGE = timedelta(days=30)
AGREEMENT_OVERLAP = 0.6
"""Content-word Jaccard above which two texts with no differing numbers, ids, entities or negation
say the same thing (cosine >= grounding.NEAR_DUPLICATE also counts)."""


def agrees(claim: Claim, entry: Entry, similarity: float) -> bool:
    f = features(claim, entry, similarity)
    differs = f["numbers_differ"] or f["entities_differ"] or f["ids_differ"] or f["negation_differs"]
    return bool((f["near_duplicate"] or f["lexical_overlap"] >= AGREEMENT_OVERLAP) and not differs)


def _anyone(source: str) -> bool:
    return True


def corroborated(claim: Claim, grounding: Grounding, trusted: Callable[[str], bool] = _anyone,
                 slot_entries: Iterable[Entry] = ()) -> Entry | None:
    """The Pending candidate this claim independently confirms, if any. Hypotheses and experiments
    are settled by experiment results, never by a restatement in chat; and two untrusted sources
    agreeing (a web page repeating a rumour) is not confirmation. A Pending answer to a single-valued
    slot whose Accepted answer it does not contest is not promoted beside it (``slot_entries``: the
    claim's slot's open entries): the slot would hold two current values; the claim is decided instead."""
    if hedged(claim.text) or not any(e.ledger is Ledger.PENDING for e, _ in grounding.candidates):
        return None     # (nothing Pending to confirm: most writes, spared the slot map and the sort below)
    held: dict[str, set[str]] = {}      # single-valued slot -> its Accepted entries
    for e in [*slot_entries, *(e for e, _ in grounding.candidates)]:
        if e.ledger is Ledger.ACCEPTED and e.slot is not None and e.metadata.get("many") is not True:
            held.setdefault(e.slot, set()).add(e.id)
    for entry, similarity in sorted(grounding.candidates, key=lambda p: -p[1]):
        holders = held.get(entry.slot, set()) if entry.slot is not None else set()
        if (entry.ledger is Ledger.PENDING and kind(entry) is None and entry.source != claim.source
                and (not holders or entry.target_id in holders)
                and (trusted(claim.source) or trusted(entry.source)) and agrees(claim, entry, similarity)):
            return entry
    return None


def resolve(claim: Claim, grounding: Grounding, decision: Decision, trusted: Callable[[str], bool] = _anyone,
            slot_entries: Iterable[Entry] = ()) -> tuple[Decision, list[Step]]:
    """The steps a write executes: the policy's decision, or — when the claim corroborates a Pending
    entry — a noop for the claim followed by the promotion of that entry. ``trusted``: whether a
    source may vouch for a Pending entry (``PolicyConfig.trusted``)."""
    entry = corroborated(claim, grounding, trusted, slot_entries)
    if entry is None:
        return decision, [Step(decision.action, claim, decision.target_id, decision=decision)]
    note = f"corroborated by {claim.source}"
    d = decision.model_copy(update={
        "action": Action.NOOP, "target_id": entry.id,
        "rationale": f"corroborates pending {entry.id} (from {entry.source}): promoted; policy said {decision.action.value}",
    })
    return d, [Step(Action.NOOP, claim, entry.id, decision=d, note=note), Step(Action.PROMOTE, target_id=entry.id, note=note)]


def expiry_steps(pending: Iterable[Entry], now: datetime, max_age: timedelta = DEFAULT_MAX_AGE) -> list[Step]:
    """Close into History (reason expired) every Pending entry observed more than ``max_age`` before
    ``now`` or whose validity ended before ``now``."""
    if not isinstance(max_age, timedelta) or max_age < timedelta(0):
        raise TarlError("max_age", max_age, "must be a non-negative timedelta")
    steps = []
    for e in pending:
        if e.ledger is not Ledger.PENDING or kind(e) is not None:   # hypotheses wait for experiments
            continue
        if e.observed_at <= now - max_age:
            steps.append(Step(Action.CLOSE, target_id=e.id, reason=Reason.EXPIRED, note=f"unverified for over {max_age}"))
        elif e.valid_to is not None and e.valid_to <= now:
            steps.append(Step(Action.CLOSE, target_id=e.id, reason=Reason.EXPIRED, note="validity ended while pending"))
    return steps
