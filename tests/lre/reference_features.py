"""Test oracle: ``shared_core.lre.features`` as it was before the cold-trim speed work (commit 312d1e5),
kept verbatim so that the fast implementation can be checked against it on random histories
(``test_lre_fast_features.py``). Not imported by the product.

Original docstring:

Causal features φ(u_i, u_≤i): every feature of unit i is a function of units 0..i only.

Why causal: a unit is scored once, when it is written, and its score must not change when the
conversation goes on (so scores can be cached, and training never peeks at the future or at a query).
Appending units therefore never changes the features of earlier units (tested).

Everything is vectorised over the whole history (see :mod:`shared_core.lre.textarray`): character
classes are counted on one code-point array, words are 64-bit hashes, the vocabulary and the word lists
are looked up together with one ``searchsorted`` (:class:`VocabIndex`), identifiers are
whitespace-delimited chunks classified from per-chunk character counts, and prefix statistics and the
TF-IDF entries (over the scorer's vocabulary, l2-normalised per unit) come from one sort of
(word, unit) keys. There is no Python loop per unit, per word or per feature.

Incremental use: :class:`PrefixState` carries what later units need from earlier ones, so appended
units can be featurised alone with identical results (see :mod:`shared_core.lre.stream`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shared_core.lre import lexicon
from reference_textarray import TextArray, from_texts, hash_words, shift_left, shift_right

FEATURE_NAMES: tuple[str, ...] = (
    "position",        # log1p(unit index): absolute, so it never changes when units are appended
    "log_len",         # log1p(words)
    "digits",          # log1p(digit characters)
    "caps",            # log1p(capitalised words that do not start a sentence): names, places
    "identifiers",     # log1p(URLs, paths, e-mails, hex / base64 tokens, ORD-123, snake/camelCase)
    "errors",          # log1p(error markers)
    "code",            # log1p(code characters: braces, semicolons, backticks, ==, =>, ->)
    "question",        # unit contains '?'
    "prev_question",   # the previous unit asked a question: this one is probably the answer
    "exclaim",         # unit contains '!'
    "rare",            # share of content words outside the scorer's vocabulary (rare words)
    "novelty",         # share of content words never seen earlier in this history
    "new_words",       # log1p(number of such first mentions)
    "prev_overlap",    # Jaccard overlap of content words with the previous unit
    "topic_recency",   # 1/(1 + units since a content word of this unit was last seen), 0 if never
    "history_overlap", # mean log1p(earlier units containing each content word)
    "temporal",        # log1p(time anchors: dates, weekdays, months, years, yesterday, last week ...)
    "first_person",    # share of words that are first person (self-disclosure)
    "phatic",          # log1p(acknowledgements: thanks, wow, great ...)
    "content_share",   # share of words that are content words (not stop words)
    "events",          # log1p(past-tense verbs: irregular list or -ed suffix)
    "people",          # log1p(family, friends, pets, roles)
    "sentences",       # log1p(sentence ends)
    "is_tool_call",    # the unit is an assistant tool call with its results
    "is_system",       # the unit is a system message
    "salience",        # log1p(Σ prefix-idf of its distinct content words): TF-IDF salience against this
                       # conversation's own earlier units (causal), not against a training corpus
    "plans",           # log1p(plan / intention words: planning, hope, soon, upcoming ...)
    "preferences",     # log1p(preference words: love, favourite, enjoy, prefer, hobby ...)
)


STOP, ERROR, TEMPORAL, FIRST, PHATIC, EVENT, PEOPLE, PLAN, PREFER = 1, 2, 4, 8, 16, 32, 64, 128, 256
_LISTS = ((STOP, lexicon.STOP_WORDS), (ERROR, lexicon.ERROR_WORDS), (TEMPORAL, lexicon.TEMPORAL_WORDS),
          (FIRST, lexicon.FIRST_PERSON_WORDS), (PHATIC, lexicon.PHATIC_WORDS), (EVENT, lexicon.EVENT_WORDS),
          (PEOPLE, lexicon.PEOPLE_WORDS), (PLAN, lexicon.PLAN_WORDS), (PREFER, lexicon.PREFERENCE_WORDS))


@dataclass(frozen=True, slots=True)
class VocabIndex:
    """One sorted table of word hashes: the scorer's vocabulary (column per word) merged with the word
    lists (a flag bit per list), so that every word of a history is looked up with one ``searchsorted``."""

    hashes: np.ndarray  # sorted uint64
    cols: np.ndarray  # vocabulary column, -1 for list-only words
    flags: np.ndarray  # bit set of STOP / ERROR / TEMPORAL / FIRST / PHATIC
    size: int  # vocabulary size

    @classmethod
    def build(cls, vocab: Mapping[str, int] | Sequence[str]) -> VocabIndex:
        items = list(vocab.items()) if isinstance(vocab, Mapping) else [(w, i) for i, w in enumerate(vocab)]
        table: dict[str, list[int]] = {w: [c, 0] for w, c in items}
        for bit, words in _LISTS:
            for w in words:
                table.setdefault(w, [-1, 0])[1] |= bit
        words = list(table)
        h = hash_words(words)
        order = np.argsort(h)
        cols = np.array([table[w][0] for w in words], dtype=np.int64)[order]
        flags = np.array([table[w][1] for w in words], dtype=np.int64)[order]
        return cls(h[order], cols, flags, len(items))

    def lookup(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(vocabulary column or -1, flags) per word hash."""
        pos = np.minimum(np.searchsorted(self.hashes, hashes), len(self.hashes) - 1)
        hit = self.hashes[pos] == hashes
        return np.where(hit, self.cols[pos], -1), np.where(hit, self.flags[pos], 0)


