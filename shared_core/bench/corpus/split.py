"""The frozen dev/test split of the hand-written corpus.

Why frozen: every decision change is fitted and chosen on dev and reported on test; a split drawn again
after the corpus grew would leak test episodes into choices. The split is drawn once, by episode: an
episode is dev when a stable hash of its id falls in the lowest 60% (so an episode's side never depends
on which other episodes exist), and written to ``split.json`` with a hash of the corpus files; the
loader refuses a split whose hash does not match the corpus it is asked to split.

``python -m shared_core.bench.corpus.split [FOLDER]`` freezes it (refuses to overwrite an existing one
unless ``--refreeze``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from . import HERE, RawEpisode, raw_episodes

DEV_SHARE = 0.6
FILE = "split.json"


def corpus_hash(folder: Path = HERE) -> str:
    """sha256 over the corpus files (name and bytes), in name order."""
    h = hashlib.sha256()
    for file in sorted(folder.glob("*.jsonl")):
        h.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return h.hexdigest()


def is_dev(episode_id: str, seed: int = 0) -> bool:
    return int(hashlib.sha1(f"{seed}:{episode_id}".encode()).hexdigest()[:8], 16) % 1000 < DEV_SHARE * 1000


def draw(raws: list[RawEpisode], seed: int = 0) -> dict[str, list[str]]:
    """Each episode to dev or test by ``is_dev`` (a stable hash of its id; no RNG state)."""
    return {"dev": sorted(r.id for r in raws if is_dev(r.id, seed)),
            "test": sorted(r.id for r in raws if not is_dev(r.id, seed))}


def freeze(folder: Path = HERE, seed: int = 0, overwrite: bool = False) -> dict:
    path = folder / FILE
    if path.exists() and not overwrite:
        raise FileExistsError(f"{path} exists: the split is drawn once (use --refreeze only for a new corpus version)")
    record = {"corpus_sha256": corpus_hash(folder), "seed": seed, "dev_share": DEV_SHARE, **draw(raw_episodes(folder), seed)}
    path.write_text(json.dumps(record, indent=1) + "\n")
    return record


def load(folder: Path = HERE) -> dict[str, list[RawEpisode]]:
    """``{"dev": [...], "test": [...]}`` episodes of the frozen split; ValueError if it is stale."""
    path = folder / FILE
    if not path.exists():
        raise FileNotFoundError(f"{path}: no frozen split; run python -m shared_core.bench.corpus.split once")
    record = json.loads(path.read_text())
    actual = corpus_hash(folder)
    if record["corpus_sha256"] != actual:
        raise ValueError(f"{path}: corpus_sha256={record['corpus_sha256'][:12]}... but the corpus is {actual[:12]}...: "
                         "the split is stale (the corpus changed after it was frozen)")
    raws = {r.id: r for r in raw_episodes(folder)}
    return {part: [raws[i] for i in record[part]] for part in ("dev", "test")}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m shared_core.bench.corpus.split", description=__doc__)
    p.add_argument("folder", nargs="?", type=Path, default=HERE)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--refreeze", action="store_true")
    args = p.parse_args(argv)
    record = freeze(args.folder, args.seed, args.refreeze)
    print(f"froze {len(record['dev'])} dev / {len(record['test'])} test episodes; corpus sha256 {record['corpus_sha256']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
