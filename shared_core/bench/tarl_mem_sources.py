"""TARL-Mem episodes from outside the generator: HaluMem (read at run time, never shipped), a small
hand-written held-out set worded unlike the generator, used only as a sanity check, and hand-written episodes
crowded by other episodes' memory (``crowded``)."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ..grounding import content_tokens
from ..schema import Action, Claim
from .episodes import EPOCH, Episode, GoldStep

RESTATEMENT_JACCARD = 0.8
CROWD = 3
"""Other episodes whose memory ``crowded`` puts in front of each episode."""


def crowded(episodes: list[Episode], others: int = CROWD, seed: int = 0) -> list[Episode]:
    """Each episode with ``others`` other episodes of the same list in front of it, in its namespace and a
    month earlier each, their steps gold and unscored: the memory of one user holds more than the one or
    two attributes an episode is about, and a decision must find its target among the rest. Only episodes
    that share no gold slot with it are put in front (so every label stays right); their own dated
    changes lose their ``valid_from`` (seeds, not the test)."""
    rng = random.Random(seed)
    out = []
    for ep in episodes:
        mine = _slots(ep)
        pool = [o for o in episodes if o.name != ep.name and not _slots(o) & mine]
        for other in rng.sample(pool, min(others, len(pool))):
            ep = _in_front(other, ep)
        out.append(ep)
    return out


def _slots(ep: Episode) -> set[str]:
    return {x for s in ep.steps for x in (s.slot, s.claim.slot) if x}


def _in_front(other: Episode, ep: Episode) -> Episode:
    ns, start, n = ep.namespace, ep.steps[0].claim.observed_at, len(other.steps)
    seeds = [replace(s, scored=False, claim=s.claim.model_copy(update={
        "namespace": ns, "observed_at": start - timedelta(days=30 + n - i), "valid_from": None}))
        for i, s in enumerate(other.steps)]
    moved = [replace(s, target=None if s.target is None else s.target + n) for s in ep.steps]
    return Episode(ep.name, ep.split, ep.origin, tuple(seeds + moved))


def _when(stamp: str, fallback: datetime) -> datetime:
    try:
        return datetime.strptime(stamp, "%b %d, %Y, %H:%M:%S").replace(tzinfo=timezone.utc)
    except (TypeError, ValueError):
        return fallback


def halumem(path: Path) -> list[Episode]:
    """One episode per HaluMem user, memory points in session order.

    Labels ([WD], HaluMem has no 5-way labels): an ``is_update`` point revises its first original memory
    (seeded as an unscored append if memory does not hold it yet); an ``interference`` point is
    reject_conflict against the point it was made to confuse when that point is in Accepted, else
    defer_verify; a point whose content words overlap an open entry by Jaccard >= 0.8 is noop; other
    points append. Sources are not in the data: secondary points are read as ``user``, interference as
    ``assistant`` (generated distractors), which is an assumption this harness documents.
    """
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    episodes: list[Episode] = []
    for file in files:
        for line in file.read_text().splitlines():
            if line.strip():
                episodes.append(_halumem_user(json.loads(line)))
    return episodes


def _halumem_user(user: dict) -> Episode:
    ns = "halumem_" + str(user.get("uuid", "user"))[:8]
    steps: list[GoldStep] = []
    texts: dict[str, int] = {}
    open_steps: dict[int, set[str]] = {}
    clock = EPOCH

    def add(text: str, action: Action, target: int | None, kind: str, source: str, at: datetime, scored: bool = True) -> int:
        claim = Claim(text=text, namespace=ns, source=source, confidence=0.9 if source == "user" else 0.7, observed_at=at)
        steps.append(GoldStep(claim, action, target, kind, scored))
        return len(steps) - 1

    def restated(text: str) -> int | None:
        a = content_tokens(text)
        for i, b in open_steps.items():
            if len(a & b) / max(1, len(a | b)) >= RESTATEMENT_JACCARD:
                return i
        return None

    for session in user["sessions"]:
        points = session["memory_points"]
        by_index: dict[int, int] = {}
        for p in sorted(points, key=lambda p: p["memory_source"] == "interference"):
            clock = max(clock + timedelta(minutes=1), _when(p.get("timestamp", ""), clock))
            text = p["memory_content"].strip()
            if p["memory_source"] == "interference":
                ref = by_index.get(p.get("source_memory_index", -1))
                if ref is not None and ref in open_steps:
                    add(text, Action.REJECT_CONFLICT, ref, "interference_conflict", "assistant", clock)
                else:
                    add(text, Action.DEFER_VERIFY, None, "interference_unverified", "assistant", clock)
                continue
            if p.get("is_update") == "True" and p.get("original_memories"):
                original = p["original_memories"][0].strip()
                old = texts.get(original)
                if old is None or old not in open_steps:
                    old = add(original, Action.APPEND, None, "seed", "user", clock - timedelta(days=30), scored=False)
                    texts[original], open_steps[old] = old, content_tokens(original)
                i = add(text, Action.REVISE, old, "update", "user", clock)
                open_steps.pop(old, None)
            elif (dup := restated(text)) is not None:
                i = add(text, Action.NOOP, dup, "restate", "user", clock)
            else:
                i = add(text, Action.APPEND, None, "new_fact", "user", clock)
            if steps[i].action is not Action.NOOP:
                texts[text], open_steps[i] = i, content_tokens(text)
            by_index[p.get("index", -1)] = i if steps[i].action is not Action.NOOP else steps[i].target or i
    return Episode(name=ns, split="test", origin="halumem", steps=tuple(steps))


# (seed facts as (text, source), new claim text, source, gold action, index of the seed it is about)
HANDWRITTEN: list[tuple[list[tuple[str, str]], str, str, Action, int | None]] = [
    ([("Priyanka's daughter attends Riverside Elementary", "user")],
     "Priyanka's daughter changed schools this term and goes to Oakwood Academy", "user", Action.REVISE, 0),
    ([("The staging server runs on port 8080", "tool")],
     "config check: staging server port = 8080", "tool", Action.NOOP, 0),
    ([("Dr. Hollis is Walter's cardiologist", "user")],
     "Walter's cousin reckons his heart doctor is someone named Dr. Brandt", "third_party", Action.REJECT_CONFLICT, 0),
    ([("Beatriz plays the cello", "user")],
     "Beatriz picked up the ukulele too", "user", Action.APPEND, None),
    ([("Tariq takes metformin every morning", "user")],
     "Perhaps Tariq's doctor will swap the metformin for something else", "user", Action.DEFER_VERIFY, 0),
    ([],
     "Invoice INV-20931 was paid in full on 3 June", "tool", Action.APPEND, None),
    ([("Invoice INV-20931 is unpaid", "tool")],
     "Invoice INV-20931 was paid in full on 3 June", "tool", Action.REVISE, 0),
    ([("Greta's favourite band is Radiohead", "user")],
     "Greta's favourite band is Radiohead", "user", Action.NOOP, 0),
    ([("Hamid drives to work", "user")],
     "Hamid doesn't drive to work anymore, he cycles", "user", Action.REVISE, 0),
    ([("The team standup is at 9:30", "user")],
     "Some blog post says the team's standup happens at 11:00", "web", Action.REJECT_CONFLICT, 0),
    ([],
     "Apparently Ulrich has a twin brother, though nobody confirmed it", "third_party", Action.DEFER_VERIFY, None),
    ([("Mirela's passport number ends in 4471", "user")],
     "Mirela's passport was renewed; the new one ends in 9902", "user", Action.REVISE, 0),
    ([("Kwame is learning Mandarin", "user")],
     "Kwame is studying Arabic as well", "user", Action.APPEND, None),
    ([("Build #5120 on main: failed", "tool")],
     "Build #5120 on main: failed", "tool", Action.NOOP, 0),
    ([("Yara's lease ends in August", "user")],
     "I guess Yara might extend the lease until December, she hasn't decided", "user", Action.DEFER_VERIFY, 0),
    ([],
     "lol ok", "user", Action.NOOP, None),
]


def handwritten() -> list[Episode]:
    """Each case: its seed facts as unscored appends, then the one scored claim."""
    episodes = []
    for n, (seeds, text, source, action, about) in enumerate(HANDWRITTEN):
        ns = f"hand_{n:02d}"
        steps = [GoldStep(Claim(text=t, namespace=ns, source=s, observed_at=EPOCH + timedelta(days=i)), Action.APPEND,
                          None, "seed", scored=False) for i, (t, s) in enumerate(seeds)]
        claim = Claim(text=text, namespace=ns, source=source, observed_at=EPOCH + timedelta(days=30),
                      confidence=0.9 if source in ("user", "tool") else 0.7)
        steps.append(GoldStep(claim, action, about, "handwritten"))
        episodes.append(Episode(name=ns, split="test", origin="handwritten", steps=tuple(steps)))
    return episodes
