"""A refit from own logs: the user's vocabulary joins the shipped one, and a penalised correction."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.lre import Scorer
from shared_core.lre.features import FEATURE_NAMES
from shared_core.lre.refit import fit_correction, own_vocabulary
from shared_core.lre.units import LREInputError

WORDS = "pottery kayak violin sunflower marathon origami glacier lantern compass harbor".split()


def _chat(seed: int, n: int = 60) -> tuple[list[str], np.ndarray]:
    """A chat where a turn mentioning 'zebra' is load-bearing and small talk is not."""
    r = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        if r.random() < 0.3:
            texts.append(f"I saw a zebra near the {r.choice(WORDS)} yesterday with my {r.choice(WORDS)}")
            labels.append(True)
        else:
            texts.append(f"Nice, the {r.choice(WORDS)} sounds fun! How are you?")
            labels.append(False)
    return texts, np.array(labels)


def test_own_vocabulary_appends_the_users_words_with_weight_zero() -> None:
    base = Scorer.default()
    chats = [_chat(s) for s in range(3)]
    adapted = own_vocabulary(base, [(t, None) for t, _ in chats], size=5, min_df=3)
    assert adapted.vocab_list[: len(base.vocab_list)] == base.vocab_list
    new = adapted.vocab_list[len(base.vocab_list):]
    assert 0 < len(new) <= 5 and not set(new) & set(base.vocab_list)
    assert np.allclose(adapted.tfidf_coef[len(base.vocab_list):], 0)
    assert np.allclose(adapted.coef, base.coef) and adapted.intercept == pytest.approx(base.intercept)
    # the user's everyday words are no longer "rare" for this scorer
    rare = FEATURE_NAMES.index("rare")
    texts = chats[0][0]
    assert adapted.features(texts).dense[:, rare].sum() < base.features(texts).dense[:, rare].sum()


def test_correction_learns_a_word_of_the_users_vocabulary() -> None:
    base = Scorer.default()
    chats = [_chat(s) for s in range(4)]
    hist = [(t, None) for t, _ in chats]
    refit = fit_correction(base, hist, [y for _, y in chats], l2=1e9, l2_tfidf=1.0)
    assert "zebra" in refit.vocab and refit.tfidf_coef[refit.vocab["zebra"]] > 0.5
    assert np.allclose(refit.coef, base.coef, atol=1e-4)          # the dense weights held by the prior
    texts, y = _chat(99)
    z = refit.score_texts(texts)
    assert z[y].min() > z[~y].max()
    kept = fit_correction(base, hist, [y for _, y in chats], vocabulary=0)
    assert kept.vocab_list == base.vocab_list


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 1000))
def test_the_refit_is_an_ordinary_scorer_that_round_trips(seed: int) -> None:
    chats = [_chat(seed + s, 30) for s in range(2)]
    refit = fit_correction(Scorer.default(), [(t, None) for t, _ in chats], [y for _, y in chats])
    again = Scorer.from_dict(refit.to_dict(digits=8))
    texts = chats[0][0]
    assert np.allclose(again.score_texts(texts), refit.score_texts(texts), atol=1e-6)
    assert refit.meta["adapted"]["labels"] == "self-supervised from own logs"


def test_bad_labels_name_what_is_wrong() -> None:
    texts, y = _chat(0)
    with pytest.raises(LREInputError, match="labels length"):
        fit_correction(Scorer.default(), [(texts, None)], [y[:-1]])
    with pytest.raises(LREInputError, match="one array per history"):
        fit_correction(Scorer.default(), [(texts, None)], [y, y])
    with pytest.raises(LREInputError, match="both classes"):
        fit_correction(Scorer.default(), [(texts, None)], [np.zeros(len(texts), bool)])
