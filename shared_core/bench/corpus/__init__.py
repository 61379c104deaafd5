"""The hand-written TARL corpus: episodes written by this project, labelled by the rules in the
project's labelling notes (the contract for what the five actions mean on real text).

Why it exists: the generator's own test split measures only how well a policy learned the generator.
This corpus is written the way users, assistants, tools, web pages and third parties actually write,
and it is the data every decision change is chosen on (dev) and reported on (test).

Format: every ``*.jsonl`` file in this folder holds one episode per line::

    {"id": "travel-07", "domain": "travel", "namespace": "user:noor",
     "steps": [{"text": "...", "source": "user", "slot": "user.seat", "many": false, "day": 0.0,
                "action": "append", "target": null}, ...]}

- ``slot``: canonical ``subject.attribute`` (``null`` only for chit-chat); ``many``: the attribute holds
  several values (likes, allergies, members) — required with a slot.
- ``day``: days since the episode began (observed time); optional ``valid_from_day``, ``valid_to_day``.
- ``target``: 0-based index of the earlier step whose entry the label is about; that entry must be in
  Accepted just before this step (checked by :func:`validate`, which runs the gold actions through the
  one executor). Optional ``confidence`` (default 0.9, what the adapters send) and ``note`` (why the
  label; never read by a model).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from ...config import DEFAULT_PRIORS
from ...schema import DECISION_ACTIONS, Action, Claim, Ledger
from ..episodes import EPOCH, Episode, GoldStep, entry_id, gold_states

HERE = Path(__file__).parent
CHECKS = HERE / "checks"
"""Hand-written check episodes outside the frozen split, each set written by someone who had not read the
rest of the corpus; scored whole by ``tarl bench tarl-mem`` (``check_*``), never fitted or chosen on."""
TRAIN = HERE / "train"
"""Hand-written episodes for fitting only: outside the frozen dev/test split (its hash reads this folder's own files)."""
LABELS = {a.value for a in DECISION_ACTIONS}
SOURCES = set(DEFAULT_PRIORS)   # the sources the engine knows without an alias
NEEDS_TARGET = {"revise", "reject_conflict"}


@dataclass(frozen=True)
class RawEpisode:
    id: str
    domain: str
    namespace: str
    steps: tuple[dict, ...]
    file: str


def raw_episodes(folder: Path = HERE) -> list[RawEpisode]:
    out = []
    for file in sorted(folder.glob("*.jsonl")):
        for n, line in enumerate(file.read_text().splitlines(), 1):
            if line.strip():
                try:
                    d = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{file.name}:{n}: not JSON ({e})") from None
                out.append(RawEpisode(d["id"], d["domain"], d["namespace"], tuple(d["steps"]), f"{file.name}:{n}"))
    return out


def to_episode(raw: RawEpisode, *, slots: bool = True, split: str = "test") -> Episode:
    """``slots=False`` gives the free-text variant: the same claims with no slot (agents write free text)."""
    steps = []
    for s in raw.steps:
        at = EPOCH + timedelta(days=float(s.get("day", 0.0)))
        vf, vt = s.get("valid_from_day"), s.get("valid_to_day")
        claim = Claim(text=s["text"], namespace=raw.namespace, source=s.get("source", "user"),
                      confidence=s.get("confidence", 0.9), observed_at=at,
                      valid_from=EPOCH + timedelta(days=float(vf)) if vf is not None else None,
                      valid_to=EPOCH + timedelta(days=float(vt)) if vt is not None else None,
                      slot=s.get("slot") if slots else None, many=s.get("many") if slots else None)
        steps.append(GoldStep(claim, Action(s["action"]), s.get("target"), raw.domain))
    return Episode(name=raw.id, split=split, origin="handwritten", steps=tuple(steps))


def validate(raw: RawEpisode) -> list[str]:
    """Problems with one episode (empty when it is well formed and its gold labels execute)."""
    where = f"{raw.file} ({raw.id})"
    problems = []
    if not 4 <= len(raw.steps) <= 8:
        problems.append(f"{where}: {len(raw.steps)} steps, expected 4-8")
    for i, s in enumerate(raw.steps):
        at = f"{where} step {i}"
        if s.get("action") not in LABELS:
            problems.append(f"{at}: action {s.get('action')!r} is not one of {sorted(LABELS)}")
        if s.get("source", "user") not in SOURCES:
            problems.append(f"{at}: source {s.get('source')!r} is not one of {sorted(SOURCES)}")
        if s.get("slot") is not None and not isinstance(s.get("many"), bool):
            problems.append(f"{at}: a slotted step needs \"many\": true/false")
        if s.get("slot") is None and s.get("action") != "noop":
            problems.append(f"{at}: only chit-chat (noop) has no slot")
        t = s.get("target")
        if s.get("action") in NEEDS_TARGET and t is None:
            problems.append(f"{at}: {s.get('action')} needs a target")
        if t is not None and not (isinstance(t, int) and 0 <= t < i):
            problems.append(f"{at}: target {t!r} must be the index of an earlier step")
        elif t is not None and raw.steps[t].get("slot") != s.get("slot"):
            problems.append(f"{at}: target step {t} has slot {raw.steps[t].get('slot')!r}, this step {s.get('slot')!r}")
    cardinality: dict[str, set] = {}
    for s in raw.steps:
        if s.get("slot") is not None:
            cardinality.setdefault(s["slot"], set()).add(s.get("many"))
    problems += [f"{where}: slot {k!r} is labelled both one-valued and many-valued" for k, v in cardinality.items() if len(v) > 1]
    if problems:
        return problems
    try:
        states = gold_states(to_episode(raw))
    except Exception as e:  # the executor refused a gold step: the label is not executable
        return [f"{where}: gold actions do not execute: {e}"]
    for i, s in enumerate(raw.steps):
        t, action, slot = s.get("target"), s.get("action"), s.get("slot")
        if t is not None:
            e = states[i].entry(entry_id(t))
            if e is None or e.ledger is not Ledger.ACCEPTED:
                problems.append(f"{where} step {i}: target step {t} is not in Accepted at this point")
            vf, tvf = s.get("valid_from_day"), raw.steps[t].get("valid_from_day", raw.steps[t].get("day", 0))
            if action == "revise" and vf is not None and float(vf) < float(tvf):
                problems.append(f"{where} step {i}: revises step {t} with an earlier validity (stale: reject_conflict)")
        occupied = slot is not None and not s.get("many") and any(
            e.slot == slot for e in states[i].accepted)
        if occupied and action == "append":
            problems.append(f"{where} step {i}: append on the occupied single-valued slot {slot!r}")
        if occupied and action in ("noop", "defer_verify") and t is None:
            problems.append(f"{where} step {i}: {action} on the occupied slot {slot!r} names no target")
        if slot is not None and action == "noop" and t is None:
            problems.append(f"{where} step {i}: a slotted noop restates an entry: give its target")
    return problems


def main(argv: list[str] | None = None) -> int:
    """``python -m shared_core.bench.corpus [FOLDER]``: validate every episode and print counts per domain
    (FOLDER defaults to this one; ``train/`` holds the episodes used only for fitting)."""
    args = sys.argv[1:] if argv is None else argv
    raws = raw_episodes(Path(args[0]) if args else HERE)
    problems = [p for r in raws for p in validate(r)]
    ids = [r.id for r in raws]
    problems += [f"duplicate episode id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    for p in problems:
        print(p)
    by_domain: dict[str, list[int]] = {}
    actions: dict[str, int] = {}
    for r in raws:
        by_domain.setdefault(r.domain, []).append(len(r.steps))
        for s in r.steps:
            actions[s["action"]] = actions.get(s["action"], 0) + 1
    for d, lens in sorted(by_domain.items()):
        print(f"{d:<14} {len(lens):>4} episodes {sum(lens):>5} steps")
    print(f"total          {len(raws):>4} episodes {sum(map(len, (r.steps for r in raws))):>5} steps; actions {actions}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
