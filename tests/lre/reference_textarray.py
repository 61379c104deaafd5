"""Test oracle: ``shared_core.lre.textarray`` as it was before the cold-trim speed work (commit 312d1e5),
kept verbatim so that the fast implementation can be checked against it on random histories
(``test_lre_fast_features.py``). Not imported by the product.

Original docstring:

Vectorised tokenisation: a whole history becomes numpy arrays in a handful of passes.

Why not a regex per unit: at ~10 µs per unit the tokenizer alone would cap scoring at ~100k units/s
and a 1,000-message trim would cost more than ``langchain_core.trim_messages``. Here the joined text is
one UTF-32 code-point array; words are runs of letters/digits (with inner ``' _ -``), identified by a
64-bit polynomial hash computed from prefix sums (no Python string per word). Vocabulary and word lists
are hashed by the very same code, so lookups are ``searchsorted`` / ``isin`` on integers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

SEP = "\x01"
_P = np.uint64(1_000_003)
_P_INV = np.uint64(pow(1_000_003, -1, 2**64))
_pow = np.ones(1, dtype=np.uint64)
_ipow = np.ones(1, dtype=np.uint64)


def _powers(n: int) -> tuple[np.ndarray, np.ndarray]:
    """P^i and P^-i modulo 2^64 for i < n (grown on demand, kept for the process)."""
    global _pow, _ipow
    if len(_pow) < n:
        m = max(n, 2 * len(_pow))
        with np.errstate(over="ignore"):
            _pow = np.cumprod(np.r_[np.uint64(1), np.full(m - 1, _P, dtype=np.uint64)], dtype=np.uint64)
            _ipow = np.cumprod(np.r_[np.uint64(1), np.full(m - 1, _P_INV, dtype=np.uint64)], dtype=np.uint64)
    return _pow[:n], _ipow[:n]


@dataclass(frozen=True, slots=True)
class TextArray:
    """A history joined with :data:`SEP` after each unit, as code points, with its words."""

    chars: np.ndarray  # original code points (uint32)
    seps: np.ndarray  # position of the separator closing each unit
    unit_of_char: np.ndarray  # unit index of every character
    starts: np.ndarray  # word start positions
    ends: np.ndarray  # word end positions (exclusive)
    hashes: np.ndarray  # uint64 hash per word (of its ASCII-lower-cased form)
    unit: np.ndarray  # unit index per word

    @property
    def n(self) -> int:
        return len(self.seps)


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser: the polynomial hash of words that differ only in their first
    letters differs only in its low bits, and callers drop low bits to pack (word, unit) keys."""
    with np.errstate(over="ignore"):
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xFF51AFD7ED558CCD)
        h = h ^ (h >> np.uint64(33))
        h = h * np.uint64(0xC4CEB9FE1A85EC53)
        return h ^ (h >> np.uint64(33))


def shift_right(x: np.ndarray, fill: object) -> np.ndarray:
    """x[i-1] at i (``fill`` at 0): the previous character, without np.r_'s Python overhead."""
    return np.concatenate((np.array([fill], dtype=x.dtype), x[:-1]))


def shift_left(x: np.ndarray, fill: object) -> np.ndarray:
    """x[i+1] at i (``fill`` at the end)."""
    return np.concatenate((x[1:], np.array([fill], dtype=x.dtype)))


def _is_word(low: np.ndarray) -> np.ndarray:
    word = ((low - 97) < 26) | ((low - 48) < 10) | ((low >= 0xC0) & ((low - 0x2000) >= 0x70))
    conn = (low == 39) | (low == 95) | (low == 45)
    return word | (conn & shift_right(word, False) & shift_left(word, False))


def from_texts(texts: Sequence[str]) -> TextArray:
    s = SEP.join(texts) + SEP
    if s.count(SEP) != len(texts):
        s = SEP.join(t.replace(SEP, " ") for t in texts) + SEP
    chars = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32)
    low = np.where((chars - 65) < 26, chars + 32, chars)  # ASCII lower-casing, as lower() does
    low[low == 0x2019] = 39
    w = _is_word(low)
    prev_w, next_w = shift_right(w, False), shift_left(w, False)
    starts = np.flatnonzero(w & ~prev_w)
    ends = np.flatnonzero(w & ~next_w) + 1
    pw, ipw = _powers(len(chars) + 1)
    with np.errstate(over="ignore"):
        c = np.concatenate((np.zeros(1, dtype=np.uint64), np.cumsum(low * pw[: len(low)], dtype=np.uint64)))
        hashes = _mix((c[ends] - c[starts]) * ipw[starts])
    seps = np.flatnonzero(chars == 1)
    # A separator belongs to the unit it closes; one repeat is ~4x cheaper than a cumsum over the chars.
    unit_of_char = np.repeat(np.arange(len(seps), dtype=np.int64), np.diff(seps, prepend=-1))
    return TextArray(chars, seps, unit_of_char, starts, ends, hashes, unit_of_char[starts])


def hash_words(words: Iterable[str]) -> np.ndarray:
    """Hashes of single words, as :func:`from_texts` computes them (a word must be one token)."""
    words = list(words)
    ta = from_texts(words)
    if len(ta.hashes) != len(words) or np.any(np.bincount(ta.unit, minlength=len(words)) != 1):
        bad = [w for w, k in zip(words, np.bincount(ta.unit, minlength=len(words))) if k != 1]
        raise ValueError(f"words must each be a single token, got {bad[:5]!r}")
    return ta.hashes


_ASCII_LOWER = str.maketrans({chr(c): chr(c + 32) for c in range(65, 91)})


def lower(text: str) -> str:
    """ASCII lower-casing with the typographic apostrophe folded to ``'``, exactly as
    :func:`from_texts` does on code points (non-ASCII letters keep their case)."""
    return text.translate(_ASCII_LOWER).replace("\u2019", "'")


def word_strings(text: str) -> list[str]:
    """The words of ``text`` as strings (training time: building a vocabulary)."""
    ta = from_texts([text])
    low = lower(text)
    return [low[a:b] for a, b in zip(ta.starts.tolist(), ta.ends.tolist())]
