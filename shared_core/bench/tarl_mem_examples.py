"""Turning episodes into decision examples: the gold state before each step, the claim's grounding
over that state (brute-force cosine over open entries plus slot matches, the twin of the engine's
index query), its reliability comparison, policy features, and counterfactual qualities Q(a). An action
the labelling contract forbids here (``policy.contract.allowed``) gets Q = -inf like one the executor
refuses, so the counterfactual target never teaches an action that inference would never execute.
Grounding is ``decision.situate``, the function ``MemoryEngine.write`` runs."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from ..executor import MemoryState
from ..config import PolicyConfig
from ..decision import situate as decision_situate
from ..grounding import Grounding, rank
from ..index import Embedder
from ..policy.contract import allowed
from ..policy.features import decision_features
from ..reliability import Comparison
from ..schema import DECISION_ACTIONS, Claim, Entry
from ..training.counterfactual import action_qualities
from .episodes import Episode, entry_id, gold_states, opened

NEIGHBOURS = PolicyConfig().neighbours
ACTIONS = tuple(a.value for a in DECISION_ACTIONS)


@dataclass
class Example:
    episode: str
    origin: str
    step: int
    kind: str
    scored: bool
    claim: Claim
    grounding: Grounding
    comparison: Comparison | None
    x: np.ndarray
    mask: np.ndarray
    label: int
    q: np.ndarray
    before: MemoryState
    gold_next: MemoryState
    gold_target: str | None


class Vectors:
    """Embeds each distinct text once (entries share their claim's text)."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self.cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if missing:
            for t, v in zip(missing, np.asarray(self.embedder(missing), dtype=np.float32)):
                self.cache[t] = v
        return np.stack([self.cache[t] for t in texts]) if texts else np.zeros((0, self.embedder.dim), np.float32)


def candidates(claim: Claim, state: MemoryState, vectors: Vectors) -> tuple[list[tuple[Entry, float]], list[Entry]]:
    """What the engine hands the decision function: the nearest open entries (brute-force cosine, the
    twin of the index query) and the open entries of the claim's explicit slot."""
    entries = opened(state)
    neighbours = rank(vectors([claim.text])[0], entries, vectors([e.text for e in entries]), NEIGHBOURS)
    return neighbours, [e for e in entries if claim.slot and e.slot == claim.slot]


def situate(claim: Claim, state: MemoryState, vectors: Vectors) -> tuple[Grounding, Comparison | None]:
    """Grounding and comparison for ``claim`` against ``state``, as the engine computes them."""
    return decision_situate(claim, *candidates(claim, state, vectors))


def examples(episodes: Sequence[Episode], vectors: Vectors,
             progress: Callable[[Sequence[Episode]], Iterable[Episode]] | None = None) -> list[Example]:
    out: list[Example] = []
    for ep in (progress(episodes) if progress else episodes):
        vectors([s.claim.text for s in ep.steps])
        states = gold_states(ep)
        for i, s in enumerate(ep.steps):
            g, c = situate(s.claim, states[i], vectors)
            target = g.target.id if g.target is not None else None
            mask = allowed(g)
            q = action_qualities(states[i], s.claim, target, states[i + 1], i)
            out.append(Example(
                episode=ep.name, origin=ep.origin, step=i, kind=s.kind, scored=s.scored, claim=s.claim, grounding=g,
                comparison=c, x=decision_features(s.claim, g, c), mask=mask, label=ACTIONS.index(s.action.value),
                q=np.where(mask, q, -np.inf), before=states[i], gold_next=states[i + 1],
                gold_target=entry_id(s.target) if s.target is not None else None,
            ))
    return out
