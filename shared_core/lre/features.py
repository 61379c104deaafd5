"""Causal features φ(u_i, u_≤i): every feature of unit i is a function of units 0..i only.

Why causal: a unit is scored once, when it is written, and its score must not change when the
conversation goes on (so scores can be cached, and training never peeks at the future or at a query).
Appending units therefore never changes the features of earlier units (tested).

Everything is vectorised over the whole history (see :mod:`shared_core.lre.textarray`): character
classes are counted on one byte per character and summed per unit with ``reduceat``, words are 64-bit
hashes, the vocabulary and the word lists are looked up together in one hash table
(:class:`VocabIndex`), identifiers are the whitespace-delimited chunks holding an id-ish character,
classified from their character counts, and prefix statistics and the TF-IDF entries (over the
scorer's vocabulary, l2-normalised per unit) come from one radix sort of the content words by a small
per-call word id. There is no Python loop per unit, per word or per feature. Why it matters: a cold
trim featurises the whole history, and the featuriser is most of its cost. Where numba is installed,
a cold one-off featurisation runs the compiled equivalent instead (:mod:`shared_core.lre.kernel`,
same numbers to float rounding); this numpy code is the reference and the incremental path.

Incremental use: :class:`PrefixState` carries what later units need from earlier ones, so appended
units can be featurised alone with identical results (see :mod:`shared_core.lre.stream`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from shared_core.lre import kernel
from shared_core.lre.textarray import TextArray, encode, from_texts, runs, shift_left, shift_right
from shared_core.lre.vocab import (ERROR, EVENT, FIRST, PEOPLE, PHATIC, PLAN, PREFER, STOP, TEMPORAL,
                                  VocabIndex)

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


_COLUMN = {name: i for i, name in enumerate(FEATURE_NAMES)}
_LOG1P = {"words": "log_len", **{name: name for name in (
    "digits", "caps", "identifiers", "errors", "code", "new_words", "temporal", "phatic", "events", "people",
    "sentences", "salience", "plans", "preferences")}}
"""Per-unit statistics that enter as log1p(count), and the feature each becomes."""


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


def _char_features(ta: TextArray) -> dict[str, np.ndarray]:
    a = ta.chars  # one byte per character, non-ASCII = 128
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
    out = {name: ta.per_unit(m) for name, m in
           (("digits", digit), ("caps", caps), ("code", code), ("qmarks", a == 63), ("bangs", a == 33),
            ("sentences", sentence_end))}
    out["identifiers"] = _identifiers(ta, space, digit, lower & shift_left(upper, False))
    out["words"] = np.diff(ta.words_before).astype(np.float64)
    return out


def _identifiers(ta: TextArray, space: np.ndarray, digit: np.ndarray, camel_m: np.ndarray) -> np.ndarray:
    """Identifier chunks per unit: whitespace-delimited runs classified by their character counts.
    Every rule needs a digit, ``/``, ``@``, ``_``, ``-``/``#`` or a camelCase hump, so only the chunks
    holding one are examined (plain words never are): their characters are gathered and counted alone."""
    a, n = ta.chars, ta.n
    special = np.flatnonzero(digit | (a == 47) | (a == 64) | (a == 95) | (a == 45) | (a == 35) | camel_m)
    if len(special) == 0:
        return np.zeros(n)
    chunk_start, chunk_end = runs(~space)
    hit = np.searchsorted(chunk_start, special, side="right") - 1
    cand = hit[np.concatenate(([True], hit[1:] != hit[:-1]))]
    cs, length = chunk_start[cand], chunk_end[cand] - chunk_start[cand]
    m = len(cand)
    cid = np.repeat(np.arange(m), length)
    pos = np.arange(len(cid)) + np.repeat(cs - (np.cumsum(length) - length), length)
    c = a[pos]

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(cid[mask], minlength=m)

    punct = ((c == 34) | (c == 39) | (c == 44) | (c == 58) | (c == 40) | (c == 41) | (c == 91) | (c == 93)
             | (c == 123) | (c == 125) | (c == 59) | (c == 61) | (c == 46))
    n_digit, slash, at, dot, under, dash, camel, other = (count(k) for k in (
        digit[pos], c == 47, c == 64, c == 46, c == 95, (c == 45) | (c == 35), camel_m[pos], punct))
    n_alpha = length - n_digit - slash - at - under - dash - other  # letters, roughly
    ident = ((slash >= 2) | ((at > 0) & (dot > 0)) | ((length >= 8) & (n_digit > 0) & (n_alpha > 2))
             | (((dash + under) > 0) & (n_digit > 0) & (n_alpha > 0)) | ((under > 0) & (n_alpha > 2))
             | ((camel > 0) & (n_alpha > 3) & (n_digit == 0) & (length <= 40)))
    return np.bincount(np.searchsorted(ta.seps, cs[ident]), minlength=n).astype(np.float64)


def _word_counts(ta: TextArray, flags: np.ndarray) -> dict[str, np.ndarray]:
    """Word-list counts per unit. Only words on a list (other than the stop words), 4-digit years and
    ``-ed`` words count, so those few are picked out first (by flag, length and last letter) and every
    count runs over them alone."""
    n = ta.n
    chars, starts, ends = ta.chars, ta.starts, ta.ends
    length = ends - starts
    four = np.flatnonzero(length == 4)  # 4-digit years 19xx / 20xx are time anchors too
    s4 = starts.take(four)
    d0, d1, d3 = chars.take(s4), chars.take(s4 + 1), chars.take(s4 + 3)
    year = four[(((d0 == 49) & (d1 == 57)) | ((d0 == 50) & (d1 == 48))) & ((d3 - 48) < 10)]
    ed = np.flatnonzero((chars.take(ends - 1) == 100) & (length >= 5))  # "...ed"
    past = ed[chars.take(ends.take(ed) - 2) == 101]
    listed = np.flatnonzero(flags & ~STOP)
    f, unit = flags.take(listed), ta.unit.take(listed)

    def count(mask: np.ndarray, extra: np.ndarray | None = None) -> np.ndarray:
        u = unit[mask] if extra is None else np.union1d(listed[mask], extra)
        return np.bincount(u if extra is None else ta.unit.take(u), minlength=n)[:n].astype(np.float64)

    return {"errors": count((f & ERROR) > 0), "temporal": count((f & TEMPORAL) > 0, year),
            "first_person": count((f & FIRST) > 0), "phatic": count((f & PHATIC) > 0),
            "events": count((f & EVENT) > 0, past), "people": count((f & PEOPLE) > 0),
            "plans": count((f & PLAN) > 0), "preferences": count((f & PREFER) > 0)}


_MAX_BATCH = 1 << 24
_EMPTY_U64 = np.zeros(0, dtype=np.uint64)
_EMPTY_I64 = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True, slots=True)
class PrefixState:
    """What the features of later units need to know about units 0..n-1 (for incremental scoring):
    per word (by hash), how many units contained it and the last one that did; the last unit's words."""

    n: int
    words: np.ndarray  # sorted word hashes
    counts: np.ndarray
    last: np.ndarray
    prev_words: np.ndarray
    prev_question: float = 0.0


