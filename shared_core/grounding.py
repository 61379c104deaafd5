"""Target grounding: which open entry, if any, a claim is about, and how the two texts differ.

Pure functions over candidates the engine fetched (nearest neighbours from the index plus exact slot
matches), so the same code serves real writes and counterfactual simulation.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from .schema import Claim, Entry

_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@/:-]*")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|n't|cannot|without|stopped|quit|no longer)\b", re.I)
STOP = frozenset(
    "a an the and or but of to in on at for with by from is are was were be been being am i my me we our you "
    "your he she his her they their it its this that these those as has have had do does did will would can "
    "could should may might must shall so than then there here what which who whom whose when where how also "
    "just very really".split()
)

MATCH_THRESHOLD = 0.35
"""Cosine similarity above which the nearest entry counts as the claim's target."""
NEAR_DUPLICATE = 0.9


def content_tokens(text: str) -> set[str]:
    return {t.lower().strip(".:-/") for t in _TOKEN.findall(text)} - STOP - {""}


def numbers(text: str) -> set[str]:
    return set(_NUMBER.findall(text))


def entities(text: str) -> set[str]:
    """Capitalised words that are not sentence-initial: names, places, products."""
    words = text.split()
    return {w.strip(".,!?;:'\"()").lower() for i, w in enumerate(words) if i and w[:1].isupper()} - {""}


def negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


@dataclass(frozen=True)
class Grounding:
    target: Entry | None
    similarity: float
    features: dict[str, float] = field(default_factory=dict)
    candidates: tuple[tuple[Entry, float], ...] = ()


def features(claim: Claim, entry: Entry, similarity: float) -> dict[str, float]:
    a, b = content_tokens(claim.text), content_tokens(entry.text)
    overlap = len(a & b) / max(1, len(a | b))
    na, nb = numbers(claim.text), numbers(entry.text)
    ea, eb = entities(claim.text), entities(entry.text)
    return {
        "similarity": similarity,
        "lexical_overlap": overlap,
        "numbers_differ": float(bool(na and nb and na != nb)),
        "entities_differ": float(bool(ea and eb and ea != eb)),
        "negation_differs": float(negated(claim.text) != negated(entry.text)),
        "same_slot": float(claim.slot is not None and claim.slot == entry.slot),
        "near_duplicate": float(similarity >= NEAR_DUPLICATE or (overlap >= 0.85 and na == nb)),
    }


def ground(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_matches: Sequence[Entry] = ()) -> Grounding:
    """Pick the target: a same-slot entry wins (most similar among them), else the nearest neighbour
    above ``MATCH_THRESHOLD``."""
    sims = {e.id: s for e, s in neighbours}
    if slot_matches:
        best = max(slot_matches, key=lambda e: sims.get(e.id, 0.0))
        sim = sims.get(best.id, 0.0)
        return Grounding(best, sim, features(claim, best, sim), tuple(neighbours))
    if neighbours:
        best, sim = max(neighbours, key=lambda p: p[1])
        if sim >= MATCH_THRESHOLD:
            return Grounding(best, sim, features(claim, best, sim), tuple(neighbours))
    return Grounding(None, max((s for _, s in neighbours), default=0.0), {}, tuple(neighbours))
