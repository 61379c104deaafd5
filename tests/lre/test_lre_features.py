"""Features are causal, vectorised tokenisation agrees with itself, and identifiers are recognised."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import FEATURE_NAMES, Scorer, compute_features
from shared_core.lre.textarray import from_texts, hash_words, word_strings

from lre_strategies import texts

FI = {name: i for i, name in enumerate(FEATURE_NAMES)}


@settings(max_examples=60, deadline=None)
@given(st.lists(texts, min_size=1, max_size=20), st.lists(texts, min_size=1, max_size=10))
def test_appending_units_never_changes_earlier_features(prefix: list[str], suffix: list[str]) -> None:
    scorer = Scorer.default()
    before = scorer.features(prefix)
    after = scorer.features(prefix + suffix)
    np.testing.assert_allclose(after.dense[: len(prefix)], before.dense, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(scorer.score_texts(prefix + suffix)[: len(prefix)], scorer.score_texts(prefix))


@settings(max_examples=60, deadline=None)
@given(texts)
def test_word_hashes_match_word_strings(text: str) -> None:
    words = word_strings(text)
    ta = from_texts([text])
    assert len(words) == len(ta.hashes)
    if words:
        np.testing.assert_array_equal(hash_words(words), ta.hashes)


def test_feature_values_on_a_known_history() -> None:
    fs = compute_features([
        "Hello there! How are you?",
        "I went to Paris with Anna yesterday. Order ORD-1234 at https://x.com/a/b in 2022",
        "",
        "Paris was great, thanks!",
    ])
    d = fs.dense
    assert d.shape == (4, len(FEATURE_NAMES))
    assert d[0, FI["question"]] == 1 and d[1, FI["prev_question"]] == 1
    assert round(np.expm1(d[1, FI["caps"]])) == 2  # Paris, Anna (not the sentence-initial "Order")
    assert round(np.expm1(d[1, FI["identifiers"]])) == 2  # ORD-1234 and the URL
    assert round(np.expm1(d[1, FI["temporal"]])) == 2  # yesterday, 2022
    assert d[2].sum() == d[2, FI["position"]]  # an empty unit has only its position
    assert d[3, FI["topic_recency"]] > 0 and d[3, FI["novelty"]] < 1  # "paris" was seen before


def test_empty_history_and_separator_in_text() -> None:
    assert compute_features([]).dense.shape == (0, len(FEATURE_NAMES))
    fs = compute_features(["a\x01b", "c"])
    assert fs.n == 2


def test_tool_call_kind_is_a_feature() -> None:
    fs = compute_features(["x", "y"], ["turn", "tool_call"])
    assert list(fs.dense[:, FI["is_tool_call"]]) == [0.0, 1.0]


@settings(max_examples=40, deadline=None)
@given(st.lists(texts, min_size=1, max_size=30), st.lists(st.integers(0, 30), max_size=4))
def test_incremental_features_equal_batch(history: list[str], cuts: list[int]) -> None:
    scorer = Scorer.default()
    full = scorer.features(history)
    bounds = sorted({min(c, len(history)) for c in cuts} | {0, len(history)})
    state, parts, logits = None, [], []
    for a, b in zip(bounds, bounds[1:]):
        fs = scorer.features(history[a:b], state=state) if state is not None else scorer.features(history[a:b])
        parts.append(fs.dense)
        logits.append(scorer.logits(fs))
        state = fs.state
    np.testing.assert_allclose(np.vstack(parts), full.dense, atol=1e-12)
    np.testing.assert_allclose(np.concatenate(logits), scorer.logits(full), atol=1e-9)


def test_conversation_relative_features() -> None:
    """Salience is TF-IDF against this conversation's earlier units: a repeated turn scores lower than
    one with new words; plan and preference words are counted."""
    from shared_core.lre import FEATURE_NAMES, compute_features

    texts = ["We talked about the garden again.", "We talked about the garden again.",
             "I'm planning a trip to Kyoto next spring, I love temples.", "We talked about the garden again."]
    d = compute_features(texts).dense
    sal, plans, prefs = (FEATURE_NAMES.index(n) for n in ("salience", "plans", "preferences"))
    assert d[2, sal] > d[1, sal] and d[3, sal] < d[0, sal]
    assert d[2, plans] > 0 and d[2, prefs] > 0 and d[0, plans] == d[0, prefs] == 0