EMPTY_STATE = PrefixState(0, _EMPTY_U64, _EMPTY_I64, _EMPTY_I64, _EMPTY_U64)


def _word_ids(h: np.ndarray) -> np.ndarray:
    """A small id per distinct word hash (equal hashes, equal ids), from an open-addressing table built
    for this call with vectorised linear probing: every occurrence of a word follows the same probe
    sequence and sees the same table in each round, so all of them land on the same slot. Small ids
    let the (word, unit) grouping use numpy's radix sort instead of sorting 64-bit keys."""
    size = 1 << max(10, (2 * len(h)).bit_length())  # load factor below 1/2
    mask = size - 1
    table = np.zeros(size, dtype=np.uint64)
    used = np.zeros(size, dtype=bool)
    slot = (h & np.uint64(mask)).astype(np.intp)
    todo = np.arange(len(h))
    while len(todo):
        s, ht = slot[todo], h[todo]
        free = ~used[s]
        table[s[free]] = ht[free]  # several words may claim one free slot: the last write wins
        used[s[free]] = True
        todo = todo[table[s] != ht]
        slot[todo] = (slot[todo] + 1) & mask
    if size > 1 << 16:  # renumber the used slots 0..distinct-1
        slot = (np.cumsum(used) - 1)[slot]
    return slot.astype(np.uint16) if size <= 1 << 16 or slot.max(initial=0) < 1 << 16 else slot


