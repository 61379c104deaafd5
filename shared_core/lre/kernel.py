"""The compiled featuriser: the cold path of :func:`~shared_core.lre.features.compute_features`, when
numba is installed (``tarl-memory[fast]``); the numpy path is the reference and runs without it.

Why: the numpy featuriser needs ~150 array passes and two sorts per call, which kept a cold trim of
1,000 messages at ~3x ``langchain_core.trim_messages`` in CPU time. Here the character classes come
from one vectorised pass (a bit set per character, computed from it and its neighbours only), the
per-unit counts, identifier chunks, word boundaries and word hashes from a few scalar passes, and the
word-list counts, prefix statistics and TF-IDF from one walk over the words with a small
open-addressing table of the words seen so far (no sort). The definitions are the numpy path's,
character for character (same word hashes, same chunk rules, same lists), so scores agree to float
rounding; a hypothesis test checks that on random histories. ``TARL_LRE_KERNEL=0`` switches it off.

Only the one-off case uses it: a history featurised from scratch without keeping a
:class:`~shared_core.lre.features.PrefixState`, as every cold trim is; incremental scoring appends a
few units at a time and stays on numpy. Costs to know: importing numba takes ~0.7 s (numba imports
scipy, when installed, for its version check), so it happens only once a history of
:data:`MIN_UNITS` units is featurised cold, in a background thread (the first load after an install
compiles for ~15 s; later ones read numba's on-disk cache in ``__pycache__`` beside this file);
calls made meanwhile take the numpy path. :func:`load` does it synchronously (a warm-up, tests).
Measured with ``tarl bench lre`` (``trim_ratio_cpu``; its notes give the milliseconds).
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
import warnings
from typing import Any

import numpy as np

from shared_core.lre.textarray import powers
from shared_core.lre.vocab import ERROR, EVENT, FIRST, PEOPLE, PHATIC, PLAN, PREFER, STOP, TEMPORAL

AVAILABLE = importlib.util.find_spec("numba") is not None and os.environ.get("TARL_LRE_KERNEL", "1") != "0"
"""Whether :func:`unit_stats` can run (numba installed and not switched off by ``TARL_LRE_KERNEL=0``)."""

MIN_UNITS = 200
"""The first cold history of this many units starts loading the kernel (see :func:`ready`); from then
on every cold history uses it. A script that only ever trims short chats never imports numba."""

COUNTS = ("words", "digits", "caps", "code", "qmarks", "bangs", "sentences", "identifiers", "errors",
          "temporal", "first_person", "phatic", "events", "people", "plans", "preferences", "content", "rare")
"""Columns of the per-unit count matrix :func:`unit_stats` returns."""

PAIRS = ("novelty", "new_words", "salience", "history_overlap", "topic_recency", "prev_overlap")
"""Columns of its prefix-statistics matrix."""

_N_COUNTS, _N_PAIRS = len(COUNTS), len(PAIRS)


def _wide_letter(cp: int) -> bool:
    """A letter beyond ASCII (not general punctuation), as textarray.from_texts."""
    return cp >= 0xC0 and not (0x2000 <= cp < 0x2070)


def _identifier(length: int, digit: int, slash: int, at: int, dot: int, under: int, dash: int, camel: int,
                other: int) -> int:
    """1 if a chunk with these character counts is an identifier (the rule of features._identifiers)."""
    alpha = length - digit - slash - at - under - dash - other
    return int((slash >= 2) | ((at > 0) & (dot > 0)) | ((length >= 8) & (digit > 0) & (alpha > 2))
               | ((dash + under > 0) & (digit > 0) & (alpha > 0)) | ((under > 0) & (alpha > 2))
               | ((camel > 0) & (alpha > 3) & (digit == 0) & (length <= 40)))


def _mix(h: Any) -> Any:
    """MurmurHash3's finaliser, as textarray._mix (word tables are addressed by the low bits)."""
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xFF51AFD7ED558CCD)
    h ^= h >> np.uint64(33)
    h *= np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def _bits_at(p2: int, p1: int, x: int, nx: int) -> int:
    """The bits of one character ``x`` from it, the two before and the one after (see :func:`_char_bits`)."""
    sp = (x == 32) | (x == 10) | (x == 9) | (x == 13) | (x == 1)
    sp_prev = (p1 == 32) | (p1 == 10) | (p1 == 9) | (p1 == 13) | (p1 == 1)
    sp_next = (nx == 32) | (nx == 10) | (nx == 9) | (nx == 13) | (nx == 1)
    up, lo, dg = (x >= 65) & (x <= 90), (x >= 97) & (x <= 122), (x >= 48) & (x <= 57)
    up_next, lo_next = (nx >= 65) & (nx <= 90), (nx >= 97) & (nx <= 122)
    end, end_next = (x == 46) | (x == 33) | (x == 63), (nx == 46) | (nx == 33) | (nx == 63)
    start_of_sentence = (p2 == 46) | (p2 == 33) | (p2 == 63) | (p2 == 1) | (p1 == 1)
    word = up | lo | dg
    word_prev = ((p1 >= 65) & (p1 <= 90)) | ((p1 >= 97) & (p1 <= 122)) | ((p1 >= 48) & (p1 <= 57))
    word_next = up_next | lo_next | ((nx >= 48) & (nx <= 57))
    conn = (x == 39) | (x == 95) | (x == 45)
    camel = lo & up_next
    code = ((x == 123) | (x == 125) | (x == 59) | (x == 96) | ((x == 61) & ((nx == 61) | (nx == 62)))
            | ((x == 45) & (nx == 62)))
    other = ((x == 34) | (x == 39) | (x == 44) | (x == 58) | (x == 40) | (x == 41) | (x == 91) | (x == 93)
             | (x == 123) | (x == 125) | (x == 59) | (x == 61) | (x == 46))
    special = dg | (x == 47) | (x == 64) | (x == 95) | (x == 45) | (x == 35) | camel
    return (dg | ((up & lo_next & sp_prev & ~start_of_sentence) << 1) | (code << 2) | ((x == 63) << 3)
            | ((x == 33) << 4) | ((end & ~end_next & sp_next) << 5) | (sp << 6) | (special << 8) | (camel << 9)
            | (other << 10) | (up << 11) | (word << 12) | (conn << 13) | ((word | (conn & word_prev & word_next)) << 14))


