"""Self-supervised labels from a system's own logs (no annotation needed).

Two signals, following the LRE paper:
- **identifier reuse**: a unit that introduces an identifier (URL, path, order id, token, ...; see
  :data:`shared_core.lre.lexicon.IDENTIFIER`) which then recurs in at least ``min_reuse`` later units
  was load-bearing: the agent had to copy it verbatim.
- **answer coverage**: a unit whose content words cover at least ``threshold`` of the content words of
  a later answer held what that answer needed. Answers are the later assistant turns of the log (or any
  answers logged with their position). The reply right after a unit is ignored by default
  (``min_gap=2``): an adjacent reply always echoes its prompt and says nothing about long-range value.
  Extension (not in the paper): an answer that more than ``max_sources`` other units of the log cover
  (default 2; counted over the whole log, since labels may look ahead) is skipped as ambiguous: a short
  answer such as a city name is "covered" by every unit that mentions it, and boilerplate replies
  ("Glad to help!") cover each other, which would label chit-chat as load-bearing; for the same reason
  an answer given more than once verbatim (same content words) is treated as boilerplate and skipped. On LoCoMo (leave-one-conversation-out) this filter lifts the
  self-supervised scorer from about 92% to about 97% of the supervised one; ``None`` turns it off.

A third signal (not in the paper), for learning from a store's own chats where the first two are rare:
- **later reference**: a unit that first mentions at least :data:`LATER_MIN_WORDS` rare content words
  (each in at most :data:`RARE_SHARE` of the log's units) which the conversation comes back to at least
  ``gap`` units later held something worth remembering (a trip, a pet's name, a plan). Measured against
  the QA evidence of the LoCoMo development conversations (``tarl bench lre``, rows ``self_labels_*``):
  identifier reuse marks no turn there and answer coverage 4-6% at precision about 0.25 (base rate
  0.24); later reference with one word marks 45% at precision 0.31, with two words 26% at precision
  0.38 (recall 0.41), which is why two is the default. The own-logs path
  (:class:`~shared_core.lre.adaptive.AdaptiveScorer`) uses it (``later_gap=LATER_GAP``);
  :func:`self_labels` leaves it off unless asked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

import numpy as np

from shared_core.lre import lexicon
from shared_core.lre.units import Unit


def _is_value(ident: str) -> bool:
    """Values (ids, tokens, paths, URLs) as opposed to names (``get_order``, JSON keys): names recur in
    every tool call without the first mention being load-bearing."""
    return "/" in ident or "@" in ident or "\\" in ident or any(c.isdigit() for c in ident)


def identifier_reuse_labels(texts: Sequence[str], min_reuse: int = 3) -> np.ndarray:
    """Positive where an identifier value first seen in this unit appears in ≥ ``min_reuse`` later units."""
    first_seen: dict[str, int] = {}
    later_units: dict[str, set[int]] = {}
    for i, text in enumerate(texts):
        for ident in {x for x in lexicon.IDENTIFIER.findall(text) if _is_value(x)}:
            if ident not in first_seen:
                first_seen[ident] = i
                later_units[ident] = set()
            elif first_seen[ident] != i:
                later_units[ident].add(i)
    labels = np.zeros(len(texts), dtype=bool)
    for ident, i in first_seen.items():
        if len(later_units[ident]) >= min_reuse:
            labels[i] = True
    return labels


def answer_coverage_labels(
    texts: Sequence[str],
    answers: Sequence[tuple[int, str]],
    threshold: float = 0.4,
    min_gap: int = 2,
    max_sources: int | None = 2,
    not_sources: Collection[int] = (),
) -> np.ndarray:
    """Positive where a unit covers ≥ ``threshold`` of a later answer's content words.

    ``answers``: ``(position, text)`` pairs; an answer at ``position`` can credit units with index
    ≤ ``position - min_gap`` (use ``position = len(texts) + 1`` for answers given after the log).
    ``not_sources``: units that can be neither credited nor counted as sources (the answers themselves
    when answers are turns of the log: an assistant repeating itself is not a source of information).
    """
    excluded = set(not_sources)
    answer_sets = [frozenset(lexicon.content_words(a)) for _, a in answers]
    repeats = Counter(answer_sets)
    unit_words = [set(lexicon.content_words(t)) for t in texts]
    labels = np.zeros(len(texts), dtype=bool)
    for (position, _), target in zip(answers, answer_sets):
        if not target or repeats[target] > 1:  # empty, or boilerplate said more than once
            continue
        need = threshold * len(target)
        limit = position - min_gap + 1
        sources = [i for i, words in enumerate(unit_words) if i != position and i not in excluded and len(target & words) >= need]
        if max_sources is None or len(sources) <= max_sources:
            labels[[i for i in sources if i < limit]] = True
    return labels


LATER_GAP = 30
"""Units between a first mention and the later reference that counts (about a session of chat later)."""

RARE_SHARE = 0.05
"""A word in more than this share of the log's units (and more than 2) is too common to be a fact."""

LATER_MIN_WORDS = 2
"""Rare words a unit must introduce that the conversation returns to: one shared word is often a
coincidence (a word that happens to recur), two rarely are (1, 2 and 3 measured on the LoCoMo
development conversations: precision 0.31 / 0.38 / 0.43 at recall 0.58 / 0.41 / 0.29; 2 adapted best)."""


def later_reference_labels(texts: Sequence[str], gap: int = LATER_GAP, min_words: int = LATER_MIN_WORDS) -> np.ndarray:
    """Positive where a unit first mentions ``min_words`` or more rare content words that units ``gap``
    or more later mention again (see the module docstring)."""
    bags = [set(lexicon.content_words(t)) for t in texts]
    df = Counter(w for bag in bags for w in bag)
    common = max(2.0, RARE_SHARE * len(texts))
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for i, bag in enumerate(bags):
        for w in bag:
            first.setdefault(w, i)
            last[w] = i
    returns = np.zeros(len(texts), dtype=np.int64)
    for w, i in first.items():
        if df[w] <= common and last[w] >= i + gap:
            returns[i] += 1
    return returns >= min_words


def self_labels(
    units: Sequence[Unit],
    *,
    answers: Sequence[tuple[int, str]] | None = None,
    min_reuse: int = 3,
    threshold: float = 0.4,
    min_gap: int = 2,
    max_sources: int | None = 2,
    later_gap: int | None = None,
    later_min_words: int = LATER_MIN_WORDS,
) -> np.ndarray:
    """Union of the signals for one logged history; answers default to its assistant turns; later
    references count when ``later_gap`` is given."""
    texts = [u.text for u in units]
    not_sources: list[int] = []
    if answers is None:
        answers = [(i, u.text) for i, u in enumerate(units) if u.role == "assistant" and u.kind == "turn"]
        not_sources = [i for i, _ in answers]
    coverage = answer_coverage_labels(texts, answers, threshold, min_gap, max_sources, not_sources)
    labels = identifier_reuse_labels(texts, min_reuse) | coverage
    return labels | later_reference_labels(texts, later_gap, later_min_words) if later_gap is not None else labels