def _merge(state: PrefixState, n: int, word: np.ndarray, wu: np.ndarray, first: np.ndarray, present: np.ndarray,
           pos: np.ndarray) -> PrefixState:
    """The state after a batch: this batch's words merged into the state's table, sorted by hash."""
    off = state.n
    starts = np.flatnonzero(first)
    sizes = np.diff(np.concatenate((starts, [len(wu)])))
    g_last = off + wu[np.concatenate((starts[1:], [len(wu)])) - 1] if len(wu) else _EMPTY_I64
    by_hash = np.argsort(word[starts])
    starts, sizes, g_last = starts[by_hash], sizes[by_hash], g_last[by_hash]
    g_word, g_present, g_pos = word[starts], present[starts], pos[starts]
    counts, last = state.counts.copy(), state.last.copy()
    counts[g_pos[g_present]] += sizes[g_present]
    last[g_pos[g_present]] = g_last[g_present]
    absent = ~g_present
    return PrefixState(
        n=off + n,
        words=np.insert(state.words, g_pos[absent], g_word[absent]),
        counts=np.insert(counts, g_pos[absent], sizes[absent]),
        last=np.insert(last, g_pos[absent], g_last[absent]),
        prev_words=word[wu == n - 1],
    )


def _pair_stats(ta: TextArray, content: np.ndarray, cols: np.ndarray, idf: np.ndarray | None, vsize: int,
                state: PrefixState, keep_state: bool) -> tuple[dict[str, np.ndarray], PrefixState | None]:
    """Prefix statistics and TF-IDF from one grouping of the content words by (word, unit)."""
    n, off = ta.n, state.n
    hc, uc = ta.hashes.take(content), ta.unit.take(content)
    ids = _word_ids(hc)
    order = np.argsort(ids, kind="stable")  # word-major; unit-minor because the words are in text order
    sid, su = ids[order], uc[order]
    new = np.concatenate(([True], (sid[1:] != sid[:-1]) | (su[1:] != su[:-1]))) if len(sid) else np.zeros(0, bool)
    first_tok = np.flatnonzero(new)
    tf = np.diff(np.concatenate((first_tok, [len(sid)])))
    at = order.take(first_tok)  # one token of every distinct (word, unit)
    pcol = cols.take(content.take(at))
    wu = su[first_tok]
    word = hc[at]
    wid = sid[first_tok]
    first = np.concatenate(([True], wid[1:] != wid[:-1])) if len(wid) else new
    idx = np.arange(len(wu))
    group = np.maximum.accumulate(np.where(first, idx, 0))
    rank = idx - group  # earlier units of this batch containing the word ...
    present = np.zeros(len(wu), dtype=bool)
    pos = np.zeros(len(wu), dtype=np.int64)
    last_seen = np.zeros(len(wu), dtype=np.int64)
    if len(state.words) and len(wu):
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
    if len(wu):
        gap = np.where(first, np.where(present, off + wu - last_seen, np.inf), wu - shift_right(wu, 0))
        np.maximum.at(rec, wu, 1.0 / (1.0 + gap))
    hit = ~first & (wu - shift_right(wu, 0) == 1) if len(wu) else new  # same word in the previous unit
    if len(state.prev_words) and len(wu):
        hit |= (wu == 0) & np.isin(word, state.prev_words)
    inter = np.bincount(wu[hit], minlength=n)[:n].astype(np.float64)
    prev_uniq = shift_right(uniq, float(len(state.prev_words)))
    union = uniq + prev_uniq - inter
    out = {"novelty": novel / safe, "new_words": novel, "salience": sal, "history_overlap": hist, "topic_recency": rec,
           "prev_overlap": np.where(union > 0, inter / np.maximum(union, 1.0), 0.0)}
    new_state = _merge(state, n, word, wu, first, present, pos) if keep_state else None
    if idf is None or vsize == 0:
        out.update(tf_rows=_EMPTY_I64, tf_cols=_EMPTY_I64, tf_vals=np.zeros(0))
        return out, new_state
    m = pcol >= 0
    rows, tcols = wu[m], pcol[m]
    vals = tf[m] * idf[tcols]
    norm = np.sqrt(np.bincount(rows, weights=vals * vals, minlength=n))
    out.update(tf_rows=rows, tf_cols=tcols, tf_vals=vals / norm[rows])
    return out, new_state


def _is_kind(kinds: Sequence[str] | None, kind: str, n: int) -> np.ndarray:
    """1.0 where the unit is of ``kind`` (a C-level membership test first: most kinds are absent)."""
    out = np.zeros(n)
    if kinds is not None and kind in kinds:
        out[:] = np.fromiter(map(kind.__eq__, kinds), dtype=bool, count=n)
    return out


