"""The vocabulary index: the scorer's TF-IDF vocabulary and the lexicon's word lists in one hash table.

Why one table: every word of a history needs both its vocabulary column (TF-IDF) and its word-list
flags (stop word, error, time anchor, ...), so both are answered by a single lookup per word, keyed
by the word hashes of :mod:`shared_core.lre.textarray`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shared_core.lre import lexicon
from shared_core.lre.textarray import hash_words

STOP, ERROR, TEMPORAL, FIRST, PHATIC, EVENT, PEOPLE, PLAN, PREFER = 1, 2, 4, 8, 16, 32, 64, 128, 256
_LISTS = ((STOP, lexicon.STOP_WORDS), (ERROR, lexicon.ERROR_WORDS), (TEMPORAL, lexicon.TEMPORAL_WORDS),
          (FIRST, lexicon.FIRST_PERSON_WORDS), (PHATIC, lexicon.PHATIC_WORDS), (EVENT, lexicon.EVENT_WORDS),
          (PEOPLE, lexicon.PEOPLE_WORDS), (PLAN, lexicon.PLAN_WORDS), (PREFER, lexicon.PREFERENCE_WORDS))


@dataclass(frozen=True, slots=True)
class VocabIndex:
    """One table of word hashes: the scorer's vocabulary (column per word) merged with the word lists
    (a flag bit per list), so that every word of a history is looked up at once. An open-addressing
    table (linear probing, load <= 1/4) rather than a sorted array: a probe round is one gather, where
    ``searchsorted`` costs a dozen dependent comparisons per word."""

    hashes: np.ndarray  # uint64 per slot (0 where empty)
    cols: np.ndarray  # vocabulary column per slot, -1 for list-only words and empty slots
    flags: np.ndarray  # bit set of STOP / ERROR / TEMPORAL / ... per slot, 0 where empty
    used: np.ndarray  # slot holds an entry
    probes: int  # longest probe sequence of any entry
    size: int  # vocabulary size

    @classmethod
    def build(cls, vocab: Mapping[str, int] | Sequence[str]) -> VocabIndex:
        items = list(vocab.items()) if isinstance(vocab, Mapping) else [(w, i) for i, w in enumerate(vocab)]
        entries: dict[str, list[int]] = {w: [c, 0] for w, c in items}
        for bit, words in _LISTS:
            for w in words:
                entries.setdefault(w, [-1, 0])[1] |= bit
        words = list(entries)
        size = 1 << max(4, (4 * len(words)).bit_length())
        hashes, cols = np.zeros(size, dtype=np.uint64), np.full(size, -1, dtype=np.int32)
        flags, used = np.zeros(size, dtype=np.int16), np.zeros(size, dtype=bool)
        probes = 1
        for w, h in zip(words, hash_words(words).tolist()):
            k = 0
            while used[(h + k) & (size - 1)]:
                k += 1
            slot = (h + k) & (size - 1)
            hashes[slot], (cols[slot], flags[slot]), used[slot] = h, entries[w], True
            probes = max(probes, k + 1)
        return cls(hashes, cols, flags, used, probes, len(items))

    def lookup(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(vocabulary column or -1, flags) per word hash."""
        mask = len(self.hashes) - 1
        slot = (hashes & np.uint64(mask)).astype(np.intp)
        todo = np.flatnonzero((self.hashes.take(slot) != hashes) & self.used.take(slot))
        for k in range(1, self.probes):  # no entry sits further than `probes` slots from its home
            if not len(todo):
                break
            s = (slot.take(todo) + k) & mask
            found = self.hashes.take(s) == hashes.take(todo)
            slot[todo[found]] = s[found]
            todo = todo[~found & self.used.take(s)]  # an empty slot ends the search
        slot[todo] = len(self.hashes)  # not found within `probes` slots: absent (clipped, then masked)
        hit = self.hashes.take(slot, mode="clip") == hashes
        hit &= self.used.take(slot, mode="clip") & (slot < len(self.hashes))
        return np.where(hit, self.cols.take(slot, mode="clip"), -1), np.where(hit, self.flags.take(slot, mode="clip"), 0)
