"""Embedders: the plain callable protocol the index uses, and the offline default.

The index stores vectors in Chroma for the life of a store, so an embedder must give the same vector
for the same text in every process, forever. The default therefore hashes features with a fixed
hash (``zlib.crc32``, never Python's salted ``hash()``), fits nothing on the data and downloads
nothing. Any model a user already has plugs in through ``CallableEmbedder``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Protocol, runtime_checkable

import numpy as np

__all__ = ["Embedder", "HashingEmbedder", "QueryIDF", "CallableEmbedder", "default_embedder", "STOP_WORDS"]


@runtime_checkable
class Embedder(Protocol):
    """Texts in, one L2-normalised float32 row per text out, the same row for the same text forever.

    ``name`` identifies the vector space (a store must not mix two), ``dim`` its width. Declared as
    read-only properties so that both plain attributes and computed ones satisfy the protocol.
    """

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    def __call__(self, texts: Sequence[str]) -> np.ndarray: ...


# Function words and chat filler: they match almost every turn, so they only add noise to cosine
# similarity. Shipped as a fixed list (not learned) so vectors never change.
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are aren't as at be because been before
    being below between both but by can can't cannot could couldn't did didn't do does doesn't doing
    don't down during each few for from further had hadn't has hasn't have haven't having he he'd
    he'll he's her here here's hers herself him himself his how how's i i'd i'll i'm i've if in into
    is isn't it it's its itself let's me more most mustn't my myself no nor not of off on once only or
    other ought our ours ourselves out over own same shan't she she'd she'll she's should shouldn't so
    some such than that that's the their theirs them themselves then there there's these they they'd
    they'll they're they've this those through to too under until up very was wasn't we we'd we'll
    we're we've were weren't what what's when when's where where's which while who who's whom why
    why's will with won't would wouldn't you you'd you'll you're you've your yours yourself
    yourselves just really oh hey hi hello yeah yes wow thanks thank lot lots much many well gonna
    wanna got get gets go going it'll that'll there'll anything something everything nothing
    always ever even still yet though although maybe one ones
    """.split()
)

_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_EMPTY = "\x00"  # the one token of a text without words


