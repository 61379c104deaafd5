"""Keyed writes: what a caller whose slots are *keys* (a LangGraph store key, a tool's topic) may rely on.

A key-value caller expects two things a free-text memory does not promise, and the engine keeps both
for it without the adapter taking any decision:

- **Keys are independent.** ``MemoryEngine.write(claim, keyed=True)`` weighs the claim only against the
  open entries of its own key (``claim.slot``), never against other keys of the namespace. Distinct keys
  name distinct things ("o1".."o9" are nine orders, "bob_city" is not "alice_city"), so grounding them
  against each other by similarity loses data. A caller that wants grounding across keys (free text
  whose key is a random id) writes with ``keyed=False``.
- **A changed value never vanishes.** When the target holds the claim's own key, the *whole* content
  (text and metadata, where a store keeps the full value) decides whether anything changed:
  ``{"text": "Buy milk", "done": false}`` then ``... true`` is a change although the text is equal. A
  policy's ``noop`` on a changed value would drop it silently, so :func:`keep_change` replaces it by the
  most probable action that keeps the value visible: ``revise`` (current), ``defer_verify`` (Pending) or
  ``reject_conflict`` (History, with the reason) — each logged, and returned to the caller.
"""

from __future__ import annotations

from .schema import Action, Claim, Decision, Entry

KEEPING = (Action.REVISE, Action.DEFER_VERIFY, Action.REJECT_CONFLICT)
"""The actions that keep a changed value visible (Accepted, Pending, or History with a reason), in the
order that breaks ties among equally probable ones when the reliability margin favours the claim."""


def changed(claim: Claim, entry: Entry) -> bool:
    """The claim says something other than ``entry`` on the same key: its text or metadata differ."""
    return claim.slot is not None and claim.slot == entry.slot and (
        claim.text != entry.text or claim.metadata != entry.metadata)


def keep_change(claim: Claim, target: Entry | None, decision: Decision) -> Decision:
    """``decision``, unless it is a ``noop`` that would drop a changed value on the target's own key:
    then the most probable of :data:`KEEPING` (ties: ``revise`` when the reliability margin is not
    negative, else ``defer_verify``), with the rationale saying so."""
    if decision.action is not Action.NOOP or target is None or not changed(claim, target):
        return decision
    order = KEEPING if decision.margin >= 0 else (Action.DEFER_VERIFY, Action.REJECT_CONFLICT, Action.REVISE)
    action = max(order, key=lambda a: (decision.probabilities.get(a.value, 0.0), -order.index(a)))
    return decision.model_copy(update={
        "action": action, "target_id": target.id,
        "rationale": f"the value of key {claim.slot!r} changed, so it is not dropped: {action.value} "
                     f"(policy said noop; {decision.rationale})",
    })
