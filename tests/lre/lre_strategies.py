"""Hypothesis strategies shared by the LRE tests: neutral-format chat histories with tool calls."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

WORDS = ["order", "ORD-4821", "token", "Paris", "yesterday", "the", "error", "/srv/a/b.txt", "I", "my", "dog",
         "Max", "2022", "thanks!", "what?", "deploy", "abc_def", "x9F3kQ2mZ7pL0sYt", "café", "it’s", "{a: 1};"]

texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=25).map(" ".join)


@st.composite
def histories(draw: Any, with_system: bool | None = None) -> list[dict[str, Any]]:
    msgs: list[dict[str, Any]] = []
    if with_system if with_system is not None else draw(st.booleans()):
        msgs.append({"role": "system", "content": draw(texts)})
    n = draw(st.integers(0, 30))
    call = 0
    for _ in range(n):
        kind = draw(st.sampled_from(["user", "assistant", "tool_call"]))
        pinned = draw(st.booleans()) and draw(st.booleans()) and draw(st.booleans())
        if kind == "tool_call":
            k = draw(st.integers(1, 2))
            ids = [f"call_{call + j}" for j in range(k)]
            call += k
            msgs.append({"role": "assistant", "content": draw(texts),
                         "tool_calls": [{"id": i, "name": "lookup", "args": {"q": draw(texts)}} for i in ids]})
            msgs += [{"role": "tool", "content": draw(texts), "tool_call_id": i} for i in ids]
        else:
            m: dict[str, Any] = {"role": kind, "content": draw(texts)}
            if pinned:
                m["pinned"] = True
            msgs.append(m)
    return msgs


ALPHABET = "aAbBzZeEdD019 _-#/@.:;,!?'\"(){}[]=>`\n\t\r\x01é’\u2003\u2013😀ÀßЖ×"
"""Characters the featuriser treats specially: cases, digits, connectors, identifier and code marks,
sentence ends, whitespace, the unit separator, non-ASCII letters and punctuation, the typographic
apostrophe, an astral character."""

_pieces = st.one_of(st.sampled_from(WORDS), st.text(alphabet=ALPHABET, max_size=14),
                    st.sampled_from(["https://a.io/x/y", "a@b.co", "fooBarBaz", "snake_case_42", "1999", "walked",
                                     "ORD-77", "Hello. World", "x == y => z -> w", "I'm", "it’s", "2024", "WALKED",
                                     "pre-ED", "A.B", "x\x01y"]))
messy_texts = st.lists(_pieces, max_size=20).map(" ".join)
messy_histories = st.lists(messy_texts, min_size=1, max_size=25)
"""Histories of unit texts that mix words, identifiers, punctuation and non-ASCII characters."""


def tfidf_matrix(fs: Any, n: int, v: int) -> np.ndarray:
    """The sparse TF-IDF entries of a FeatureSet as a dense (units x vocabulary) matrix."""
    m = np.zeros((n, max(v, 1)))
    np.add.at(m, (fs.tfidf_rows, fs.tfidf_cols), fs.tfidf_vals)
    return m
