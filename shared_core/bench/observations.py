"""``tarl bench observations``: what memory keeps of the facts an LLM extractor writes about a conversation.

LoCoMo's ``observation`` fields are what a memory extractor writes after each session (of the kind "Jon took
his kids to the science museum recently and loved their curiosity."): mostly further events and feelings of
one person, rarely a changed value. Every observation is written in order, as free text from the
user's side, through a real engine (SQLite, the embedded index, the offline embedder), one namespace per
speaker of each conversation. There are no gold labels: the numbers say what happened to the writes, and
``revise_share`` / ``reject_conflict_share`` bound the damage (an observation that supersedes or rejects
another is almost always a second, unrelated fact of the same person; the README gives a hand-checked
sample); each revise moves an earlier observation out of retrieval, each noop drops the new one.
Systems: ``learned`` (the shipped default) and ``rules`` (the rule policy, same contract).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path

from ..engine import MemoryEngine
from ..policy import LearnedPolicy, Policy, RulePolicy
from ..policy.contract import ACTIONS
from ..schema import Claim
from .report import DATA_DIR, Report, bench_args

_SESSION = re.compile(r"session_(\d+)_observation")


def observations(path: Path) -> list[tuple[str, str]]:
    """``(namespace, text)`` in conversation order: sessions by number, each speaker's observations in turn."""
    out = []
    for conv in json.loads(path.read_text()):
        obs = conv.get("observation") or {}
        for key in sorted((k for k in obs if _SESSION.match(k)), key=lambda k: int(_SESSION.match(k).group(1))):
            for speaker, items in obs[key].items():
                ns = re.sub(r"\W+", "_", f"{conv['sample_id']}-{speaker}")
                out.extend((ns, item[0]) for item in items if item and isinstance(item[0], str) and item[0].strip())
    return out


def run(policy: Policy, stream: list[tuple[str, str]]) -> dict[str, float]:
    counts: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as tmp, MemoryEngine.open(Path(tmp) / "store", policy=policy) as engine:
        for ns, text in stream:
            counts[engine.write(Claim(text=text, namespace=ns, source="user")).action.value] += 1
    n = max(1, len(stream))
    return {"observations": float(len(stream)), **{f"{a}_share": counts[a] / n for a in ACTIONS}}


def main(argv: list[str] | None = None) -> int:
    p = bench_args("observations", __doc__.splitlines()[0], DATA_DIR / "locomo" / "locomo_train6.json")
    args = p.parse_args(argv)
    if not args.data.exists():
        p.error(f"--data={args.data}: no such file (LoCoMo conversations with 'observation' fields)")
    stream = observations(args.data)
    if args.quick:
        stream = stream[:200]
    report = Report("observations", str(args.data))
    for name, policy in (("learned", LearnedPolicy()), ("rules", RulePolicy())):
        report.add(name, **run(policy, stream))
    report.notes.append("free text, source user, one namespace per speaker; no gold labels (see the module docstring)")
    report.emit(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