def _stem(word: str) -> str:
    """Light suffix stripping: merges plural / -ing / -ed forms; character n-grams cover the rest."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    for suffix, min_len in (("ing", 6), ("ed", 5)):
        if word.endswith(suffix) and len(word) >= min_len:
            stem = word[: -len(suffix)]
            if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]  # running -> run, planned -> plan
            return stem
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


class _Word(NamedTuple):
    slots: np.ndarray  # hashed slots of the unigram and the character n-grams
    values: np.ndarray  # signed weights, same length
    term: str  # the stemmed form, reused by bigrams


_CACHE_SIZE = 100_000


def _hash(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8"))


class HashingEmbedder:
    """Offline default: signed feature hashing of stemmed words and of character n-grams.

    Why each part (``tarl bench embedders`` measures the effect of changing each one): stop words
    are dropped because they match everything; a light stemmer merges inflections; term frequency
    is sublinear so a repeated word does not dominate; signed hashing keeps collisions unbiased;
    short tokens weigh less, a corpus-free stand-in for IDF. Character n-grams inside words are
    insurance for what the stemmer and clean English miss (derived words, typos, other languages);
    they are hashed into their own ``char_dims`` slots so their many collisions do not blur the
    word slots (sharing the slots cost 0.03 recall), and on LoCoMo they are neutral for ~40% of the
    speed. Word bigrams are available (``bigram_weight``) but measured no better, so they are off.
    The real IDF depends on the store's contents, so it is applied to queries only, by
    ``QueryIDF``; stored vectors never change.

    >>> embed = HashingEmbedder()
    >>> vectors = embed(["I adopted a puppy", "We got a new dog"])
    >>> vectors.shape, vectors.dtype.name
    ((2, 2048), 'float32')
    """

    name = "tarl-hashing-v1"
    """The default configuration's vector space; other configurations get a suffix from their config."""

    def __init__(
        self,
        dim: int = 2048,
        *,
        stop_words: bool = True,
        stem: bool = True,
        bigram_weight: float = 0.0,
        char_ngrams: Sequence[int] = (3, 5),
        char_weight: float = 1.0,
        char_dims: int = 512,
        sublinear_tf: bool = True,
        signed: bool = True,
        length_weight: bool = True,
        name: str | None = None,
    ) -> None:
        lo, hi = char_ngrams
        if not 0 <= char_dims < dim - 8:
            raise ValueError(f"char_dims must be in [0, dim - 8), got char_dims={char_dims}, dim={dim}")
        if char_weight and not 1 <= lo <= hi:
            raise ValueError(f"char_ngrams must be (lo, hi) with 1 <= lo <= hi, got {char_ngrams}")
        self.dim = dim
        self.stop_words = stop_words
        self.stem = stem
        self.bigram_weight = bigram_weight
        self.char_ngrams = (lo, hi)
        self.char_weight = char_weight
        self.char_dims = char_dims
        self.sublinear_tf = sublinear_tf
        self.signed = signed
        self.length_weight = length_weight
        if name is not None:
            self.name = name
        elif self.config() != _DEFAULT_CONFIG:
            digest = hashlib.blake2b(json.dumps(self.config(), sort_keys=True).encode(), digest_size=4).hexdigest()
            self.name = f"{HashingEmbedder.name}-d{dim}-{digest}"
        self._word_cache: dict[str, _Word] = {}
        self._gram_cache: dict[str, tuple[int, float]] = {}

    def config(self) -> dict[str, Any]:
        """Everything that determines the vectors, JSON-ready: ``HashingEmbedder(**config)`` rebuilds it."""
        return {
            "dim": self.dim,
            "stop_words": self.stop_words,
            "stem": self.stem,
            "bigram_weight": self.bigram_weight,
            "char_ngrams": list(self.char_ngrams),
            "char_weight": self.char_weight,
            "char_dims": self.char_dims,
            "sublinear_tf": self.sublinear_tf,
            "signed": self.signed,
            "length_weight": self.length_weight,
        }

    def __repr__(self) -> str:
        return f"HashingEmbedder(name={self.name!r})"

    # -- features --------------------------------------------------------------------------------

    def _slot(self, feature: str, char: bool = False) -> tuple[int, float]:
        h = _hash(feature)
        sign = -1.0 if self.signed and h & 0x80000000 else 1.0
        word_dims = self.dim - self.char_dims
        if char and self.char_dims:
            return word_dims + h % self.char_dims, sign
        return h % word_dims, sign

    def _word_features(self, word: str) -> _Word:
        """Unigram + character n-grams of one word, cached: words repeat, hashing them is the cost."""
        cached = self._word_cache.get(word)
        if cached is not None:
            return cached
        weight = min(1.0, 0.25 * len(word)) if self.length_weight else 1.0
        term = _stem(word) if self.stem else word
        slots = [self._slot("w " + term)]
        values = [weight]
        if self.char_weight > 0:
            padded = f"<{word}>"
            lo, hi = self.char_ngrams
            grams = [padded[i : i + n] for n in range(lo, hi + 1) for i in range(len(padded) - n + 1)]
            cache = self._gram_cache  # shared by threads: only get-or-set, never check-then-read
            for g in grams:
                slot = cache.get(g)
                if slot is None:
                    slot = cache[g] = self._slot("c " + g, char=True)
                slots.append(slot)
            values += [weight * self.char_weight / math.sqrt(len(grams))] * len(grams)
        idx = np.array([s for s, _ in slots], dtype=np.int64)
        val = np.array([sign * v for (_, sign), v in zip(slots, values)])
        if len(self._word_cache) >= _CACHE_SIZE:
            self._word_cache.clear()  # bounded memory; a miss only costs time
            self._gram_cache.clear()
        self._word_cache[word] = cached = _Word(idx, val, term)
        return cached

    def _tokens(self, text: str) -> list[str]:
        words = [w[:-2] if w.endswith("'s") else w for w in _TOKEN.findall(text.lower().replace("\u2019", "'"))]
        if self.stop_words:
            content = [w for w in words if w not in STOP_WORDS]
            if content:
                words = content  # a text of stop words only still gets a vector from them
        return [w.replace("'", "") for w in words if w]

    # -- protocol --------------------------------------------------------------------------------

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("pass a sequence of texts, not a single string")
        n = len(texts)
        # One flat (row, slot, value) list for the whole batch, summed by a single bincount.
        pieces: list[_Word] = []
        piece_rows: list[int] = []
        piece_tf: list[float] = []
        extra_rows: list[int] = []
        extra_slots: list[int] = []
        extra_vals: list[float] = []
        for row, text in enumerate(texts):
            tokens = self._tokens(text) or [_EMPTY]  # empty text: one fixed vector, never NaN
            for word, count in Counter(tokens).items():
                pieces.append(self._word_features(word))
                piece_rows.append(row)
                piece_tf.append(1.0 + math.log(count) if self.sublinear_tf else float(count))
            if self.bigram_weight > 0 and len(tokens) > 1:
                terms = [self._word_features(t).term for t in tokens]
                for a, b in zip(terms, terms[1:]):
                    slot, sign = self._slot(f"b {a} {b}")
                    extra_rows.append(row), extra_slots.append(slot), extra_vals.append(sign * self.bigram_weight)
        lengths = np.array([len(w.slots) for w in pieces], dtype=np.int64)
        rows = np.concatenate([np.repeat(np.array(piece_rows, dtype=np.int64), lengths), np.array(extra_rows, dtype=np.int64)])
        slots = np.concatenate([w.slots for w in pieces] + [np.array(extra_slots, dtype=np.int64)])
        values = np.concatenate([np.concatenate([w.values for w in pieces] or [np.zeros(0)]) * np.repeat(piece_tf, lengths), extra_vals])
        out = np.bincount(rows * self.dim + slots, weights=values, minlength=n * self.dim).reshape(n, self.dim)
        # Signed features can cancel out exactly (rare): such a text gets the empty text's vector.
        return _normalise_rows(out, fallback=lambda: self([""])[0])


