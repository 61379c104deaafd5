"""The short belief summary an adapter puts into the model's prompt before each call.

A model that forgets (a new session, a trimmed history) still sees what it may test now and what the
latest result settled, so it does not re-test a refuted branch. Stateless: "what just changed" is read
from the ledger (every move since the latest recorded result), so two processes, or two calls of one
prompt, show the same text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..schema import Move
from . import kinds as K
from .aliases import Aliases
from .live import LiveView
from .hypotheses import Status, frontier, status

if TYPE_CHECKING:
    from ..executor import MemoryState

TAG = "beliefs"


def briefing(live: LiveView, *, limit: int = 8) -> str:
    """``<beliefs>`` block: counts by status, the frontier (top ``limit`` by prior), what is established,
    and what followed from the latest result. Empty string when the namespace has no hypotheses."""
    state, al, namespace = live.state, live.aliases, live.namespace
    hyps = [e for e in state.entries.values() if K.kind(e) == K.HYPOTHESIS]
    if not hyps:
        return ""
    counts = Counter(status(state, h).value for h in hyps)
    lines = [f"Hypotheses in {namespace!r}: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items()))]
    options = sorted(frontier(state, state.pending), key=lambda e: (-K.prior(e), e.created_tx))
    shown = "; ".join(f"{al.alias(e.id)} {e.text!r} ({K.prior(e):.2f})" for e in options[:limit])
    more = f"; and {len(options) - limit} more" if len(options) > limit else ""
    lines.append(f"Frontier (test only these): {shown}{more}" if options else "Frontier: empty")
    held = [e for e in hyps if status(state, e) in (Status.CONFIRMED, Status.DEDUCED)]
    if held:
        lines.append("Established: " + "; ".join(f"{al.alias(e.id)} {e.text!r} ({status(state, e).value})"
                                                 for e in held[-limit:]))
    results = [e for e in state.entries.values() if K.kind(e) == K.RESULT]
    if results:
        latest = max(results, key=lambda e: e.created_tx)
        moves = [m for _, m in live.engine.store.moves_since(latest.created_tx - 1) if m.entry_id in state.entries]
        lines.append(f"Since the latest result ({al.alias(latest.id)}):")
        lines += consequences(moves, state, al, limit=limit)
    dead = counts.get(Status.REFUTED.value, 0) + counts.get(Status.PRUNED.value, 0)
    if dead:
        lines.append("Refuted and pruned hypotheses are settled: never test them again (explain gives why).")
    return f"<{TAG}>\n" + "\n".join(lines) + f"\n</{TAG}>"


def consequences(moves: Sequence[Move], state: MemoryState, al: Aliases, *, skip: str | None = None,
                 limit: int = 12) -> list[str]:
    """One line per hypothesis or closed-world assumption a transaction moved (its note, with aliases)."""
    out = []
    for m in moves:
        entry = state.entry(m.entry_id)
        if m.entry_id == skip or entry is None or K.kind(entry) not in (K.HYPOTHESIS, K.CLOSED_WORLD):
            continue
        out.append(f"- {al.alias(m.entry_id)}: {al.render(m.note or m.to_ledger.value)}")
    return out if len(out) <= limit else [*out[:limit], f"- ... and {len(out) - limit} more"]
