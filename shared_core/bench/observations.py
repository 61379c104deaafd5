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

What that costs a user: LoCoMo's questions name the dialogue turns that answer them (``evidence``), and each
observation names the turn it was extracted from. ``evidence_kept_share`` is the share of the observations that
answer some question (not the adversarial category 5) whose own words are still Accepted after the whole stream
(a superseded one is in History, a dropped one was never stored; a right ``noop`` counts as lost too, so keeping
everything is the ceiling, 1.0); ``questions_kept_share`` the share of questions all of whose evidence is.
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
    return [(ns, text) for ns, text, _ in _stream(json.loads(path.read_text()))]


def _stream(conversations: list[dict]) -> list[tuple[str, str, tuple[str, ...]]]:
    """``observations`` with the dialogue turns each was extracted from (conversation-qualified)."""
    out = []
    for conv in conversations:
        obs = conv.get("observation") or {}
        for key in sorted((k for k in obs if _SESSION.match(k)), key=lambda k: int(_SESSION.match(k).group(1))):
            for speaker, items in obs[key].items():
                ns = re.sub(r"\W+", "_", f"{conv['sample_id']}-{speaker}")
                out.extend((ns, item[0], _turns(conv, item[1:])) for item in items
                           if item and isinstance(item[0], str) and item[0].strip())
    return out


def _turns(conv: dict, refs: list) -> tuple[str, ...]:
    flat = [r for ref in refs for r in (ref if isinstance(ref, list) else [ref]) if isinstance(r, str)]
    return tuple(f"{conv['sample_id']}/{r.strip()}" for r in flat)


def _questions(conversations: list[dict]) -> list[frozenset[str]]:
    """Each answerable question's evidence turns (conversation-qualified; category 5 is adversarial)."""
    return [frozenset(f"{conv['sample_id']}/{e.strip()}" for e in qa.get("evidence") or [] if isinstance(e, str))
            for conv in conversations for qa in conv.get("qa") or [] if qa.get("category") != 5]


def run(policy: Policy, stream: list[tuple[str, str, tuple[str, ...]]],
        questions: list[frozenset[str]] | None = None) -> dict[str, float]:
    counts: Counter[str] = Counter()
    created: list[tuple[str | None, tuple[str, ...]]] = []
    with tempfile.TemporaryDirectory() as tmp, MemoryEngine.open(Path(tmp) / "store", policy=policy) as engine:
        for ns, text, turns in stream:
            decision = engine.write(Claim(text=text, namespace=ns, source="user"))
            counts[decision.action.value] += 1
            created.append((decision.entry_id, turns))
        accepted = {e.id for ns in {ns for ns, _, _ in stream} for e in engine.accepted(ns)}
    n = max(1, len(stream))
    out = {"observations": float(len(stream)), **{f"{a}_share": counts[a] / n for a in ACTIONS}}
    if questions:
        asked = frozenset().union(*questions)
        evidence = [(i in accepted, turns) for i, turns in created if set(turns) & asked]
        kept_turns = {t for ok, turns in evidence if ok for t in turns}
        extracted = {t for _, turns in created for t in turns}
        answerable = [q for q in questions if q and q <= extracted]
        out["evidence_kept_share"] = sum(ok for ok, _ in evidence) / max(1, len(evidence))
        out["questions_kept_share"] = sum(q <= kept_turns for q in answerable) / max(1, len(answerable))
    return out


def main(argv: list[str] | None = None) -> int:
    p = bench_args("observations", __doc__.splitlines()[0], DATA_DIR / "locomo" / "locomo_train6.json")
    args = p.parse_args(argv)
    if not args.data.exists():
        p.error(f"--data={args.data}: no such file (LoCoMo conversations with 'observation' fields)")
    conversations = json.loads(args.data.read_text())
    stream, questions = _stream(conversations), _questions(conversations)
    if args.quick:
        stream = stream[:200]
    report = Report("observations", str(args.data))
    for name, policy in (("learned", LearnedPolicy()), ("rules", RulePolicy())):
        report.add(name, **run(policy, stream, questions))
    report.notes.append("free text, source user, one namespace per speaker; no gold labels (see the module docstring)")
    report.emit(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