_DEFAULT_CONFIG = HashingEmbedder(name=HashingEmbedder.name).config()


class QueryIDF:
    """IDF from the store's own contents, applied to queries only, so stored vectors never change.

    Rare words are what make a memory findable, and "rare" depends on the store (a user's name is
    in half their memories). Fitting IDF into document vectors would change every stored vector
    as the store grows; weighting the query instead gives the same ranking signal (the dot product
    is sum q_i * idf_i**power * d_i) from per-slot document frequencies that the index keeps
    up to date with ``add`` / ``remove``. For a dense neural embedder every slot is used by every
    document, all weights are equal, and this is a no-op.

    >>> embed, idf = HashingEmbedder(), QueryIDF(2048)
    >>> idf.add(embed(["Caroline went hiking", "Caroline adopted a dog"]))
    >>> idf.weigh(embed(["Who adopted a dog?"])).shape
    (1, 2048)
    """

    DEFAULT_POWER = 3.0
    """Chosen on LoCoMo dev conversations (2 and 4 close behind); 2 is classic symmetric TF-IDF."""

    def __init__(self, dim: int, power: float = DEFAULT_POWER) -> None:
        self.dim = dim
        self.power = power
        self.doc_freq = np.zeros(dim, dtype=np.int64)
        self.n_docs = 0

    @classmethod
    def from_vectors(cls, vectors: np.ndarray, power: float = DEFAULT_POWER) -> QueryIDF:
        """Statistics of an existing collection, e.g. when an index is (re)loaded."""
        vectors = np.asarray(vectors)
        idf = cls(vectors.shape[1], power)
        idf.add(vectors)
        return idf

    def _used(self, vectors: Any) -> np.ndarray:
        if hasattr(vectors, "tocsr"):                 # scipy sparse rows (a bulk load): non-zeros per column
            return np.bincount(vectors.tocsr().indices, minlength=self.dim)
        vectors = np.asarray(vectors)
        if vectors.ndim != 2 or vectors.shape[1] != self.dim:
            raise ValueError(f"vectors must have shape (n, {self.dim}), got {vectors.shape}")
        return (vectors != 0).sum(axis=0)

    def add(self, vectors: np.ndarray) -> None:
        self.doc_freq += self._used(vectors)
        self.n_docs += np.shape(vectors)[0]

    def remove(self, vectors: np.ndarray) -> None:
        used = self._used(vectors)
        if np.shape(vectors)[0] > self.n_docs or (used > self.doc_freq).any():
            raise ValueError("removing vectors that were never added")
        self.doc_freq -= used
        self.n_docs -= np.shape(vectors)[0]

    def weights(self) -> np.ndarray:
        """Smoothed IDF per slot (>= 1, so no query term is ever switched off), raised to ``power``."""
        return (np.log((1.0 + self.n_docs) / (1.0 + self.doc_freq)) + 1.0) ** self.power

    def weigh(self, queries: np.ndarray) -> np.ndarray:
        return _normalise_rows(np.asarray(queries, dtype=np.float64) * self.weights())


