"""``tarl bench scale``: the engine as memory grows and as processes share it.

Systems: ``sqlite_embedded`` (SQLite file + embedded Chroma, one process) and ``postgres_chroma_server``
(PostgreSQL ledger + Chroma server; ``--pg-url`` / ``--chroma-url``, default ``TARL_TEST_PG_URL`` /
``TARL_TEST_CHROMA_URL`` as ``.ci/services.sh start`` exports them; the row is left out, with a note,
when they are not given). Per system:

- ``write_ms_p50`` / ``_p95``: ``engine.write(claim)`` at 10k entries, back to back, nothing flushed
  between timed writes: embedding, grounding, decision, commit and the write-behind index all included.
- ``writes_per_s_sustained``: those writes per second, including the final ``flush`` (index caught up).
- ``writes_per_s_4proc``: four writer processes on one store and one namespace (``_4ns``: each process its
  own namespace, as four agents' users would), each with its own engine, until all are
  done and flushed (not applicable to embedded Chroma, which serves one process: nan).
- ``search_ms_p50_10k`` / ``_100k``: ``engine.search`` with the namespace at that many Accepted entries.
- ``open_s_100k``: ``MemoryEngine.open`` of the 100k store (the log's tail after the index watermark is
  caught up; ``reconcile()`` is the full comparison by ids and states); ``first_search_s_100k``: the first
  search after it (embedded: loads the namespace's vectors from the ledger and the vector file; on a
  Chroma server reads are served by the server and nothing is loaded but the shared query-weighting
  frequencies); ``_cpu_`` twins: CPU time of the process for the same steps (the wall clock of a loaded
  machine measures the neighbours too); ``rss_mb_100k``: resident memory of the process after that search.
- ``errors``: exceptions raised by any write or search; ``lost``: entries whose write returned but that
  the ledger does not hold after reopening.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from ..engine import MemoryEngine
from ..schema import Ledger
from .core import PEOPLE, RELATIONS, _fill, synthetic_claims
from .report import Report, bench_args

NS = "bench"
WORKER = """
import sys, time
from shared_core.engine import MemoryEngine
from shared_core.bench.core import synthetic_claims
target, chroma, me, n, ns = sys.argv[1], sys.argv[2] or None, int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
claims = synthetic_claims(n, ns, 1000 + me)
errors, ids = 0, []
with MemoryEngine.open(target, chroma_url=chroma) as engine:
    print("ready", flush=True)
    sys.stdin.readline()
    for c in claims:
        try:
            d = engine.write(c)
            ids.append(d.entry_id or "")
        except Exception as exc:
            errors += 1
            print("error", type(exc).__name__, exc, file=sys.stderr, flush=True)
    engine.flush()
    held = [getattr(engine.store, k, float("nan")) for k in ("lock_wait_s", "lock_held_s")]
print("done", errors, *held, " ".join(i for i in ids if i), flush=True)
"""


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def _queries(rng: random.Random, n: int) -> list[str]:
    return [f"what does {rng.choice(PEOPLE)} {rng.choice(RELATIONS)[0]}?" for _ in range(n)]


def _search_p50(engine: MemoryEngine, queries: list[str], errors: list[str]) -> float:
    times = []
    for q in queries:
        t0 = time.perf_counter()
        try:
            engine.search(q, NS, k=5)
        except Exception as exc:  # noqa: BLE001 - counted, reported
            errors.append(repr(exc))
        times.append((time.perf_counter() - t0) * 1000)
    return float(np.percentile(times, 50))


def _continuous_writes(engine: MemoryEngine, claims: list[Any], errors: list[str]) -> dict[str, Any]:
    """Wall and CPU time of back-to-back writes: on a shared, loaded machine the wall clock measures the
    neighbours too, the CPU time (caller thread; whole process incl. the index writer) measures us."""
    times, cpu, ids = [], [], []
    start, start_cpu = time.perf_counter(), time.process_time()
    for c in claims:
        t0, c0 = time.perf_counter(), time.thread_time()
        try:
            d = engine.write(c)
            ids.append(d.entry_id or "")
        except Exception as exc:  # noqa: BLE001 - counted, reported
            errors.append(repr(exc))
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    engine.flush()
    return {"times": times, "cpu": cpu, "rate": len(claims) / (time.perf_counter() - start),
            "cpu_per_write": (time.process_time() - start_cpu) * 1000 / len(claims), "ids": [i for i in ids if i]}


def _four_processes(target: str, chroma_url: str | None, per_proc: int,
                    errors: list[str], *, spread: bool = False) -> tuple[dict[str, float], list[str]]:
    """Writes per second of four writer processes, with where they serialise: the share of the run the
    store's write lock was held (near 1: the lock is the bottleneck) and the share of each writer's time
    spent waiting for it (PostgreSQL; nan where the store does not count). ``spread``: each process
    writes its own namespace (four agents' users) instead of all four writing ``NS`` (keys ``_4ns``)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, target, chroma_url or "", str(k), str(per_proc),
                               f"{NS}{k}" if spread else NS],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for k in range(4)]
    for p in procs:
        assert p.stdout is not None and p.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for p in procs:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    ids: list[str] = []
    wait = held = 0.0
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0 or not out.strip():
            errors.append(f"writer process exited {p.returncode}: {err[-500:]}")
            continue
        fields = out.split()
        errors += ["writer error"] * int(fields[1])
        wait, held = wait + float(fields[2]), held + float(fields[3])
        ids += fields[4:]
    elapsed = time.perf_counter() - start
    tail = "_4ns" if spread else ""
    return {f"writes_per_s_4proc{tail}": 4 * per_proc / elapsed, f"lock_held_share_4proc{tail}": held / elapsed,
            f"lock_wait_share_4proc{tail}": wait / (4 * elapsed)}, ids