def _char_bits(a: np.ndarray) -> np.ndarray:
    """Per character: 0 digit, 1 capitalised word start, 2 code, 3 '?', 4 '!', 5 sentence end, 6 space,
    8 identifier-ish (digit / @ _ - # camelCase), 9 camelCase hump, 10 punctuation, 11 upper case,
    12 word character, 13 connector (' _ -), 14 inside a word. Outside the text are separators. No
    state is carried from one character to the next, so the compiler vectorises the main loop;
    non-ASCII characters are fixed up afterwards (:func:`_fix_wide`)."""
    size = a.shape[0]
    bits = np.empty(size, np.int16)
    for i in range(2, size - 1):
        bits[i] = _bits_at(a[i - 2], a[i - 1], a[i], a[i + 1])
    for i in (0, 1, size - 1):  # the edges, with separators beyond the text
        if 0 <= i < size:
            bits[i] = _bits_at(a[i - 2] if i >= 2 else 1, a[i - 1] if i >= 1 else 1, a[i], a[i + 1] if i + 1 < size else 1)
    return bits


def _fix_wide(cps: np.ndarray, wide: np.ndarray, bits: np.ndarray) -> None:
    """Word and connector bits of the non-ASCII characters (at ``wide``) from their code points (letters
    beyond ASCII are word characters, the typographic apostrophe connects), then the inside-a-word bit
    of them and their neighbours, which depends on both."""
    size = bits.shape[0]
    for i in wide:
        cp = cps[i]
        bits[i] = (bits[i] & ~((1 << 12) | (1 << 13))) | (int(_wide_letter(cp)) << 12) | (int(cp == 0x2019) << 13)
    for i0 in wide:
        for i in range(max(i0 - 1, 0), min(i0 + 2, size)):
            word = (bits[i] >> 12) & 1
            conn = (bits[i] >> 13) & 1
            prev = (bits[i - 1] >> 12) & 1 if i > 0 else 0
            nxt = (bits[i + 1] >> 12) & 1 if i + 1 < size else 0
            bits[i] = (bits[i] & ~(1 << 14)) | ((word | (conn & prev & nxt)) << 14)


