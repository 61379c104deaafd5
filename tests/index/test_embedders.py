"""The offline default embedder, the callable wrapper for user models, and query-side IDF."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.index.embedders import (
    CallableEmbedder,
    Embedder,
    HashingEmbedder,
    QueryIDF,
    default_embedder,
)

REPO = Path(__file__).resolve().parents[2]
TEXTS = [
    "I adopted a puppy from the shelter last week!",
    "Caroline went to the LGBTQ support group yesterday.",
    "",
    "   ",
    "?!...",
    "How are you?",  # stop words only
    "Ça va? Très bien, merci — 東京に行きました",
    "word " * 2000,
]


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b)


@pytest.fixture(scope="module")
def embed() -> HashingEmbedder:
    return HashingEmbedder()


def test_default_embedder_follows_the_protocol() -> None:
    e = default_embedder()
    assert isinstance(e, Embedder)
    assert isinstance(e.name, str) and e.name
    assert e(["hello"]).shape == (1, e.dim)


def test_rows_are_float32_unit_vectors_for_every_kind_of_text(embed: HashingEmbedder) -> None:
    vectors = embed(TEXTS)
    assert vectors.shape == (len(TEXTS), embed.dim)
    assert vectors.dtype == np.float32
    assert np.isfinite(vectors).all()
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_empty_batch_and_empty_text(embed: HashingEmbedder) -> None:
    assert embed([]).shape == (0, embed.dim)
    empty = embed(["", "  ", "\n"])
    assert np.isfinite(empty).all()
    assert np.array_equal(empty[0], empty[1]) and np.array_equal(empty[0], empty[2])


def test_features_that_cancel_out_fall_back_to_the_empty_text_vector() -> None:
    bare = HashingEmbedder(dim=16, char_weight=0, char_dims=0, stem=False, length_weight=False)
    words = [f"w{i}" for i in range(200)]
    vectors = bare(words)
    a, b = next((a, b) for i, a in enumerate(words) for b in words[i + 1 :]
                if np.allclose(vectors[words.index(a)], -vectors[words.index(b)]))
    assert np.array_equal(bare([f"{a} {b}"]), bare([""]))


def test_a_single_string_is_rejected_rather_than_embedded_per_character(embed: HashingEmbedder) -> None:
    with pytest.raises(TypeError, match="sequence of texts"):
        embed("hello")  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=200), max_size=5))
def test_any_text_gives_a_finite_unit_row(texts: list[str]) -> None:
    vectors = HashingEmbedder(dim=256, char_dims=64)(texts)
    assert vectors.shape == (len(texts), 256)
    assert np.isfinite(vectors).all()
    if texts:
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-5)


def test_a_text_gets_the_same_vector_whatever_batch_it_is_in(embed: HashingEmbedder) -> None:
    together = embed(TEXTS)
    alone = np.vstack([HashingEmbedder()([t]) for t in TEXTS])
    assert np.array_equal(together, alone)


def test_threads_sharing_one_embedder_get_the_same_vectors() -> None:
    texts = [f"memory number {i} about hiking trip {i % 7} and puppy {i % 3}" for i in range(400)]
    expected = HashingEmbedder()(texts)
    shared = HashingEmbedder()
    with ThreadPoolExecutor(max_workers=4) as pool:
        chunks = list(pool.map(shared, [texts[i : i + 10] for i in range(0, len(texts), 10)]))
    assert np.array_equal(np.vstack(chunks), expected)


def test_vectors_are_identical_in_another_process_with_another_hash_seed(embed: HashingEmbedder) -> None:
    code = (
        "import sys, numpy as np\n"
        "from shared_core.index.embedders import default_embedder\n"
        f"texts = {TEXTS!r}\n"
        "sys.stdout.write(default_embedder()(texts).tobytes().hex())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    other = np.frombuffer(bytes.fromhex(out), dtype=np.float32).reshape(len(TEXTS), -1)
    assert np.array_equal(other, default_embedder()(TEXTS))


def test_default_vectors_are_pinned(embed: HashingEmbedder) -> None:
    """Stored vectors live as long as the store: any change here needs a new name (v1 -> v2)."""
    vectors = default_embedder()(["Caroline went to the LGBTQ support group yesterday.", "", "Ça va? 東京"])
    digest = hashlib.blake2b(np.round(vectors, 4).astype(np.float32).tobytes(), digest_size=8).hexdigest()
    assert (default_embedder().name, digest) == ("tarl-hashing-v1", "048cb4897f8a1b97")


def test_paraphrase_is_closer_than_unrelated_text(embed: HashingEmbedder) -> None:
    query, paraphrase, unrelated = embed(
        [
            "I adopted a puppy from the animal shelter last week",
            "Last week we adopted a little puppy at the shelter",
            "The quarterly tax report is due on Friday",
        ]
    )
    assert cos(query, paraphrase) > cos(query, unrelated) + 0.2


def test_inflections_and_typos_still_match(embed: HashingEmbedder) -> None:
    query, inflected, typo, unrelated = embed(["She paints sunsets", "painting a sunset", "she paintd sunsts", "bought groceries"])
    assert cos(query, inflected) > cos(query, unrelated)
    assert cos(query, typo) > cos(query, unrelated) + 0.1  # only the character n-grams can see this


def test_config_round_trip_rebuilds_the_same_vector_space(embed: HashingEmbedder) -> None:
    rebuilt = HashingEmbedder(**json.loads(json.dumps(embed.config())))
    assert rebuilt.name == embed.name == HashingEmbedder.name
    assert np.array_equal(rebuilt(TEXTS), embed(TEXTS))
    other = HashingEmbedder(stem=False)
    assert other.name != embed.name  # another vector space, another name
    assert HashingEmbedder(**other.config()).name == other.name


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [({"dim": 4, "char_dims": 0}, "char_dims"), ({"char_dims": 4096}, "char_dims"), ({"char_ngrams": (5, 3)}, "char_ngrams")],
)
def test_bad_configuration_names_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        HashingEmbedder(**kwargs)


# -- CallableEmbedder ---------------------------------------------------------------------------


def test_callable_embedder_normalises_rows_and_learns_dim_lazily() -> None:
    calls: list[list[str]] = []

    def model(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return [[3.0, 4.0, 0.0] for _ in texts]

    e = CallableEmbedder(model, name="toy")
    assert calls == []  # nothing runs at construction
    assert e.dim == 3 and len(calls) == 1  # probed once
    vectors = e(["a", "b"])
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(vectors, [[0.6, 0.8, 0.0]] * 2, rtol=1e-6)
    assert isinstance(e, Embedder) and e.name == "toy"
    assert re.fullmatch(r"[A-Za-z0-9._-]+", CallableEmbedder(lambda texts: texts).name)  # usable in Chroma names
    assert CallableEmbedder(model, name="sentence-transformers/all-MiniLM-L6-v2").name == "sentence-transformers-all-MiniLM-L6-v2"
    assert e([]).shape == (0, 3)


@pytest.mark.parametrize(
    ("output", "message"),
    [
        (lambda texts: [1.0, 2.0], r"shape \(n_texts, dim\)"),
        (lambda texts: [[1.0, 2.0]] * (len(texts) + 1), r"shape \(n_texts, dim\)"),
        (lambda texts: [[float("nan"), 1.0]] * len(texts), "NaN"),
        (lambda texts: [[0.0, 0.0]] * len(texts), "zero"),
        (lambda texts: [["a", "b"]] * len(texts), "not a numeric array"),
    ],
)
def test_callable_embedder_rejects_bad_model_output(output, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CallableEmbedder(output, name="bad")(["x", "y"])


def test_callable_embedder_rejects_a_change_of_width() -> None:
    width = iter([2, 3])
    e = CallableEmbedder(lambda texts: np.ones((len(texts), next(width))), name="drifting")
    e(["x"])
    with pytest.raises(ValueError, match="expected 2"):
        e(["x"])


def test_callable_embedder_lets_the_model_s_own_errors_through() -> None:
    def broken(texts: list[str]) -> np.ndarray:
        raise RuntimeError("CUDA out of memory")

    with pytest.raises(RuntimeError, match="CUDA"):
        CallableEmbedder(broken, name="broken")(["x"])


def test_callable_embedder_needs_a_callable() -> None:
    with pytest.raises(TypeError, match="callable"):
        CallableEmbedder("not a model")  # type: ignore[arg-type]


# -- QueryIDF -----------------------------------------------------------------------------------


def test_query_idf_prefers_the_rare_word_of_the_query(embed: HashingEmbedder) -> None:
    docs = ["Caroline talked about work"] * 5 + ["Caroline talked about her dog"] + ["Caroline talked about painting"] * 5
    doc_vectors = embed(docs)
    idf = QueryIDF(embed.dim)
    idf.add(doc_vectors)
    query = idf.weigh(embed(["Caroline dog"]))
    assert int(np.argmax(doc_vectors @ query[0])) == 5
    np.testing.assert_allclose(np.linalg.norm(query, axis=1), 1.0, rtol=1e-5)


def test_query_idf_add_then_remove_restores_counts(embed: HashingEmbedder) -> None:
    idf = QueryIDF(embed.dim)
    first, second = embed(["a walk in the park"]), embed(["my sister's wedding"])
    idf.add(first)
    before = idf.doc_freq.copy()
    idf.add(second)
    idf.remove(second)
    assert idf.n_docs == 1 and np.array_equal(idf.doc_freq, before)
    assert np.array_equal(QueryIDF.from_vectors(first).doc_freq, before)
    with pytest.raises(ValueError, match="never added"):
        idf.remove(second)
    with pytest.raises(ValueError, match="shape"):
        idf.add(np.ones((1, 3)))


def test_query_idf_is_a_no_op_for_dense_embeddings() -> None:
    rng = np.random.default_rng(0)
    docs, queries = rng.standard_normal((20, 8)), rng.standard_normal((3, 8))
    idf = QueryIDF(8)
    idf.add(docs)
    np.testing.assert_allclose(idf.weigh(queries), queries / np.linalg.norm(queries, axis=1, keepdims=True), rtol=1e-5)