def compute_features(
    texts: Sequence[str],
    kinds: Sequence[str] | None = None,
    *,
    vocab: VocabIndex | Mapping[str, int] | None = None,
    idf: np.ndarray | None = None,
    state: PrefixState = EMPTY_STATE,
    keep_state: bool = True,
) -> FeatureSet:
    """Features of every unit of one history (``texts`` in order; ``kinds`` from :class:`Unit`).

    ``state``: the :attr:`FeatureSet.state` of the units before ``texts`` (incremental scoring of
    appended units); features are identical to computing the whole history at once (tested).
    ``keep_state=False`` skips building the next state (a one-off scoring, as a cold trim is).
    """
    n = len(texts)
    index = vocab if isinstance(vocab, VocabIndex) else VocabIndex.build(vocab or {})
    if n == 0:
        return FeatureSet(np.zeros((0, len(FEATURE_NAMES))), _EMPTY_I64, _EMPTY_I64, np.zeros(0), state)
    if n >= _MAX_BATCH:
        raise ValueError(f"texts: at most {_MAX_BATCH - 1} units per call, got {n}")
    if state is EMPTY_STATE and not keep_state and kernel.ready(n):  # a cold one-off: compiled, if installed
        a, wide = encode(texts)
        counts, pairs, rows, cols, vals = kernel.unit_stats(a, kernel.EMPTY_CODE_POINTS if wide is None else wide, n, index, idf)
        stats = {**dict(zip(kernel.COUNTS, counts.T)), **dict(zip(kernel.PAIRS, pairs.T))}
        return FeatureSet(_dense(stats, kinds, state), rows, cols, vals, None)
    stats, new_state = _numpy_stats(texts, index, idf, state, keep_state)
    dense = _dense(stats, kinds, state)
    if new_state is not None:
        new_state = PrefixState(new_state.n, new_state.words, new_state.counts, new_state.last,
                                new_state.prev_words, float(stats["qmarks"][-1] > 0))
    return FeatureSet(dense, stats["tf_rows"], stats["tf_cols"], stats["tf_vals"], new_state)


def _numpy_stats(texts: Sequence[str], index: VocabIndex, idf: np.ndarray | None, state: PrefixState,
                 keep_state: bool) -> tuple[dict[str, np.ndarray], PrefixState | None]:
    """Per-unit counts and prefix statistics (the names of :data:`kernel.COUNTS` and
    :data:`kernel.PAIRS`) plus the TF-IDF entries, vectorised in numpy (any state)."""
    n = len(texts)
    ta = from_texts(texts)
    c = _char_features(ta)
    cols, flags = index.lookup(ta.hashes)
    wc = _word_counts(ta, flags)
    content = np.flatnonzero((flags & STOP) == 0)  # word indices (gathers are cheaper than masks)
    p, new_state = _pair_stats(ta, content, cols, idf, index.size, state, keep_state)
    cunit = ta.unit.take(content)
    n_content = np.bincount(cunit, minlength=n)[:n].astype(np.float64)
    rare = np.bincount(cunit[cols.take(content) < 0], minlength=n)[:n].astype(np.float64)
    return {**c, **wc, **p, "content": n_content, "rare": rare}, new_state


def _dense(s: Mapping[str, np.ndarray], kinds: Sequence[str] | None, state: PrefixState) -> np.ndarray:
    """The feature matrix (columns in :data:`FEATURE_NAMES` order) from the per-unit statistics."""
    n = len(s["words"])
    has_q = (s["qmarks"] > 0).astype(np.float64)
    nw = np.maximum(s["words"], 1.0)
    out = np.empty((len(FEATURE_NAMES), n))  # filled row by row (contiguous), returned transposed
    for stat, feature in _LOG1P.items():
        np.log1p(s[stat], out=out[_COLUMN[feature]])
    out[_COLUMN["position"]] = np.log1p(np.arange(state.n, state.n + n, dtype=np.float64))
    out[_COLUMN["question"]] = has_q
    out[_COLUMN["prev_question"]] = shift_right(has_q, state.prev_question)
    out[_COLUMN["exclaim"]] = s["bangs"] > 0
    out[_COLUMN["rare"]] = s["rare"] / np.maximum(s["content"], 1.0)
    for name in ("novelty", "prev_overlap", "topic_recency", "history_overlap"):
        out[_COLUMN[name]] = s[name]
    out[_COLUMN["first_person"]] = s["first_person"] / nw
    out[_COLUMN["content_share"]] = s["content"] / nw
    out[_COLUMN["is_tool_call"]] = _is_kind(kinds, "tool_call", n)
    out[_COLUMN["is_system"]] = _is_kind(kinds, "system", n)
    return out.T