def _layout(a: np.ndarray, bits: np.ndarray, n: int) -> tuple[np.ndarray, ...]:
    """Positions of the separators, of the identifier-ish characters, and word starts and ends, from
    one pass with branch-free stores (write at the next free slot, advance only on a hit)."""
    size = a.shape[0]
    seps, specials = np.empty(n + 1, np.int64), np.empty(size + 1, np.int32)
    starts, ends = np.empty(size // 2 + 2, np.int64), np.empty(size // 2 + 2, np.int64)
    ns = nsp = nst = nen = 0
    prev = 0
    for i in range(size):
        f = bits[i]
        run = (f >> 14) & 1
        seps[ns] = i
        ns += a[i] == 1
        specials[nsp] = i
        nsp += (f >> 8) & 1
        starts[nst] = i
        nst += run & (1 - prev)
        ends[nen] = i
        nen += prev & (1 - run)
        prev = run
    return seps[:ns], specials[:nsp], starts[:nst], ends[:nen]


def _scan(a: np.ndarray, cps: np.ndarray, bits: np.ndarray, seps: np.ndarray, specials: np.ndarray,
          starts: np.ndarray, ends: np.ndarray, counts: np.ndarray, pw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Character level: the per-unit character counts into ``counts``; the hash and unit of every word
    (``starts``/``ends``), hashed as textarray.from_texts hashes them."""
    first = 0
    for u in range(seps.shape[0]):  # sums of the count bits over the unit's characters (separator included)
        d = caps = code = q = bang = sent = 0
        for j in range(first, seps[u] + 1):
            f = bits[j]
            d += f & 1
            caps += (f >> 1) & 1
            code += (f >> 2) & 1
            q += (f >> 3) & 1
            bang += (f >> 4) & 1
            sent += (f >> 5) & 1
        counts[u, 1], counts[u, 2], counts[u, 3], counts[u, 4], counts[u, 5], counts[u, 6] = d, caps, code, q, bang, sent
        first = seps[u] + 1
    # identifiers: every whitespace-delimited chunk holding a special character, counted once
    done, u = -1, 0
    for i in specials:
        if i < done:  # inside the chunk just classified
            continue
        while seps[u] < i:
            u += 1
        s = i
        while s > 0 and not (bits[s - 1] >> 6) & 1:
            s -= 1
        e = i
        while not (bits[e] >> 6) & 1:  # the text ends with a separator (a space)
            e += 1
        digit = slash = at = dot = under = dash = camel = other = 0
        for j in range(s, e):
            c, f = a[j], bits[j]
            digit += f & 1
            slash += c == 47
            at += c == 64
            dot += c == 46
            under += c == 95
            dash += (c == 45) | (c == 35)
            camel += (f >> 9) & 1
            other += (f >> 10) & 1
        counts[u, 7] += _identifier(e - s, digit, slash, at, dot, under, dash, camel, other)
        done = e
    # word hashes: the polynomial of textarray.from_texts, word by word (its prefix sums over the whole
    # text would stream three text-sized uint64 arrays through the cache on every call)
    nw = starts.shape[0]
    hashes, units = np.empty(nw, np.uint64), np.empty(nw, np.int64)
    u = 0
    for k in range(nw):
        s0 = starts[k]
        while seps[u] < s0:
            u += 1
        units[k] = u
        h = np.uint64(0)
        for j in range(s0, ends[k]):
            c = np.uint64(a[j]) + np.uint64(32 * ((bits[j] >> 11) & 1))
            if a[j] == 128:
                c = np.uint64(39) if cps[j] == 0x2019 else np.uint64(cps[j])
            h += c * pw[j - s0]
        hashes[k] = _mix(h)
    return hashes, units


def _lookup(h: Any, t_hash: np.ndarray, t_used: np.ndarray, probes: int) -> int:
    """Slot of ``h`` in a VocabIndex table, or -1 (same probe rule as VocabIndex.lookup)."""
    mask = t_hash.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    for k in range(probes):
        s = (slot + k) & mask
        if not t_used[s]:
            return -1
        if t_hash[s] == h:
            return s
    return -1


def _stats(a: np.ndarray, cps: np.ndarray, wide: np.ndarray, n: int, t_hash: np.ndarray, t_col: np.ndarray,
           t_flag: np.ndarray, t_used: np.ndarray, probes: int, idf: np.ndarray, has_idf: bool, pw: np.ndarray,
           logs: np.ndarray) -> tuple[np.ndarray, ...]:
    bits = _char_bits(a)
    if wide.shape[0]:
        _fix_wide(cps, wide, bits)
    seps, specials, starts, ends = _layout(a, bits, n)
    counts = np.zeros((n, _N_COUNTS))
    hashes, units = _scan(a, cps, bits, seps, specials, starts, ends, counts, pw)
    nw = starts.shape[0]
    cols = np.empty(nw, np.int64)
    is_content = np.zeros(nw, np.bool_)
    content = 0
    tally = np.zeros((n, 11), np.int64)  # words, the eight word lists, content words, rare content words
    for j in range(nw):  # word level: vocabulary column, word lists, years, past tense (few branches)
        at = _lookup(hashes[j], t_hash, t_used, probes)
        col, flag = (np.int64(t_col[at]), np.int64(t_flag[at])) if at >= 0 else (np.int64(-1), np.int64(0))
        cols[j] = col
        b, e = starts[j], ends[j]
        year = past = 0
        if e - b == 4:
            year = int(((a[b] == 49) & (a[b + 1] == 57)) | ((a[b] == 50) & (a[b + 1] == 48))) & int(48 <= a[b + 3] <= 57)
        elif e - b >= 5:
            past = int((a[e - 1] == 100) & (a[e - 2] == 101))
        word = int((flag & STOP) == 0)
        is_content[j] = word == 1
        content += word
        r = units[j]
        tally[r, 0] += 1
        tally[r, 1] += (flag & ERROR) != 0
        tally[r, 2] += ((flag & TEMPORAL) != 0) | year
        tally[r, 3] += (flag & FIRST) != 0
        tally[r, 4] += (flag & PHATIC) != 0
        tally[r, 5] += ((flag & EVENT) != 0) | past
        tally[r, 6] += (flag & PEOPLE) != 0
        tally[r, 7] += (flag & PLAN) != 0
        tally[r, 8] += (flag & PREFER) != 0
        tally[r, 9] += word
        tally[r, 10] += word & int(col < 0)
    counts[:, 0] = tally[:, 0]
    counts[:, 8:] = tally[:, 1:]
    # content-word level: prefix statistics and TF-IDF from one table of the words seen so far
    size = 16
    while size < 2 * content:
        size *= 2
    mask = size - 1
    used = np.zeros(size, np.bool_)  # the other columns are set when a slot is taken (no zeroing)
    key, seen, last, pair = np.empty(size, np.uint64), np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size, np.int64)
    p_unit, p_col, p_tf = np.empty(content, np.int64), np.empty(content, np.int64), np.empty(content, np.float64)
    uniq, novel, hist, sal = np.zeros(n), np.zeros(n), np.zeros(n), np.zeros(n)
    rec, inter = np.zeros(n), np.zeros(n)
    m = 0
    for j in range(nw):
        if not is_content[j]:
            continue
        h, u = hashes[j], units[j]
        s = np.int64(h & np.uint64(mask))
        while used[s] and key[s] != h:
            s = (s + 1) & mask
        if not used[s]:
            used[s], key[s], seen[s], last[s] = True, h, 0, -1
        if last[s] != u:  # first occurrence of this word in this unit
            rank = seen[s]
            uniq[u] += 1
            if rank == 0:
                novel[u] += 1
            hist[u] += logs[rank + 1]  # log1p(rank), from a table: ranks and units are < n
            sal[u] += logs[u + 2] - logs[rank + 1]  # log((2 + u) / (1 + rank))
            if last[s] >= 0:
                rec[u] = max(rec[u], 1.0 / (1.0 + (u - last[s])))
                if last[s] == u - 1:
                    inter[u] += 1
            p_unit[m], p_col[m], p_tf[m], pair[s] = u, cols[j], 1.0, m
            m += 1
            seen[s] += 1
            last[s] = u
        else:
            p_tf[pair[s]] += 1.0
    stats = np.zeros((n, _N_PAIRS))
    for u in range(n):
        safe, union = max(uniq[u], 1.0), uniq[u] + (uniq[u - 1] if u > 0 else 0.0) - inter[u]
        stats[u, 0], stats[u, 1], stats[u, 2], stats[u, 3] = novel[u] / safe, novel[u], sal[u], hist[u] / safe
        stats[u, 4], stats[u, 5] = rec[u], inter[u] / max(union, 1.0) if union > 0 else 0.0
    if not has_idf:
        return counts, stats, np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0)
    rows, tcols, vals, norm = np.empty(m, np.int64), np.empty(m, np.int64), np.empty(m), np.zeros(n)
    k = 0
    for i in range(m):  # the pairs whose word is in the vocabulary, l2-normalised per unit
        if p_col[i] >= 0:
            v = p_tf[i] * idf[p_col[i]]
            rows[k], tcols[k], vals[k] = p_unit[i], p_col[i], v
            norm[p_unit[i]] += v * v
            k += 1
    for i in range(k):
        vals[i] /= math.sqrt(norm[rows[i]])
    return counts, stats, rows[:k], tcols[:k], vals[:k]


_JIT = ("_wide_letter", "_identifier", "_mix", "_lookup", "_bits_at", "_char_bits", "_fix_wide", "_layout", "_scan",
        "_stats")
"""Compiled in this order (a function's callees first); the small helpers are inlined into their callers."""
_INLINE = {"_wide_letter", "_identifier", "_mix", "_lookup", "_bits_at"}
_lock = threading.Lock()
_loaded = False
_loading: threading.Thread | None = None


def load() -> bool:
    """Import numba and compile every kernel function (or load them from numba's on-disk cache) by
    running them once on a tiny history; returns whether the kernel is ready. Idempotent."""
    global _loaded
    with _lock:
        if _loaded or not AVAILABLE:
            return _loaded
        from numba import njit

        from shared_core.lre.textarray import encode
        from shared_core.lre.vocab import VocabIndex

        module = globals()
        for name in _JIT:
            module[name] = njit(cache=True, inline="always" if name in _INLINE else "never")(module[name])
        a, wide = encode(["It\u2019s 2024: ORD-7 shipped!", "ok"])  # compiles the one signature there is
        unit_stats(a, wide if wide is not None else EMPTY_CODE_POINTS, 2, VocabIndex.build(["shipped"]), np.ones(1))
        _loaded = True
        return True


def _load_quietly() -> None:
    global AVAILABLE
    try:
        load()
    except Exception as exc:  # a platform numba cannot compile for: stay on numpy, say why once
        AVAILABLE = False
        warnings.warn(f"shared_core.lre.kernel: numba kernel unavailable, using numpy ({exc!r})", RuntimeWarning,
                      stacklevel=1)


def ready(n: int) -> bool:
    """Whether a cold history of ``n`` units goes through the kernel now. The first history of
    :data:`MIN_UNITS` units starts loading it in a background thread (importing numba takes ~0.7 s, the
    first compile after an install ~15 s); until it is ready, histories take the numpy path."""
    global _loading
    if _loaded or not AVAILABLE:
        return _loaded
    if n >= MIN_UNITS and _loading is None:
        with _lock:
            if _loading is None:
                _loading = threading.Thread(target=_load_quietly, name="tarl-lre-kernel", daemon=True)
                _loading.start()
    return False


def unit_stats(a: np.ndarray, cps: np.ndarray, n: int, index: Any, idf: np.ndarray | None) -> tuple[np.ndarray, ...]:
    """(counts by :data:`COUNTS`, prefix statistics by :data:`PAIRS`, TF-IDF rows, columns, values) of
    the ``n`` units in ``a`` (characters as textarray.encode gives them; ``cps``: their code points when
    the text is not ASCII, else empty). Call :func:`ready` first."""
    has_idf = idf is not None and index.size > 0
    logs = np.log(np.maximum(np.arange(n + 2, dtype=np.float64), 1.0))  # logs[k] = log(k) (k >= 1)
    wide = np.flatnonzero(a == 128) if cps.shape[0] else _NONE
    return _stats(a, cps, wide, n, index.hashes, index.cols, index.flags, index.used, index.probes,
                  idf if has_idf else np.zeros(1), has_idf, powers(a.shape[0] + 1)[0], logs)


_NONE = np.zeros(0, np.int64)
EMPTY_CODE_POINTS = np.zeros(0, np.uint32)
EMPTY_CODE_POINTS.flags.writeable = False  # the same array type as encode's code points (one signature)
