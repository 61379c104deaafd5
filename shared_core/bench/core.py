"""``tarl bench core``: write and search latency of the engine on the embedded default.

Memory is pre-filled to 1k and 10k entries (bulk appends through ``engine.apply``), then timed writes
and searches run against it: once embedding each claim with the default embedder, once with
precomputed vectors (the path a caller with its own embeddings takes), which isolates grounding +
decision + ledger commit + index update from embedding time. The store lives on disk (SQLite WAL file +
embedded persistent Chroma) in a temporary folder, as a user's would.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..engine import MemoryEngine
from ..executor import Step
from ..schema import Action, Claim
from .report import Report, bench_args

PEOPLE = ["Ana", "Ben", "Chloe", "Dev", "Elif", "Farid", "Greta", "Hugo", "Ines", "Jonas", "Kira", "Luis"]
RELATIONS = [
    ("lives in", ["Lisbon", "Porto", "Berlin", "Oslo", "Madrid", "Rome", "Austin", "Kyoto"]),
    ("works at", ["Acme", "Nordlys", "Globex", "Initech", "Umbrella", "Hooli"]),
    ("likes", ["jazz", "green tea", "chess", "trail running", "sushi", "board games", "sci-fi novels"]),
    ("has order", [f"#A-{n}" for n in range(1000, 1100)]),
    ("drives a", ["red bike", "blue Volvo", "grey Tesla", "green scooter"]),
]
MULTI_VALUED = frozenset({"likes", "has order"})
"""Relations of ``RELATIONS`` that hold several values at once (a person likes jazz and chess, has many
orders): two Accepted entries in one such slot are memory working, not a broken invariant."""


def synthetic_claims(n: int, namespace: str, seed: int) -> list[Claim]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        person = rng.choice(PEOPLE)
        rel, values = rng.choice(RELATIONS)
        out.append(Claim(text=f"{person} {rel} {rng.choice(values)} (note {i}, ref {rng.randrange(10**6)})",
                         namespace=namespace, slot=f"{person}:{rel}" if rng.random() < 0.5 else None))
    return out


def _fill(engine: MemoryEngine, claims: list[Claim]) -> None:
    for i in range(0, len(claims), 500):
        engine.apply(claims[i].namespace, [Step(Action.APPEND, c) for c in claims[i:i + 500]])


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1000.0


def _spaced(engine: MemoryEngine, write: Callable[[], object]) -> float:
    """One timed write; the write-behind index catches up untimed, as between an agent's turns."""
    ms = _timed(write)
    engine.flush()
    return ms


def _measure(engine: MemoryEngine, probes: list[Claim], queries: list[str], ns: str) -> dict[str, float]:
    vectors = engine.index.embed([c.text for c in probes])
    third = len(probes) // 3
    embedded = [_spaced(engine, lambda c=c: engine.write(c)) for c in probes[:third]]
    precomputed = [_spaced(engine, lambda c=c, v=v: engine.write(c, vector=v))
                   for c, v in zip(probes[third:2 * third], vectors[third:2 * third])]
    t0 = time.perf_counter()
    for c in probes[2 * third:]:
        engine.write(c)
    engine.flush()
    sustained = (len(probes) - 2 * third) / (time.perf_counter() - t0)
    search = [_timed(lambda q=q: engine.search(q, ns, k=5)) for q in queries]
    embed_one = [_timed(lambda c=c: engine.index.embed([c.text])) for c in probes[:third]]
    return {
        "write_ms_p50": float(np.percentile(embedded, 50)),
        "write_ms_p95": float(np.percentile(embedded, 95)),
        "write_precomputed_ms_p50": float(np.percentile(precomputed, 50)),
        "write_precomputed_ms_p95": float(np.percentile(precomputed, 95)),
        "search_ms_p50": float(np.percentile(search, 50)),
        "embed_ms_p50": float(np.percentile(embed_one, 50)),
        "writes_per_s_sustained": sustained,
    }


def main(argv: list[str] | None = None) -> int:
    parser = bench_args("core", __doc__ or "")
    parser.add_argument("--probes", type=int, default=300, help="writes per size: a third embedded, a third precomputed, a third back-to-back")
    args = parser.parse_args(argv)
    sizes = (200, 1000) if args.quick else (1000, 10000)
    probes_n = 60 if args.quick else args.probes
    ns = "bench"
    report = Report("core", data=f"synthetic claims (seed {args.seed}), sizes {sizes}, embedder: default")
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="tarl-bench-") as tmp:
        engine = MemoryEngine.open(Path(tmp) / "store")
        report.notes.append(f"embedder: {engine.index.embedder.name} (dim {engine.index.embedder.dim}); "
                            "store: SQLite WAL file + embedded persistent Chroma")
        pool = synthetic_claims(sizes[-1] + 2 * probes_n * len(sizes), ns, args.seed)
        filled = 0
        row: dict[str, float] = {}
        for j, size in enumerate(sizes):
            _fill(engine, pool[filled:size])
            filled = size
            start = sizes[-1] + j * probes_n
            queries = [f"what does {rng.choice(PEOPLE)} {rng.choice(RELATIONS)[0]}?" for _ in range(probes_n)]
            metrics = _measure(engine, pool[start:start + probes_n], queries, ns)
            suffix = "" if j == 0 else ("_10k" if size == 10000 else f"_{size}")
            row.update({k + suffix: v for k, v in metrics.items()})
            report.notes.append(f"size {size}: {engine.store.count(ns)} entries after the timed writes")
        engine.close()
    report.add("default", **row)
    report.notes.append("write = embed + vector-cache query + ground + decide + execute + SQLite commit; the Chroma "
                        "upsert runs behind (flushed untimed between writes); write_precomputed excludes embedding "
                        "(target <= 5 ms p50); writes_per_s_sustained = back-to-back writes incl. the Chroma flush")
    report.emit(args)
    return 0