def run_system(name: str, target: str, chroma_url: str | None, sizes: tuple[int, int], probes: int,
               per_proc: int, seed: int, report: Report) -> None:
    rng = random.Random(seed)
    errors: list[str] = []
    row: dict[str, float] = {}
    pool = synthetic_claims(sizes[1] + 2 * probes, NS, seed)
    written: list[str] = []
    engine = MemoryEngine.open(target, chroma_url=chroma_url)
    _fill(engine, pool[: sizes[0]])
    engine.flush()
    w = _continuous_writes(engine, pool[sizes[1]:sizes[1] + probes], errors)
    written += w["ids"]
    row.update(write_ms_p50=float(np.percentile(w["times"], 50)), write_ms_p95=float(np.percentile(w["times"], 95)),
               writes_per_s_sustained=w["rate"], write_cpu_ms_p50=float(np.percentile(w["cpu"], 50)),
               process_cpu_ms_per_write=w["cpu_per_write"],
               search_ms_p50_10k=_search_p50(engine, _queries(rng, probes), errors))
    engine.close()
    if chroma_url:
        for spread in (False, True):         # one namespace (this benchmark's headline), then one per process
            four, ids4 = _four_processes(target, chroma_url, per_proc, errors, spread=spread)
            row.update(four)
            written += ids4
    else:
        row["writes_per_s_4proc"] = float("nan")
    engine = MemoryEngine.open(target, chroma_url=chroma_url)
    _fill(engine, pool[sizes[0]:sizes[1]])
    engine.flush()
    engine.close()
    t0, c0 = time.perf_counter(), time.process_time()
    engine = MemoryEngine.open(target, chroma_url=chroma_url)
    row["open_s_100k"], row["open_cpu_s_100k"] = time.perf_counter() - t0, time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    engine.search("what does Ana like?", NS, k=5)
    row["first_search_s_100k"], row["first_search_cpu_s_100k"] = time.perf_counter() - t0, time.process_time() - c0
    row["rss_mb_100k"] = _rss_mb()
    row["search_ms_p50_100k"] = _search_p50(engine, _queries(rng, probes), errors)
    row["accepted_100k"] = engine.store.count(NS, Ledger.ACCEPTED)
    row["errors"] = len(errors)
    row["lost"] = len(set(written) - {e.id for e in engine.store.entries(written)})
    engine.close()
    report.add(name, **row)
    for e in errors[:3]:
        report.notes.append(f"{name} error: {e}")


def main(argv: list[str] | None = None) -> int:
    parser = bench_args("scale", __doc__ or "")
    parser.add_argument("--pg-url", default=os.environ.get("TARL_TEST_PG_URL"), help="PostgreSQL server (a fresh database is created on it)")
    parser.add_argument("--chroma-url", default=os.environ.get("TARL_TEST_CHROMA_URL"), help="Chroma server")
    parser.add_argument("--systems", default="sqlite_embedded,postgres_chroma_server")
    args = parser.parse_args(argv)
    sizes = (1000, 5000) if args.quick else (10_000, 100_000)
    probes = 60 if args.quick else 300
    per_proc = 30 if args.quick else 200
    report = Report("scale", data=f"synthetic claims (seed {args.seed}); sizes {sizes}; one namespace; embedder: default")
    if args.quick:
        report.notes.append("--quick: the _10k metrics are measured at 1k entries and the _100k ones at 5k")
    chosen = args.systems.split(",")
    if "sqlite_embedded" in chosen:
        with tempfile.TemporaryDirectory(prefix="tarl-scale-") as tmp:
            run_system("sqlite_embedded", str(Path(tmp) / "store"), None, sizes, probes, per_proc, args.seed, report)
    if "postgres_chroma_server" in chosen:
        if not (args.pg_url and args.chroma_url):
            report.notes.append("postgres_chroma_server: not run (no --pg-url / --chroma-url; .ci/services.sh start provides both)")
        else:
            import psycopg

            db = "tarl_bench_" + uuid.uuid4().hex[:8]
            with psycopg.connect(args.pg_url, autocommit=True) as admin:
                admin.execute(f"CREATE DATABASE {db}")
            try:
                run_system("postgres_chroma_server", args.pg_url.rsplit("/", 1)[0] + "/" + db, args.chroma_url,
                           sizes, probes, per_proc, args.seed, report)
            finally:
                with psycopg.connect(args.pg_url, autocommit=True) as admin:
                    admin.execute(f"DROP DATABASE IF EXISTS {db} WITH (FORCE)")
    report.notes.append("writes: engine.write(claim) back to back, embedding + index included, no flush between timed "
                        "writes; 4proc: four processes x %d writes on one store (one namespace; _4ns: one each); embedded Chroma serves one process (nan)"
                        % per_proc)
    report.notes.append("write_cpu_ms_p50: CPU time of the calling thread per write; process_cpu_ms_per_write: CPU of "
                        "the whole process (index writer included) per sustained write; load average during the run: "
                        "%.1f on %d cores" % (os.getloadavg()[0], os.cpu_count() or 0))
    report.emit(args)
    return 0