def _normalise_rows(x: np.ndarray, fallback: Callable[[], np.ndarray] | None = None) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    zero = norms[:, 0] == 0
    if zero.any():
        if fallback is None:
            raise ValueError(f"embedding rows {np.flatnonzero(zero).tolist()} are all zeros")
        x, row = x.copy(), fallback()
        x[zero] = row
        norms[zero] = np.linalg.norm(row)
    return (x / norms).astype(np.float32)


class CallableEmbedder:
    """Wraps any user model, e.g. ``CallableEmbedder(lambda texts: model.encode(texts), name="minilm")``.

    Checks what comes back (one finite row per text, a fixed width) so a misbehaving model fails
    loudly at the boundary instead of storing NaN vectors, and L2-normalises rows so cosine
    similarity means the same thing for every embedder. Give a ``name`` that identifies the model:
    it is how a store tells one vector space from another.

    >>> embed = CallableEmbedder(lambda texts: [[len(t), 1.0] for t in texts], name="toy")
    >>> [round(float(x), 3) for x in embed(["abc"])[0]], embed.dim
    ([0.949, 0.316], 2)
    """

    def __init__(self, fn: Callable[[list[str]], Any], name: str | None = None, dim: int | None = None) -> None:
        if not callable(fn):
            raise TypeError(f"fn must be callable, got {type(fn).__name__}")
        self.fn = fn
        raw_name = name or "callable-" + (getattr(fn, "__qualname__", None) or type(fn).__name__)
        # The name ends up in a Chroma collection name: keep it to the characters Chroma accepts.
        self.name = re.sub(r"[^A-Za-z0-9._-]+", "-", raw_name).strip("-._") or "callable"
        self._dim = dim

    @property
    def dim(self) -> int:
        """Width of the vectors; when not given, learned from the first call (probing if needed)."""
        if self._dim is None:
            self(["dimension probe"])
        assert self._dim is not None
        return self._dim

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("pass a sequence of texts, not a single string")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        raw = self.fn(texts)  # the model's own errors propagate unchanged
        try:
            out = np.asarray(raw, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"embedder {self.name!r} returned something that is not a numeric array: {exc}") from exc
        if out.ndim != 2 or out.shape[0] != len(texts):
            raise ValueError(
                f"embedder {self.name!r} must return shape (n_texts, dim) = ({len(texts)}, dim), got {out.shape}"
            )
        if self._dim is not None and out.shape[1] != self._dim:
            raise ValueError(f"embedder {self.name!r} returned dim {out.shape[1]}, expected {self._dim}")
        if not np.isfinite(out).all():
            bad = np.flatnonzero(~np.isfinite(out).all(axis=1)).tolist()
            raise ValueError(f"embedder {self.name!r} returned NaN or inf in rows {bad}")
        try:
            normalised = _normalise_rows(out)
        except ValueError as exc:
            raise ValueError(f"embedder {self.name!r}: {exc}; zero vectors have no direction") from exc
        self._dim = out.shape[1]
        return normalised

    def __repr__(self) -> str:
        return f"CallableEmbedder({self.name!r}, dim={self._dim})"


def default_embedder() -> Embedder:
    """The project's offline default (chosen by ``tarl bench embedders``)."""
    return HashingEmbedder()
