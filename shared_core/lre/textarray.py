"""Vectorised tokenisation: a whole history becomes numpy arrays in a handful of passes.

Why not a regex per unit: at ~10 µs per unit the tokenizer alone would cap scoring at ~100k units/s
and a 1,000-message trim would cost more than ``langchain_core.trim_messages``. Here the joined text is
one byte per code point; words are runs of letters/digits (with inner ``' _ -``), identified by a
64-bit polynomial hash computed from prefix sums (no Python string per word). Vocabulary and word lists
are hashed by the very same code, so lookups are hash-table probes on integers
(:class:`~shared_core.lre.vocab.VocabIndex`).
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


def powers(n: int) -> tuple[np.ndarray, np.ndarray]:
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
    """A history joined with :data:`SEP` after each unit, one byte per code point, with its words."""

    chars: np.ndarray  # uint8 per code point: the ASCII code, 128 for any non-ASCII character
    seps: np.ndarray  # position of the separator closing each unit
    unit_starts: np.ndarray  # first position of each unit (a unit always holds at least its separator)
    starts: np.ndarray  # word start positions
    ends: np.ndarray  # word end positions (exclusive)
    hashes: np.ndarray  # uint64 hash per word (of its ASCII-lower-cased form)
    unit: np.ndarray  # unit index per word
    words_before: np.ndarray  # words[words_before[i]:words_before[i + 1]] belong to unit i (length n + 1)

    @property
    def n(self) -> int:
        return len(self.seps)

    def per_unit(self, mask: np.ndarray) -> np.ndarray:
        """Per-unit count of a boolean mask over the characters: one ``reduceat`` pass over a byte per
        character (no per-character unit index is ever built; every unit segment is non-empty)."""
        return np.add.reduceat(mask.view(np.uint8), self.unit_starts, dtype=np.int32).astype(np.float64)


def _mix(h: np.ndarray) -> np.ndarray:
    """MurmurHash3's 64-bit finaliser: spreads every bit of the polynomial hash over all 64 output bits
    (words differing only in their first letters differ only in a few raw bits), because the word
    tables are addressed by the low bits of the hash."""
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


def runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) of every run of True, from one pass over the transitions."""
    padded = np.concatenate((_FALSE, mask, _FALSE))
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return edges[0::2], edges[1::2]


_FALSE = np.zeros(1, dtype=bool)


def encode(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray | None]:
    """The history joined with :data:`SEP` after each unit (a separator inside a text becomes a space),
    one byte per code point (128 for any non-ASCII character), and the code points when any character
    is not ASCII (else None)."""
    s = SEP.join(texts) + SEP
    if s.count(SEP) != len(texts):
        s = SEP.join(t.replace(SEP, " ") for t in texts) + SEP
    if s.isascii():
        return np.frombuffer(s.encode("ascii"), dtype=np.uint8), None
    wide = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32)
    a = np.minimum(wide, 128).astype(np.uint8)
    a.flags.writeable = False  # read-only like the ASCII case (one array type for compiled callers)
    return a, wide


def from_texts(texts: Sequence[str]) -> TextArray:
    """Why one byte per code point: every character class the features test is ASCII, so the whole
    history is scanned as ``uint8`` (4x less memory traffic than code points); the few non-ASCII
    characters are looked at individually, as code points, only where they occur."""
    a, wide = encode(texts)
    low = a + (((a - 65) < 26).view(np.uint8) << 5)  # ASCII lower-casing, as lower() does
    word = ((low - 97) < 26) | ((a - 48) < 10)
    conn = (a == 39) | (a == 95) | (a == 45)
    if wide is not None:
        na = np.flatnonzero(a == 128)
        cp = wide[na]
        word[na] = (cp >= 0xC0) & ((cp - 0x2000) >= 0x70)  # letters beyond ASCII, not punctuation
        conn[na[cp == 0x2019]] = True  # the typographic apostrophe is an apostrophe
    w = word | (conn & shift_right(word, False) & shift_left(word, False))
    starts, ends = runs(w)
    pw, ipw = powers(len(a) + 1)
    prefix = np.empty(len(a) + 1, dtype=np.uint64)  # polynomial prefix sums, built in place
    prefix[0] = 0
    body = prefix[1:]
    with np.errstate(over="ignore"):
        np.multiply(low, pw[: len(a)], out=body)
        if wide is not None:
            body[na] = np.where(cp == 0x2019, 39, cp).astype(np.uint64) * pw[na]
        np.cumsum(body, out=body)
        hashes = _mix((prefix.take(ends) - prefix.take(starts)) * ipw.take(starts))
    seps = np.flatnonzero(a == 1)
    words_before = np.concatenate(([0], np.searchsorted(starts, seps)))
    unit = np.repeat(np.arange(len(seps), dtype=np.int64), np.diff(words_before))
    return TextArray(a, seps, np.concatenate(([0], seps[:-1] + 1)), starts, ends, hashes, unit, words_before)


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
