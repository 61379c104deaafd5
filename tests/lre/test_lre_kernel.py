"""The compiled cold path computes what the numpy featuriser computes: same dense features, same TF-IDF
entries, same scores, on random histories mixing words, identifiers, punctuation, non-ASCII letters,
typographic apostrophes, separators and empty units; and the core runs without it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import Scorer, kernel, units_from_messages
from shared_core.lre.features import EMPTY_STATE, VocabIndex, compute_features
from shared_core.lre.synthetic import agent_trace, chat

from lre_strategies import messy_histories, tfidf_matrix

needs_kernel = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba not installed (tarl-memory[fast])")


@pytest.fixture(autouse=True, scope="module")
def _loaded_kernel() -> None:
    """Small histories use the kernel once it is loaded (a big one loads it): load it up front."""
    if kernel.AVAILABLE:
        assert kernel.load() and kernel.ready(1)

histories = messy_histories




def _both(scorer: Scorer, history: list[str], kinds: list[str] | None = None):
    compiled = scorer.features(history, kinds, keep_state=False)  # the cold one-off path
    numpy = scorer.features(history, kinds, keep_state=True)      # the numpy path (keeps a state)
    return compiled, numpy


def _assert_same(scorer: Scorer, history: list[str], kinds: list[str] | None = None) -> None:
    compiled, numpy = _both(scorer, history, kinds)
    n, v = len(history), len(scorer.vocab_list)
    np.testing.assert_allclose(compiled.dense, numpy.dense, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tfidf_matrix(compiled, n, v), tfidf_matrix(numpy, n, v), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(scorer.logits(compiled), scorer.logits(numpy), rtol=1e-12, atol=1e-9)


@needs_kernel
@settings(max_examples=200, deadline=None)
@given(histories, st.lists(st.sampled_from(["turn", "tool_call", "system"]), min_size=25, max_size=25))
def test_compiled_features_equal_the_numpy_path(history: list[str], kinds: list[str]) -> None:
    _assert_same(Scorer.default(), history, kinds[: len(history)])


@needs_kernel
@settings(max_examples=40, deadline=None)
@given(histories)
def test_compiled_features_equal_without_a_vocabulary(history: list[str]) -> None:
    fast = compute_features(history, keep_state=False)
    slow = compute_features(history, keep_state=True)
    np.testing.assert_allclose(fast.dense, slow.dense, rtol=1e-12, atol=1e-12)
    assert len(fast.tfidf_vals) == len(slow.tfidf_vals) == 0


@needs_kernel
def test_compiled_scores_of_generated_histories_and_a_long_one() -> None:
    """End to end on the generators' chats and agent traces, and on 3,000 units of 3,000 words."""
    scorer = Scorer.default()
    for msgs in (chat(random.Random(5), 400), agent_trace(random.Random(6), 60).messages):
        units = units_from_messages(msgs)
        _assert_same(scorer, [u.text for u in units], [u.kind for u in units])
    r = random.Random(7)
    _assert_same(scorer, [" ".join(f"w{r.randrange(3_000)}x" for _ in range(r.randrange(10, 40))) for _ in range(3_000)])


def test_the_cold_path_without_the_kernel_is_the_numpy_path() -> None:
    """TARL_LRE_KERNEL=0 (or numba absent): the core scores with numpy alone, same numbers."""
    code = ("from shared_core.lre import Scorer, kernel; assert not kernel.AVAILABLE; "
            "import numpy as np; s = Scorer.default(); h = ['Order ORD-1 shipped to Paris yesterday', 'thanks!'];"
            "import json; print(json.dumps(s.score_texts(h).tolist()))")
    env = {**os.environ, "TARL_LRE_KERNEL": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    scores = json.loads(out)
    want = Scorer.default().logits(Scorer.default().features(['Order ORD-1 shipped to Paris yesterday', 'thanks!']))
    np.testing.assert_allclose(scores, 1 / (1 + np.exp(-want)), rtol=1e-12)


def test_vocab_index_is_what_the_kernel_reads() -> None:
    """The kernel reads VocabIndex's table arrays directly: their layout is part of the contract."""
    index = VocabIndex.build(["order", "paris"])
    assert index.hashes.dtype == np.uint64 and index.used.dtype == bool
    assert len(index.hashes) & (len(index.hashes) - 1) == 0 and index.probes >= 1
    assert compute_features(["order to paris"], vocab=index, idf=np.ones(2), state=EMPTY_STATE,
                            keep_state=False).n == 1


@needs_kernel
def test_a_big_cold_history_loads_the_kernel_in_the_background() -> None:
    """Small histories never import numba; the first big one starts loading it and is served by numpy
    meanwhile; once loaded, every cold history uses it."""
    code = ("import sys; from shared_core.lre import Scorer, kernel; s = Scorer.default(); "
            "s.score_texts(['hi there'] * 10); small = 'numba' in sys.modules; "
            "first = kernel.ready(kernel.MIN_UNITS); kernel._loading.join(); "
            "print(small, first, kernel.ready(1))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "True"]
