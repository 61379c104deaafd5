"""The hand-written corpus's dev/test split is frozen: drawn once by episode, with a hash of the corpus,
and refused when the corpus changed after it was frozen."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from shared_core.bench.corpus import HERE, raw_episodes
from shared_core.bench.corpus import split as corpus_split


def test_shipped_split_matches_the_corpus_and_covers_it_once() -> None:
    parts = corpus_split.load()
    dev, test = {r.id for r in parts["dev"]}, {r.id for r in parts["test"]}
    assert not dev & test and dev | test == {r.id for r in raw_episodes()}
    assert 0.5 <= len(dev) / len(dev | test) <= 0.7


def test_a_stale_split_is_refused_and_sides_do_not_move(tmp_path: Path) -> None:
    for f in HERE.glob("*.jsonl"):
        shutil.copy(f, tmp_path / f.name)
    before = corpus_split.freeze(tmp_path)
    with pytest.raises(FileExistsError):
        corpus_split.freeze(tmp_path)
    first = next(iter(sorted(tmp_path.glob("*.jsonl"))))
    lines = first.read_text().splitlines()
    first.write_text("\n".join(lines[:-1]) + "\n")           # the corpus changes after the split was frozen
    with pytest.raises(ValueError, match="stale"):
        corpus_split.load(tmp_path)
    after = corpus_split.freeze(tmp_path, overwrite=True)
    assert set(after["dev"]) <= set(before["dev"]) and set(after["test"]) <= set(before["test"])