@dataclass(frozen=True, slots=True)
class FeatureSet:
    """Dense causal features plus the TF-IDF entries (row, column, l2-normalised value)."""

    dense: np.ndarray  # (n_units, len(FEATURE_NAMES)) float64
    tfidf_rows: np.ndarray
    tfidf_cols: np.ndarray
    tfidf_vals: np.ndarray
    state: PrefixState | None = None
    """Prefix state after these units: pass it as ``state=`` when scoring the units that follow."""

    @property
    def n(self) -> int:
        return int(self.dense.shape[0])


def _counts(mask: np.ndarray, seg_of_char: np.ndarray, m: int) -> np.ndarray:
    """Per-segment count of a boolean mask, given the segment of every character."""
    return np.bincount(seg_of_char[mask], minlength=m)[:m].astype(np.float64)


def _char_features(ta: TextArray) -> dict[str, np.ndarray]:
    a = np.where(ta.chars < 128, ta.chars, 128).astype(np.uint8)  # 1 byte per char: 4x less memory traffic
    n = ta.n
    sep = a == 1
    space = (a == 32) | (a == 10) | (a == 9) | (a == 13) | sep
    prev_space = shift_right(space, True)
    upper = (a - 65) < 26
    lower = (a - 97) < 26
    digit = (a - 48) < 10
    prev2 = shift_right(shift_right(a, np.uint8(1)), np.uint8(1))
    sentence_start = (prev2 == 46) | (prev2 == 33) | (prev2 == 63) | (prev2 == 1) | shift_right(sep, True)
    caps = upper & shift_left(lower, False) & prev_space & ~sentence_start
    nxt = shift_left(a, np.uint8(0))
    code = (a == 123) | (a == 125) | (a == 59) | (a == 96) | ((a == 61) & ((nxt == 61) | (nxt == 62))) | (
        (a == 45) & (nxt == 62))
    end_mark = (a == 46) | (a == 33) | (a == 63)
    sentence_end = end_mark & ~shift_left(end_mark, False) & shift_left(space, True)
    out = {name: _counts(m, ta.unit_of_char, n) for name, m in
           (("digits", digit), ("caps", caps), ("code", code), ("qmarks", a == 63), ("bangs", a == 33),
            ("sentences", sentence_end))}
    # Identifier chunks: whitespace-delimited runs containing a digit or an id-ish character,
    # classified by their character counts (plain words are never examined).
    slash_m, at_m, under_m, dash_m = a == 47, a == 64, a == 95, (a == 45) | (a == 35)
    camel_m = lower & shift_left(upper, False)
    special = digit | slash_m | at_m | under_m | dash_m | camel_m
    out["identifiers"] = np.zeros(n)
    if special.any():
        starts_mask = ~space & prev_space
        chunk_start = np.flatnonzero(starts_mask)
        chunk_of_char = np.cumsum(starts_mask.view(np.uint8), dtype=np.int64) - 1
        chunk_end = np.flatnonzero(~space & shift_left(space, True)) + 1
        punct = ((a == 34) | (a == 39) | (a == 44) | (a == 58) | (a == 40) | (a == 41) | (a == 91) | (a == 93)
                 | (a == 123) | (a == 125) | (a == 59) | (a == 61) | (a == 46))
        n_digit, slash, at, dot, under, dash, camel, other = (_counts(m, chunk_of_char, len(chunk_start)) for m in (
            digit, slash_m, at_m, a == 46, under_m, dash_m, camel_m, punct))
        length = chunk_end - chunk_start
        n_alpha = length - n_digit - slash - at - under - dash - other  # letters, roughly
        ident = ((slash >= 2) | ((at > 0) & (dot > 0)) | ((length >= 8) & (n_digit > 0) & (n_alpha > 2))
                 | (((dash + under) > 0) & (n_digit > 0) & (n_alpha > 0)) | ((under > 0) & (n_alpha > 2))
                 | ((camel > 0) & (n_alpha > 3) & (n_digit == 0) & (length <= 40)))
        out["identifiers"] = _counts(ident, ta.unit_of_char[chunk_start], n)
    out["words"] = np.bincount(ta.unit, minlength=n)[:n].astype(np.float64)
    return out


