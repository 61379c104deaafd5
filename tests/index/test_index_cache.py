"""The vector cache ranks exactly like brute-force cosine, for sparse (hashing) and dense embedders."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.index.cache import VectorCache, _backwards, _columns_dot, _Rows
from shared_core.schema import Entry, Ledger


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans(), st.lists(st.integers(1, 300), min_size=1, max_size=6))
def test_rows_dot_matches_dense(seed, sparse, batches):
    rng = np.random.default_rng(seed)
    dim = 64
    rows, reference = _Rows(dim), []
    for n in batches:
        block = rng.normal(size=(n, dim)).astype(np.float32)
        if sparse:
            block *= rng.random((n, dim)) < 0.03
        rows.append(block)
        reference.append(block)
    dense = np.concatenate(reference)
    q = rng.normal(size=dim).astype(np.float32)
    np.testing.assert_allclose(rows.dot(q), dense @ q, rtol=1e-4, atol=1e-4)
    i = int(rng.integers(len(dense)))
    np.testing.assert_allclose(rows.get(i), dense[i], rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 600), st.floats(0.001, 0.5))
def test_columns_dot_is_scipys_product_bit_for_bit(seed, n, density):
    """The direct kernel call on the reversed columns scores exactly as ``cols[:, used] @ weights`` (decisions
    read these scores), as does the public path (another dtype), and no column used scores 0."""
    from scipy import sparse

    rng = np.random.default_rng(seed)
    cols = sparse.random(n, 96, density=density, format="csc", dtype=np.float32, random_state=rng)
    q = rng.normal(size=96).astype(np.float32) * (rng.random(96) < 0.3)
    used = np.flatnonzero(q)
    rows = cols.tocsr()
    kept = rows.indices.copy()
    backwards = _backwards(rows)     # (as compaction builds it: the reversing slice, made directly)
    assert np.array_equal(rows.indices, kept)      # the rows' own indices are put back
    assert all(np.array_equal(getattr(backwards, k), getattr(cols[:, ::-1], k)) for k in ("data", "indices", "indptr"))
    assert np.array_equal(_columns_dot(backwards, used, q[used]).view(np.uint32), (cols[:, used] @ q[used]).view(np.uint32))
    assert np.array_equal(_columns_dot(backwards, used, q[used].astype(np.float64)), cols[:, used] @ q[used].astype(np.float64))
    none = np.zeros(0, dtype=used.dtype)
    assert np.array_equal(_columns_dot(backwards, none, q[none]), np.zeros(n, dtype=np.float32))


def _entry(i: int, ledger: Ledger) -> Entry:
    return Entry(id=f"e{i}", text=f"t{i}", namespace="n", source="user", confidence=1.0,
                 observed_at="2026-01-01T00:00:00Z", ledger=ledger, created_tx=i + 1)


def test_cache_filters_ledgers_and_drops_closed_rows():
    rng = np.random.default_rng(0)
    vecs = rng.normal(size=(600, 32)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    ledgers = [Ledger.ACCEPTED if i % 3 else Ledger.PENDING for i in range(600)]
    cache = VectorCache(32, lambda ns: ([f"e{i}" for i in range(600)], vecs, ledgers))
    q = vecs[7]
    top = cache.query(q, "n", 5, (Ledger.ACCEPTED, Ledger.PENDING))
    assert top[0][0] == "e7" and abs(top[0][1] - 1.0) < 1e-5
    accepted_only = cache.query(q, "n", 600, (Ledger.ACCEPTED,))
    assert {i for i, _ in accepted_only} == {f"e{i}" for i in range(600) if i % 3}
    cache.update([_entry(7, Ledger.HISTORY)], {}, lambda texts: np.zeros((len(texts), 32)))
    assert "e7" not in {i for i, _ in cache.query(q, "n", 600, (Ledger.ACCEPTED, Ledger.PENDING))}
    expected = np.argsort(-(vecs @ q), kind="stable")
    ranked = [i for i, _ in cache.query(q, "n", 10, (Ledger.ACCEPTED, Ledger.PENDING))]
    assert ranked == [f"e{i}" for i in expected if i != 7][:10]
