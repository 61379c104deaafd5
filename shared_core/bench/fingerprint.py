"""``python -m shared_core.bench.fingerprint``: every decision the shipped path makes on fixed data, to
prove that a change made for speed changed no decision.

Why: the decision path (slots, linking, change, grounding, the policy's forward pass) is tuned by the
lead on the hand-written corpus; a speed-up in it is acceptable only when it is invisible. So this
records, teacher-forced (each decision on the gold state before it, candidates as
``tarl_mem_examples.candidates`` builds them), the action, target, probabilities and every grounding
feature of each step of: the hand-written dev and test splits, free and slotted; HaluMem (when the data
is there); and the probes of ``tarl bench tarl-mem``'s 10k-entry latency run. ``--save PATH`` writes
them; ``--compare PATH`` recomputes and reports every difference beyond ``--tol`` (exit 1 if any).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..decision import decide
from ..index import default_embedder
from ..policy import LearnedPolicy, Policy, RulePolicy
from .corpus import HERE as CORPUS, to_episode
from .corpus import split as corpus_split
from .episodes import Episode, gold_states
from .report import DATA_DIR
from .tarl_mem import probes_at
from .tarl_mem_examples import Vectors, candidates
from .tarl_mem_sources import halumem


def _record(outcome: Any) -> dict[str, Any]:
    d, g = outcome.decision, outcome.grounding
    return {"action": d.action.value, "target": d.target_id, "probabilities": d.probabilities,
            "grounded": g.target.id if g.target is not None else None, "similarity": g.similarity,
            "features": g.features, "steps": [(s.action.value, s.target_id) for s in outcome.steps]}


def _episodes(sets: dict[str, list[Episode]], policy: Policy, vectors: Vectors) -> Iterator[tuple[str, dict]]:
    for name, eps in sets.items():
        for ep in eps:
            states = gold_states(ep)
            for i, s in enumerate(ep.steps):
                near, slot = candidates(s.claim, states[i], vectors)
                yield f"{name}/{ep.name}/{i}", _record(decide(s.claim, near, slot, policy))


def _at_scale(n_entries: int, decisions: int, policy: Policy) -> Iterator[tuple[str, dict]]:
    """The probes of ``tarl bench tarl-mem``'s latency run (``tarl_mem.probes_at``), decided."""
    for k, (p, near, slot) in enumerate(probes_at(n_entries, decisions, 0)):
        yield f"scale{n_entries}/{k}", _record(decide(p, near, slot, policy))


def fingerprint(scale: int = 10_000, decisions: int = 300, halumem_path: Path | None = DATA_DIR / "halumem") -> dict[str, dict]:
    """``{step key: record}`` for the learned policy (and the rules on the corpus), as described above."""
    vectors = Vectors(default_embedder())
    raws = corpus_split.load(CORPUS)
    sets = {f"{part}_{kind}": [to_episode(r, slots=kind == "slot") for r in raws[part]]
            for part in ("dev", "test") for kind in ("free", "slot")}
    out: dict[str, dict] = {}
    learned = LearnedPolicy()
    out.update(_episodes(sets, learned, vectors))
    out.update((f"rules/{k}", v) for k, v in _episodes(sets, RulePolicy(), vectors))
    if halumem_path is not None and halumem_path.exists():
        out.update(_episodes({"halumem": halumem(halumem_path)}, learned, vectors))
    if scale:
        out.update(_at_scale(scale, decisions, learned))
    return out


def differences(a: Any, b: Any, tol: float, where: str = "") -> Iterator[str]:
    """Every place two records differ: exactly for strings and structure, within ``tol`` for numbers."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                yield f"{where}.{k}: only in {'after' if k in b else 'before'}"
            else:
                yield from differences(a[k], b[k], tol, f"{where}.{k}")
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple):
        if len(a) != len(b):
            yield f"{where}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, tol, f"{where}[{i}]")
    elif isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool) | isinstance(b, bool):
        if not (math.isclose(a, b, rel_tol=0, abs_tol=tol) or (math.isnan(a) and math.isnan(b))):
            yield f"{where}: {a!r} != {b!r}"
    elif a != b or isinstance(a, bool) != isinstance(b, bool):      # True == 1.0 in Python, not here
        yield f"{where}: {a!r} != {b!r}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m shared_core.bench.fingerprint", description=__doc__)
    p.add_argument("--save", type=Path, help="write the fingerprint here")
    p.add_argument("--compare", type=Path, help="compare with a saved fingerprint; exit 1 on any difference")
    p.add_argument("--scale", type=int, default=10_000, help="open entries of the latency-run probes (0: skip)")
    p.add_argument("--decisions", type=int, default=300, help="latency-run probes")
    p.add_argument("--tol", type=float, default=1e-9, help="absolute tolerance for numbers")
    args = p.parse_args(argv)
    now = json.loads(json.dumps(fingerprint(args.scale, args.decisions)))   # JSON round trip: tuples -> lists
    if args.save:
        args.save.write_text(json.dumps(now))
    if args.compare:
        before = json.loads(args.compare.read_text())
        diffs = list(differences(before, now, args.tol))
        actions = sum(before[k]["action"] != now[k]["action"] for k in before.keys() & now.keys())
        print(f"{len(now)} decisions ({len(before)} before); {len(diffs)} differences; {actions} actions differ")
        for line in diffs[:50]:
            print(" ", line)
        return 1 if diffs else 0
    print(f"{len(now)} decisions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
