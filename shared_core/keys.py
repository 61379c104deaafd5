"""Keyed writes: what a caller whose slots are *keys* (a LangGraph store key, a tool's topic) may rely on.

Only keyed writes (``write(..., keyed=True)``) get these promises. A slotted claim written without
``keyed`` is TARL's own business: there a reworded restatement ("yep, still a Leeds fan") is ``noop``.

A key-value caller expects two things a free-text memory does not promise, and the engine keeps both
for it without the adapter taking any decision:

- **Keys are independent.** ``MemoryEngine.write(claim, keyed=True)`` weighs the claim only against the
  open entries of its own key (``claim.slot``), never against other keys of the namespace. Distinct keys
  name distinct things ("o1".."o9" are nine orders, "bob_city" is not "alice_city"), so grounding them
  against each other by similarity loses data. A caller that wants grounding across keys (free text
  whose key is a random id) writes with ``scope="namespace"``.
- **A changed value never vanishes.** When the target holds the claim's own key, the *whole* content
  (text and metadata, where a store keeps the full value) decides whether anything changed:
  ``{"text": "Buy milk", "done": false}`` then ``... true`` is a change although the text is equal. A
  policy's ``noop`` on a changed value would drop it silently, so :func:`keep_change` replaces it by an
  action that keeps the value visible, chosen as the labelling rules choose among them
  (``../shared/notes/tarl_labels.md``): a hedged claim waits (``defer_verify``, Pending); else the
  reliability margin decides — at least as reliable as what the key holds: ``revise`` (current); less
  reliable: ``reject_conflict`` (History, with the reason). On a key declared multi-valued (``many``) the
  changed value is a further value: ``append`` beside the others (less reliable: ``defer_verify``), never a
  ``revise`` that would push the value the policy misread as restated out of Accepted ("jazz" then
  "techno" on a key of liked music). Each is logged and returned to the caller.
  The policy's probabilities are not used here: having judged the claim a restatement, its belief
  about the other actions was formed on a wrong premise. Likewise a key's *first* value is a change:
  a ``noop`` with nothing to restate (a content-free text such as ``"{}"`` or ``"ok"``) is ``append``.
- **A writer may rewrite its own key.** A ``put`` that changes the value its own source wrote, without a
  hedge, is that writer updating it: ``revise``, not a ``defer_verify`` that would leave the old value
  current while the caller believes it replaced it. Another source's change keeps TARL's decision.
- **Vouching for a waiting value keeps the change too.** A put that corroborates a value held in Pending on
  its key promotes it (TARL's corroboration), and when the put itself says something else (hearsay's
  ``{"text": T, "done": false}``, then the user's ``... true``) its value is then weighed against the
  promoted one by :func:`keep_change`, in the same transaction (:func:`after_promotion`).
"""

from __future__ import annotations

from collections.abc import Sequence

from .executor import Step
from .reliability import hedged
from .schema import Action, Claim, Decision, Entry, Ledger, stored_metadata


def changed(claim: Claim, entry: Entry) -> bool:
    """The claim says something other than ``entry`` on the same key: its text or metadata differ."""
    return claim.slot is not None and claim.slot == entry.slot and (
        claim.text != entry.text or stored_metadata(claim) != entry.metadata)


def keep_change(claim: Claim, target: Entry | None, decision: Decision, held: Entry | None = None) -> Decision:
    """``decision``, unless it is a ``noop`` that would drop a changed value on the target's own key:
    then ``defer_verify`` if the claim is hedged, else ``revise`` when the reliability margin is not
    negative and ``reject_conflict`` when it is, with the rationale saying so (a Pending target cannot
    be revised or defended: ``append`` or ``defer_verify``, unless the key also holds an Accepted value,
    ``held``: then that value is the one changed, so a key never ends with two current values; a claim
    declaring its key ``many`` is a further value: ``append`` or ``defer_verify`` the same way). A ``noop``
    of a keyed claim with no target (its key holds nothing) is ``append``."""
    if claim.slot is None:
        return decision
    if target is not None and target.ledger is Ledger.PENDING and held is not None and held.slot == claim.slot:
        target = held
    if decision.action is Action.DEFER_VERIFY and target is not None and target.ledger is Ledger.ACCEPTED \
            and claim.source == target.source and changed(claim, target) and not hedged(claim.text):
        return decision.model_copy(update={
            "action": Action.REVISE, "target_id": target.id,
            "rationale": f"key {claim.slot!r} rewritten by its own writer ({claim.source}), unhedged: revise "
                         f"(policy said defer_verify; {decision.rationale})"})
    if decision.action is not Action.NOOP:
        return decision
    if target is None:
        return decision.model_copy(update={
            "action": Action.APPEND, "target_id": None,
            "rationale": f"key {claim.slot!r} had no value, so its first one is kept: append "
                         f"(policy said noop; {decision.rationale})"})
    if not changed(claim, target):
        return decision
    target_id: str | None = target.id
    if hedged(claim.text):
        action = Action.DEFER_VERIFY
    elif target.ledger is Ledger.PENDING or claim.many:   # no Accepted value to revise or defend, or a
        action = Action.APPEND if decision.margin >= 0 else Action.DEFER_VERIFY   # further value of a many key
        target_id = None if action is Action.APPEND else target_id
    else:
        action = Action.REVISE if decision.margin >= 0 else Action.REJECT_CONFLICT
    return decision.model_copy(update={
        "action": action, "target_id": target_id,
        "rationale": f"the value of key {claim.slot!r} changed, so it is not dropped: {action.value} "
                     f"(policy said noop; {decision.rationale})",
    })


def after_promotion(claim: Claim, decision: Decision, steps: Sequence[Step],
                    key_entries: Sequence[Entry]) -> tuple[Decision, list[Step]]:
    """``steps`` (a ``noop`` and the promotion of the Pending entry the claim corroborates), followed, when the
    claim's value differs from every open value of its key, by :func:`keep_change`'s step against the
    promoted entry: the corroboration stands, and the claim's own value is not dropped (``revise`` it, or
    ``reject_conflict`` into History when less reliable). Else ``decision`` and ``steps`` as they are."""
    promoted = next((e for e in key_entries if e.id == decision.target_id), None)
    held = [e for e in key_entries if e.ledger in (Ledger.ACCEPTED, Ledger.PENDING)]
    if decision.action is not Action.NOOP or promoted is None or not all(changed(claim, e) for e in held):
        return decision, list(steps)
    kept = keep_change(claim, promoted.model_copy(update={"ledger": Ledger.ACCEPTED}), decision)
    kept = kept.model_copy(update={"rationale": f"{decision.rationale}; then {kept.rationale}"})
    return kept, [*steps, Step(kept.action, claim, kept.target_id, decision=kept)]