def _word_counts(ta: TextArray, flags: np.ndarray) -> dict[str, np.ndarray]:
    n = ta.n
    # 4-digit years 19xx / 20xx are time anchors too.
    last = len(ta.chars) - 1
    d0, d1 = ta.chars[ta.starts], ta.chars[np.minimum(ta.starts + 1, last)]
    d3 = ta.chars[np.minimum(ta.starts + 3, last)]
    year = ((ta.ends - ta.starts) == 4) & (((d0 == 49) & (d1 == 57)) | ((d0 == 50) & (d1 == 48))) & ((d3 - 48) < 10)

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(ta.unit[mask], minlength=n)[:n].astype(np.float64)

    e1, e2 = ta.chars[np.maximum(ta.ends - 1, 0)], ta.chars[np.maximum(ta.ends - 2, 0)]
    past = ((ta.ends - ta.starts) >= 5) & (e1 == 100) & (e2 == 101)  # "...ed"
    return {"errors": count((flags & ERROR) > 0), "temporal": count(((flags & TEMPORAL) > 0) | year),
            "first_person": count((flags & FIRST) > 0), "phatic": count((flags & PHATIC) > 0),
            "events": count(((flags & EVENT) > 0) | past), "people": count((flags & PEOPLE) > 0),
            "plans": count((flags & PLAN) > 0), "preferences": count((flags & PREFER) > 0)}


_UNIT_BITS = np.uint64(24)  # (word, unit) keys: 40 bits of word hash, 24 bits of unit index in a batch
_MAX_BATCH = 1 << 24
_EMPTY_U64 = np.zeros(0, dtype=np.uint64)
_EMPTY_I64 = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class PrefixState:
    """What the features of later units need to know about units 0..n-1 (for incremental scoring):
    per word, how many units contained it and the last one that did; the last unit's words."""

    n: int
    words: np.ndarray  # sorted word keys
    counts: np.ndarray
    last: np.ndarray
    prev_words: np.ndarray
    prev_question: float = 0.0


