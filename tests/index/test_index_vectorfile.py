"""The vector file beside an embedded ledger: a cache of immutable vectors, never a source of truth."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.engine import MemoryEngine
from shared_core.executor import Step
from shared_core.index.vectorfile import VectorFile
from shared_core.schema import Action, Claim


def _rows(rng: np.random.Generator, n: int, dim: int) -> np.ndarray:
    rows = rng.normal(size=(n, dim)).astype(np.float32) * (rng.random((n, dim)) < 0.2)
    return rows


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(1, 40), min_size=1, max_size=5), st.integers(0, 10**6))
def test_a_torn_last_frame_loses_only_that_frame(tmp_path_factory, seed, sizes, cut):
    rng = np.random.default_rng(seed)
    file = VectorFile(tmp_path_factory.mktemp("vf") / "v.tvf", 16)
    written: dict[str, np.ndarray] = {}
    for f, n in enumerate(sizes):
        rows = _rows(rng, n, 16)
        ids = [f"e{f}-{i}" for i in range(n)]
        file.append("u" if f % 2 == 0 else "other", ids, rows)
        written.update(zip(ids, rows))
    before = file.path.stat().st_size if file.path.exists() else 0
    file.append("u", ["torn"], _rows(rng, 1, 16))
    with open(file.path, "r+b") as f:                      # a writer killed mid-append: the last frame is torn
        f.truncate(before + cut % (file.path.stat().st_size - before))
    ids, rows = VectorFile(file.path, 16).read("u")
    assert ids == [i for f, n in enumerate(sizes) if f % 2 == 0 for i in (f"e{f}-{k}" for k in range(n))]
    for i, row in zip(ids, rows.toarray()):
        np.testing.assert_array_equal(row, written[i])
    again = VectorFile(file.path, 16)                      # the next writer cuts the torn frame first
    again.append("u", ["late"], written["e0-0"][None])
    assert VectorFile(file.path, 16).read("u")[0] == [*ids, "late"]


def test_search_is_the_same_with_or_without_the_file(tmp_path):
    claims = [Claim(text=f"{p} visited city number {i}", namespace="u") for i, p in enumerate(["Ana", "Ben"] * 150)]
    with MemoryEngine.open(tmp_path) as eng:
        eng.apply("u", [Step(Action.APPEND, c) for c in claims])
        eng.write(Claim(text="Ana likes green tea", namespace="u"))
    (file,) = (tmp_path / "vectors").iterdir()
    queries = ["Ana city 17", "green tea", "Ben visited city number 200"]
    with MemoryEngine.open(tmp_path) as eng:
        with_file = [[(h.entry.id, round(h.score, 5)) for h in eng.search(q, "u")] for q in queries]
    file.unlink()                                          # lost: vectors come from Chroma, and are filed again
    with MemoryEngine.open(tmp_path) as eng:
        assert [[(h.entry.id, round(h.score, 5)) for h in eng.search(q, "u")] for q in queries] == with_file
    assert VectorFile(file, eng.index.embedder.dim).read("u")[0]


def test_a_rebuilt_index_starts_a_fresh_file(tmp_path):
    with MemoryEngine.open(tmp_path) as eng:
        eng.write(Claim(text="Ana likes chess", namespace="u"))
    with MemoryEngine.open(tmp_path, reindex=True) as eng:
        eng.flush()
        (file,) = (tmp_path / "vectors").iterdir()
        ids, _ = VectorFile(file, eng.index.embedder.dim).read("u")
        assert ids == [e.id for e in eng.accepted("u")]
