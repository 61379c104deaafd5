"""The fast featuriser computes what the reference one (the implementation before the cold-trim speed
work, kept in ``reference_features.py``) computed: same dense features, same TF-IDF entries, same
scores, batch and incremental, on random histories that mix words, identifiers, punctuation,
non-ASCII letters, typographic apostrophes, separators and empty units."""

from __future__ import annotations

import random

import numpy as np
import reference_features as ref
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import Scorer, units_from_messages
from shared_core.lre.features import VocabIndex
from shared_core.lre.synthetic import agent_trace, chat

from lre_strategies import messy_histories, tfidf_matrix

histories = messy_histories




def _assert_same(fast, slow, n: int, v: int) -> None:
    np.testing.assert_allclose(fast.dense, slow.dense, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tfidf_matrix(fast, n, v), tfidf_matrix(slow, n, v), rtol=1e-12, atol=1e-12)


@settings(max_examples=150, deadline=None)
@given(histories, st.lists(st.sampled_from(["turn", "tool_call", "system"]), min_size=25, max_size=25))
def test_fast_features_equal_the_reference(history: list[str], kinds: list[str]) -> None:
    scorer = Scorer.default()
    kinds = kinds[: len(history)]
    fast = scorer.features(history, kinds)
    slow = ref.compute_features(history, kinds, vocab=ref.VocabIndex.build(scorer.vocab_list), idf=scorer.idf)
    _assert_same(fast, slow, len(history), len(scorer.vocab_list))
    np.testing.assert_allclose(scorer.logits(fast), scorer.logits(slow), rtol=1e-12, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(histories, st.lists(st.integers(0, 25), max_size=4))
def test_fast_incremental_features_equal_the_reference(history: list[str], cuts: list[int]) -> None:
    scorer = Scorer.default()
    vocab = ref.VocabIndex.build(scorer.vocab_list)
    bounds = sorted({min(c, len(history)) for c in cuts} | {0, len(history)})
    state, ref_state = None, ref.EMPTY_STATE
    for a, b in zip(bounds, bounds[1:]):
        fast = scorer.features(history[a:b], state=state) if state is not None else scorer.features(history[a:b])
        slow = ref.compute_features(history[a:b], vocab=vocab, idf=scorer.idf, state=ref_state)
        _assert_same(fast, slow, b - a, len(scorer.vocab_list))
        state, ref_state = fast.state, slow.state


@settings(max_examples=60, deadline=None)
@given(st.lists(st.from_regex(r"[a-z0-9]{1,6}", fullmatch=True), min_size=1, max_size=300, unique=True),
       st.lists(st.integers(0, 2**64 - 1), max_size=50))
def test_vocabulary_lookup_equals_the_sorted_reference(vocab: list[str], noise: list[int]) -> None:
    """Open addressing finds exactly the vocabulary's and the word lists' entries, whatever collides."""
    fast, slow = VocabIndex.build(vocab), ref.VocabIndex.build(vocab)
    probe = np.concatenate([slow.hashes, np.array(noise, dtype=np.uint64)])
    for got, want in zip(fast.lookup(probe), slow.lookup(probe)):
        np.testing.assert_array_equal(got, want)


def test_scores_of_generated_histories_are_unchanged() -> None:
    """End to end on the generators' chats and agent traces (tool calls, ids, paths)."""
    scorer = Scorer.default()
    vocab = ref.VocabIndex.build(scorer.vocab_list)
    for msgs in (chat(random.Random(5), 400), agent_trace(random.Random(6), 60).messages):
        units = units_from_messages(msgs)
        texts, kinds = [u.text for u in units], [u.kind for u in units]
        slow = ref.compute_features(texts, kinds, vocab=vocab, idf=scorer.idf)
        z = scorer.logits(slow)
        np.testing.assert_allclose(scorer.score_units(units), 1 / (1 + np.exp(-np.clip(z, -50, 50))), rtol=1e-12)


def test_long_history_with_many_distinct_words_equals_the_reference() -> None:
    """Past 32k content words the per-call word table outgrows 16-bit slots and is renumbered; past
    65k distinct words the ids stay wide and the grouping falls back to a comparison sort."""
    scorer = Scorer.default()
    vocab = ref.VocabIndex.build(scorer.vocab_list)
    r = random.Random(7)
    fresh = iter(range(10**6))
    for word in (lambda: r.randrange(3_000), lambda: next(fresh)):  # 3,000 words repeated; all distinct
        history = [" ".join(f"w{word()}x" for _ in range(r.randrange(10, 40))) for _ in range(3_000)]
        _assert_same(scorer.features(history), ref.compute_features(history, vocab=vocab, idf=scorer.idf),
                     len(history), len(scorer.vocab_list))