EMPTY_STATE = PrefixState(0, _EMPTY_U64, _EMPTY_I64, _EMPTY_I64, _EMPTY_U64)


def _pair_stats(ta: TextArray, content: np.ndarray, cols: np.ndarray, idf: np.ndarray | None, vsize: int,
                state: PrefixState) -> tuple[dict[str, np.ndarray], PrefixState]:
    """Prefix statistics and TF-IDF from one sort of the content words by (word, unit)."""
    n, off = ta.n, state.n
    key = ((ta.hashes[content] >> _UNIT_BITS) << _UNIT_BITS) | ta.unit[content].astype(np.uint64)
    order = np.argsort(key)
    sk = key[order]
    new = np.concatenate(([True], sk[1:] != sk[:-1])) if len(sk) else np.zeros(0, dtype=bool)
    first_tok = np.flatnonzero(new)
    keys = sk[new]  # unique (word, unit), word-major, unit-minor
    tf = np.diff(np.concatenate((first_tok, [len(sk)])))
    pcol = cols[content][order][new]
    wu = (keys & np.uint64((1 << int(_UNIT_BITS)) - 1)).astype(np.int64)
    word = keys >> _UNIT_BITS
    first = np.concatenate(([True], word[1:] != word[:-1])) if len(keys) else new
    idx = np.arange(len(keys))
    group = np.maximum.accumulate(np.where(first, idx, 0))
    rank = idx - group  # earlier units of this batch containing the word ...
    present = np.zeros(len(keys), dtype=bool)
    pos = np.zeros(len(keys), dtype=np.int64)
    last_seen = np.zeros(len(keys), dtype=np.int64)
    if len(state.words) and len(keys):
        pos = np.searchsorted(state.words, word)
        pc = np.minimum(pos, len(state.words) - 1)
        present = state.words[pc] == word
        rank = rank + np.where(present, state.counts[pc], 0)  # ... plus those of the earlier batches
        last_seen = np.where(present, state.last[pc], 0)
    uniq = np.bincount(wu, minlength=n)[:n].astype(np.float64)
    safe = np.maximum(uniq, 1.0)
    novel = np.bincount(wu[rank == 0], minlength=n)[:n].astype(np.float64)
    hist = np.bincount(wu, weights=np.log1p(rank), minlength=n)[:n] / safe
    # prefix idf of each distinct word: log((units so far + 1) / (earlier units containing it + 1)) + 1
    sal = np.bincount(wu, weights=np.log((2.0 + off + wu) / (1.0 + rank)), minlength=n)[:n]
    rec = np.zeros(n)
    if len(keys):
        gap = np.where(first, np.where(present, off + wu - last_seen, np.inf), wu - shift_right(wu, 0))
        np.maximum.at(rec, wu, 1.0 / (1.0 + gap))
    hit = ~first & (wu - shift_right(wu, 0) == 1) if len(keys) else new  # same word in the previous unit
    if len(state.prev_words) and len(keys):
        hit |= (wu == 0) & np.isin(word, state.prev_words)
    inter = np.bincount(wu[hit], minlength=n)[:n].astype(np.float64)
    prev_uniq = shift_right(uniq, float(len(state.prev_words)))
    union = uniq + prev_uniq - inter
    out = {"novelty": novel / safe, "new_words": novel, "salience": sal, "history_overlap": hist, "topic_recency": rec,
           "prev_overlap": np.where(union > 0, inter / np.maximum(union, 1.0), 0.0)}
    # The state after this batch: merge this batch's words into the sorted table.
    starts = np.flatnonzero(first)
    sizes = np.diff(np.concatenate((starts, [len(keys)])))
    g_last = off + wu[np.concatenate((starts[1:], [len(keys)])) - 1] if len(keys) else _EMPTY_I64
    g_word, g_present, g_pos = word[starts], present[starts], pos[starts]
    counts, last = state.counts.copy(), state.last.copy()
    counts[g_pos[g_present]] += sizes[g_present]
    last[g_pos[g_present]] = g_last[g_present]
    absent = ~g_present
    new_state = PrefixState(
        n=off + n,
        words=np.insert(state.words, g_pos[absent], g_word[absent]),
        counts=np.insert(counts, g_pos[absent], sizes[absent]),
        last=np.insert(last, g_pos[absent], g_last[absent]),
        prev_words=word[wu == n - 1],
    )
    if idf is None or vsize == 0:
        out.update(tf_rows=_EMPTY_I64, tf_cols=_EMPTY_I64, tf_vals=np.zeros(0))
        return out, new_state
    m = pcol >= 0
    rows, tcols = wu[m], pcol[m]
    vals = tf[m] * idf[tcols]
    norm = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=n))
    out.update(tf_rows=rows, tf_cols=tcols, tf_vals=vals / norm[rows])
    return out, new_state


