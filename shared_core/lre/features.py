"""Causal features φ(u_i, u_≤i): every feature of unit i is a function of units 0..i only.

Why causal: a unit is scored once, when it is written, and its score must not change when the
conversation goes on (so scores can be cached, and training never peeks at the future or at a query).
Appending units therefore never changes the features of earlier units (tested).

Everything is vectorised over the whole history: the texts are joined once with a separator, character
classes are counted on a UTF-32 code-point array, regular expressions run once over the joined string
and their matches are mapped to units with ``searchsorted``, and word statistics come from sorted
(unit, word) pairs. There is no Python loop per unit or per feature, only per word (the tokenizer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from shared_core.lre import lexicon

FEATURE_NAMES: tuple[str, ...] = (
    "position",        # log1p(unit index): absolute, so it never changes when units are appended
    "log_len",         # log1p(words)
    "digits",          # log1p(digit characters)
    "caps",            # log1p(capitalised words that do not start a sentence): names, places
    "identifiers",     # log1p(URLs, paths, e-mails, hex / base64 tokens, ORD-123, snake/camelCase)
    "errors",          # log1p(error markers)
    "code",            # log1p(code tokens)
    "question",        # unit contains '?'
    "prev_question",   # the previous unit asked a question: this one is probably the answer
    "exclaim",         # unit contains '!'
    "rare",            # share of content words outside the scorer's vocabulary (rare words)
    "novelty",         # share of content words never seen earlier in this history
    "new_words",       # log1p(number of such first mentions)
    "prev_overlap",    # Jaccard overlap of content words with the previous unit
    "topic_recency",   # 1/(1 + units since a content word of this unit was last seen), 0 if never
    "history_overlap", # mean log1p(earlier units containing each content word)
    "temporal",        # log1p(time anchors: dates, weekdays, months, yesterday, last week ...)
    "first_person",    # share of words that are first person (self-disclosure)
    "phatic",          # log1p(acknowledgements: thanks, wow, great ...)
    "content_share",   # share of words that are content words (not stop words)
    "is_tool_call",    # the unit is an assistant tool call with its results
    "is_system",       # the unit is a system message
)

SEP = "\x01"
_STOP_IDS: dict[str, int] = {SEP: 0}
for _w in sorted(lexicon.STOP_WORDS):
    _STOP_IDS.setdefault(_w, len(_STOP_IDS))
_N_STOP = len(_STOP_IDS)
_TOKEN = __import__("re").compile(lexicon.WORD.pattern + "|" + SEP)


@dataclass(frozen=True, slots=True)
class FeatureSet:
    """Dense causal features plus the TF-IDF entries (row, column, l2-normalised value)."""

    dense: np.ndarray  # (n_units, len(FEATURE_NAMES)) float64
    tfidf_rows: np.ndarray
    tfidf_cols: np.ndarray
    tfidf_vals: np.ndarray

    @property
    def n(self) -> int:
        return int(self.dense.shape[0])


def _count_matches(pattern: Any, s: str, seps: np.ndarray, n: int) -> np.ndarray:
    pos = [m.start() for m in pattern.finditer(s)]
    if not pos:
        return np.zeros(n)
    return np.bincount(np.searchsorted(seps, pos), minlength=n)[:n].astype(np.float64)


def _char_features(s: str, n: int) -> tuple[np.ndarray, ...]:
    a = np.frombuffer(s.encode("utf-32-le"), dtype=np.uint32)
    sep = a == 1
    seps = np.flatnonzero(sep)
    starts = np.r_[0, seps[:-1] + 1]
    space = (a == 32) | (a == 10) | (a == 9) | (a == 13)
    boundary = space | sep
    prev_b = np.r_[True, boundary[:-1]]
    upper = (a - 65) < 26
    nxt_lower = np.r_[(a[1:] - 97) < 26, False]
    prev2 = np.r_[1, 1, a[:-2]]
    sentence_start = (prev2 == 46) | (prev2 == 33) | (prev2 == 63) | (prev2 == 1) | np.r_[True, sep[:-1]]
    caps = upper & nxt_lower & prev_b & ~sentence_start
    word_start = ~boundary & prev_b
    digits = (a - 48) < 10

    def per_unit(mask: np.ndarray) -> np.ndarray:
        return np.add.reduceat(mask.astype(np.float64), starts)

    return seps, per_unit(word_start), per_unit(digits), per_unit(caps), per_unit(a == 63), per_unit(a == 33)


def _word_stats(s: str, n: int, vocab: Mapping[str, int]) -> dict[str, np.ndarray]:
    toks = _TOKEN.findall(s.lower())
    local = dict(_STOP_IDS)
    ids = np.fromiter((local.setdefault(t, len(local)) for t in toks), dtype=np.int64, count=len(toks))
    unit = np.cumsum(ids == 0) if len(ids) else ids
    content = ids >= _N_STOP
    cid, cunit = ids[content], unit[content]
    k = len(local)
    n_words = np.bincount(unit[ids != 0], minlength=n)[:n].astype(np.float64)
    n_content = np.bincount(cunit, minlength=n)[:n].astype(np.float64)

    # (unit, word) pairs, unit-major; then word-major for prefix statistics.
    keys = np.unique(cunit * k + cid)
    pu, pw = keys // k, keys % k
    order = np.lexsort((pu, pw))
    wu, ww = pu[order], pw[order]
    first = np.r_[True, ww[1:] != ww[:-1]]
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(ww)), 0))
    rank = np.arange(len(ww)) - group_start  # earlier units containing this word
    uniq = np.bincount(pu, minlength=n)[:n].astype(np.float64)
    safe = np.maximum(uniq, 1.0)
    novel = np.bincount(wu[rank == 0], minlength=n)[:n].astype(np.float64)
    hist = np.bincount(wu, weights=np.log1p(rank), minlength=n)[:n] / safe
    gap = np.where(first, 0, wu - np.r_[wu[:1], wu[:-1]])
    rec = np.zeros(n)
    if len(gap):
        np.maximum.at(rec, wu, np.where(first, 0.0, 1.0 / (1.0 + gap)))
    prev_key = keys - k
    pos = np.searchsorted(keys, prev_key)
    hit = (pos < len(keys)) & (keys[np.minimum(pos, len(keys) - 1)] == prev_key)
    inter = np.bincount(pu[hit], minlength=n)[:n].astype(np.float64)
    union = uniq + np.r_[0.0, uniq[:-1]] - inter
    jacc = np.where(union > 0, inter / np.maximum(union, 1.0), 0.0)

    # Vocabulary columns for TF-IDF and rarity.
    col_of_local = np.fromiter((vocab.get(w, -1) for w in local), dtype=np.int64, count=k)
    ccol = col_of_local[cid]
    rare = np.bincount(cunit[ccol < 0], minlength=n)[:n] / np.maximum(n_content, 1.0)
    return {
        "n_words": n_words, "n_content": n_content, "novelty": novel / safe, "new_words": novel,
        "history_overlap": hist, "topic_recency": rec, "prev_overlap": jacc, "rare": rare,
        "tf_unit": cunit[ccol >= 0], "tf_col": ccol[ccol >= 0],
    }


def compute_features(
    texts: Sequence[str],
    kinds: Sequence[str] | None = None,
    *,
    vocab: Mapping[str, int] | None = None,
    idf: np.ndarray | None = None,
) -> FeatureSet:
    """Features of every unit of one history (``texts`` in order; ``kinds`` from :class:`Unit`)."""
    n = len(texts)
    vocab = vocab or {}
    if n == 0:
        e = np.zeros(0, dtype=np.int64)
        return FeatureSet(np.zeros((0, len(FEATURE_NAMES))), e, e, np.zeros(0))
    s = SEP.join(texts) + SEP
    if s.count(SEP) != n:
        s = SEP.join(t.replace(SEP, " ") for t in texts) + SEP
    seps, words, digits, caps, qmarks, bangs = _char_features(s, n)
    w = _word_stats(s, n, vocab)
    ids = _count_matches(lexicon.IDENTIFIER, s, seps, n)
    errs = _count_matches(lexicon.ERROR, s, seps, n)
    code = _count_matches(lexicon.CODE, s, seps, n)
    temporal = _count_matches(lexicon.TEMPORAL, s, seps, n)
    first_person = _count_matches(lexicon.FIRST_PERSON, s, seps, n)
    phatic = _count_matches(lexicon.NEGATION_FILLER, s, seps, n)
    has_q = (qmarks > 0).astype(np.float64)
    nw = np.maximum(w["n_words"], 1.0)
    kinds_arr = np.asarray(kinds if kinds is not None else ["turn"] * n)
    dense = np.column_stack([
        np.log1p(np.arange(n, dtype=np.float64)),
        np.log1p(words),
        np.log1p(digits),
        np.log1p(caps),
        np.log1p(ids),
        np.log1p(errs),
        np.log1p(code),
        has_q,
        np.r_[0.0, has_q[:-1]],
        (bangs > 0).astype(np.float64),
        w["rare"],
        w["novelty"],
        np.log1p(w["new_words"]),
        w["prev_overlap"],
        w["topic_recency"],
        w["history_overlap"],
        np.log1p(temporal),
        first_person / nw,
        np.log1p(phatic),
        w["n_content"] / nw,
        (kinds_arr == "tool_call").astype(np.float64),
        (kinds_arr == "system").astype(np.float64),
    ])
    rows, cols, vals = _tfidf(w["tf_unit"], w["tf_col"], idf, n, len(vocab))
    return FeatureSet(dense, rows, cols, vals)


def _tfidf(unit: np.ndarray, col: np.ndarray, idf: np.ndarray | None, n: int, v: int) -> tuple[np.ndarray, ...]:
    if idf is None or v == 0 or len(col) == 0:
        e = np.zeros(0, dtype=np.int64)
        return e, e, np.zeros(0)
    keys, tf = np.unique(unit * v + col, return_counts=True)
    rows, cols = keys // v, keys % v
    vals = tf * idf[cols]
    norm = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=n))
    return rows, cols, vals / norm[rows]