def compute_features(
    texts: Sequence[str],
    kinds: Sequence[str] | None = None,
    *,
    vocab: VocabIndex | Mapping[str, int] | None = None,
    idf: np.ndarray | None = None,
    state: PrefixState = EMPTY_STATE,
) -> FeatureSet:
    """Features of every unit of one history (``texts`` in order; ``kinds`` from :class:`Unit`).

    ``state``: the :attr:`FeatureSet.state` of the units before ``texts`` (incremental scoring of
    appended units); features are identical to computing the whole history at once (tested).
    """
    n = len(texts)
    index = vocab if isinstance(vocab, VocabIndex) else VocabIndex.build(vocab or {})
    if n == 0:
        return FeatureSet(np.zeros((0, len(FEATURE_NAMES))), _EMPTY_I64, _EMPTY_I64, np.zeros(0), state)
    if n >= _MAX_BATCH:
        raise ValueError(f"texts: at most {_MAX_BATCH - 1} units per call, got {n}")
    ta = from_texts(texts)
    c = _char_features(ta)
    cols, flags = index.lookup(ta.hashes)
    wc = _word_counts(ta, flags)
    content = (flags & STOP) == 0
    p, new_state = _pair_stats(ta, content, cols, idf, index.size, state)
    cunit = ta.unit[content]
    n_content = np.bincount(cunit, minlength=n)[:n].astype(np.float64)
    rare = np.bincount(cunit[cols[content] < 0], minlength=n)[:n] / np.maximum(n_content, 1.0)
    has_q = (c["qmarks"] > 0).astype(np.float64)
    nw = np.maximum(c["words"], 1.0)
    kinds_arr = np.asarray(kinds) if kinds is not None else None
    dense = np.column_stack([
        np.log1p(np.arange(state.n, state.n + n, dtype=np.float64)),
        np.log1p(c["words"]),
        np.log1p(c["digits"]),
        np.log1p(c["caps"]),
        np.log1p(c["identifiers"]),
        np.log1p(wc["errors"]),
        np.log1p(c["code"]),
        has_q,
        shift_right(has_q, state.prev_question),
        (c["bangs"] > 0).astype(np.float64),
        rare,
        p["novelty"],
        np.log1p(p["new_words"]),
        p["prev_overlap"],
        p["topic_recency"],
        p["history_overlap"],
        np.log1p(wc["temporal"]),
        wc["first_person"] / nw,
        np.log1p(wc["phatic"]),
        n_content / nw,
        np.log1p(wc["events"]),
        np.log1p(wc["people"]),
        np.log1p(c["sentences"]),
        (kinds_arr == "tool_call").astype(np.float64) if kinds_arr is not None else np.zeros(n),
        (kinds_arr == "system").astype(np.float64) if kinds_arr is not None else np.zeros(n),
        np.log1p(p["salience"]),
        np.log1p(wc["plans"]),
        np.log1p(wc["preferences"]),
    ])
    new_state = PrefixState(new_state.n, new_state.words, new_state.counts, new_state.last, new_state.prev_words,
                            float(has_q[-1]))
    return FeatureSet(dense, p["tf_rows"], p["tf_cols"], p["tf_vals"], new_state)
