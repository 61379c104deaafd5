"""``tarl bench faults``: the storage under faults, as scripts whose counts go in the closing note.

Runs (``--runs`` to choose), per system (``sqlite_embedded``: SQLite file + embedded Chroma;
``postgres_chroma_server``: PostgreSQL + Chroma server, from ``--pg-url`` / ``--chroma-url``):

- ``sigkill``: a writer process is killed with SIGKILL after 1-39 writes, at a random moment of the next
  ones, ``--kills`` times; after each
  kill the store is reopened and checked: replaying the log gives the live state (``inconsistent``),
  every write the writer saw return is in the ledger (``lost``), the index equals the ledger's open
  entries by ids and states (``index_diff``).
- ``writers``: 4 writer processes and 2 reader processes on one store (server systems only): errors
  raised to callers, lost writes, index differences, and slots with more than one Accepted entry, in
  two counts: ``slot_violations`` (single-valued relations: "lives in", "works at", "drives a") and
  ``multi_valued_slots_crowded`` ("likes", "has order": several Accepted values are correct there);
  ``slot_violations_sequential``: those one process makes writing the same claims in the log's order
  (the policy's own decisions; a race between writers shows as ``slot_violations`` above it).
- ``chroma_restart``: a private Chroma server is killed (SIGKILL) and restarted mid-run under a writer
  (SQLite ledger + that server): errors raised to the writer's calls, lost writes, index differences
  after the final flush.
- ``disk_full``: the store lives on a 6 MB tmpfs (needs root to mount) and is written until the disk
  is full: what the caller sees, then space is added and the store reopened and checked. A writer
  that stops answering (``writer_hung``: embedded Chroma was seen blocking inside its native upsert,
  holding the interpreter lock, once the disk filled) is killed after ``HANG_S`` and the store checked;
  an index the reopen refuses is rebuilt as the refusal says (``index_refused_then_rebuilt``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from ..engine import MemoryEngine
from ..errors import TarlError
from ..executor import MemoryState
from ..schema import Ledger
from .core import MULTI_VALUED
from .report import Report, bench_args

ROOT = Path(__file__).resolve().parents[2]
WRITER = """
import sys, random
from shared_core.engine import MemoryEngine
from shared_core.bench.core import synthetic_claims
target, chroma, seed, n = sys.argv[1], sys.argv[2] or None, int(sys.argv[3]), int(sys.argv[4])
with MemoryEngine.open(target, chroma_url=chroma) as engine:
    print("ready", flush=True)
    failing = 0
    for c in synthetic_claims(n, "u", seed):
        try:
            d = engine.write(c)
            print("ok", d.entry_id or "-", flush=True)
            failing = 0
        except Exception as exc:
            print("error", type(exc).__name__, str(exc).replace(chr(10), " ")[:200], flush=True)
            failing += 1
            if failing == 20:                      # e.g. the disk stays full: stop, as a caller would
                break
"""
READER = """
import sys
from shared_core.engine import MemoryEngine
from shared_core.schema import Ledger
target, chroma, n = sys.argv[1], sys.argv[2] or None, int(sys.argv[3])
with MemoryEngine.open(target, chroma_url=chroma) as engine:
    for i in range(n):
        try:
            hits = engine.search(f"what does Ana like {i}", "u", k=5)
            bad = [h for h in hits if h.entry.ledger is not Ledger.ACCEPTED]
            print("ok" if not bad else "error closed entry surfaced", flush=True)
        except Exception as exc:
            print("error", type(exc).__name__, str(exc)[:200], flush=True)
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _spawn(code: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env())


def check(target: str, chroma_url: str | None, returned: list[str], reindex: bool = False) -> dict[str, float]:
    """Reopen and compare: log replay vs live state, returned writes vs ledger, index vs ledger."""
    with MemoryEngine.open(target, chroma_url=chroma_url, reindex=reindex) as engine:
        engine.flush()
        bad = 0
        for ns in engine.namespaces():
            replayed = MemoryState(ns)
            for t in engine.log(ns):
                replayed.apply(t)
            bad += replayed.entries != engine.state(ns).entries
        truth = {e.id: e.ledger for ns in engine.namespaces() for lg in (Ledger.ACCEPTED, Ledger.PENDING)
                 for e in engine.store.ledger(ns, lg)}
        got = engine.index.collection.get(include=["metadatas"])
        indexed = {i: Ledger(m["ledger"]) for i, m in zip(got["ids"], got["metadatas"])}
        single, several = _crowded(engine)
        lost = len(set(returned) - {e.id for e in engine.store.entries(returned)})
        diff = len(set(truth.items()) ^ set(indexed.items()))
        return {"inconsistent": bad, "lost": lost, "index_diff": diff, "slot_violations": single,
                "multi_valued_slots_crowded": several,
                "transactions": engine.store.head()}


def _crowded(engine: MemoryEngine) -> tuple[int, int]:
    """Slots holding more than one Accepted entry: (single-valued relations, multi-valued ones)."""
    crowded = [s for ns in engine.namespaces() for s in {e.slot for e in engine.accepted(ns) if e.slot}
               if len(engine.by_slot(ns, s)) > 1]
    several = sum(s.split(":", 1)[-1] in MULTI_VALUED for s in crowded)
    return len(crowded) - several, several


def replayed_violations(target: str, chroma_url: str | None) -> int:
    """Single-valued slot violations that one process writing the same claims in the same order (the
    log's) also makes: those are the policy's decisions (an append beside the slot's value, a revise of
    another entry), not a race between writers."""
    with MemoryEngine.open(target, chroma_url=chroma_url) as engine:
        claims = [t.claim for t in engine.log() if t.claim is not None]
    with MemoryEngine.open() as alone:
        for c in claims:
            alone.write(c)
        return _crowded(alone)[0]


def _outputs(lines: str) -> tuple[list[str], list[str]]:
    ok = [line.split()[1] for line in lines.splitlines() if line.startswith("ok") and len(line.split()) > 1]
    errors = [line for line in lines.splitlines() if line.startswith("error")]
    return [i for i in ok if i != "-"], errors


def sigkill(target: str, chroma_url: str | None, kills: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    totals: dict[str, float] = {"kills": 0, "inconsistent": 0, "lost": 0, "index_diff": 0, "errors": 0}
    returned: list[str] = []
    for k in range(kills):
        proc = _spawn(WRITER, target, chroma_url or "", str(seed * 1000 + k), "100000")
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        seen = [proc.stdout.readline() for _ in range(rng.randrange(1, 40))]   # well into the loop, then
        time.sleep(rng.uniform(0.0, 0.2))                                     # at a random moment of a write
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        ids, errors = _outputs("".join(seen) + out)
        returned += ids
        totals["kills"] += 1
        totals["errors"] += len(errors)
        result = check(target, chroma_url, returned)
        for key in ("inconsistent", "index_diff"):
            totals[key] += result[key]
        for key in ("lost", "transactions", "slot_violations", "multi_valued_slots_crowded"):
            totals[key] = result[key]                                # of the store as it ends
    return totals


def writers(target: str, chroma_url: str, per_writer: int, seed: int) -> dict[str, float]:
    procs = [_spawn(WRITER, target, chroma_url, str(seed * 100 + k), str(per_writer)) for k in range(4)]
    readers = [_spawn(READER, target, chroma_url, str(per_writer)) for _ in range(2)]
    returned: list[str] = []
    errors: list[str] = []
    for p in procs + readers:
        out, err = p.communicate()
        ids, errs = _outputs(out)
        returned += ids
        errors += errs + ([f"exit {p.returncode}: {err[-300:]}"] if p.returncode else [])
    result = check(target, chroma_url, returned)
    return {"errors": len(errors), **{k: result[k] for k in ("lost", "slot_violations", "multi_valued_slots_crowded",
                                                                  "index_diff", "inconsistent")},
            "slot_violations_sequential": replayed_violations(target, chroma_url), "writes_returned": len(returned)}


def chroma_restart(per_writer: int, seed: int) -> dict[str, float]:
    from ..index.chroma import http_client  # noqa: F401 - fail early if chromadb is missing

    chroma = str(Path(sys.executable).with_name("chroma"))
    with tempfile.TemporaryDirectory(prefix="tarl-faults-") as tmp:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        url = f"http://127.0.0.1:{port}"

        def start() -> subprocess.Popen[bytes]:
            p = subprocess.Popen([chroma, "run", "--path", f"{tmp}/chroma", "--host", "127.0.0.1", "--port", str(port)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(240):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                    return p
                except OSError:
                    time.sleep(0.25)
            raise RuntimeError("chroma did not start")

        server = start()
        target = f"{tmp}/store"
        writer = _spawn(WRITER, target, url, str(seed), str(per_writer))
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(2.0)
        server.kill()
        server.wait()
        time.sleep(2.0)
        server = start()
        out, err = writer.communicate()
        ids, errors = _outputs(out)
        errors += [f"exit {writer.returncode}: {err[-300:]}"] if writer.returncode else []
        result = check(target, url, ids)
        server.terminate()
        server.wait()
    return {"errors": len(errors), "lost": result["lost"], "index_diff": result["index_diff"],
            "inconsistent": result["inconsistent"], "writes_returned": len(ids)}


HANG_S = 600
"""Seconds after which the disk-full writer counts as hung (it fills 6 MB in about a minute)."""


def disk_full(seed: int) -> dict[str, Any]:
    mnt = Path(tempfile.mkdtemp(prefix="tarl-full-"))
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(mnt)], capture_output=True).returncode:
        return {"skipped": 1.0}
    try:
        target = str(mnt / "store")
        proc = _spawn(WRITER, target, "", str(seed), "200000")
        try:
            out, err, hung = *proc.communicate(timeout=HANG_S), 0.0
        except subprocess.TimeoutExpired:         # a write never returned: killed, then the store is checked
            proc.kill()
            out, err = proc.communicate()
            hung = 1.0
        ids, errors = _outputs(out)
        kinds = sorted({" ".join(e.split()[1:4]) for e in errors})
        subprocess.run(["mount", "-o", "remount,size=256m", str(mnt)], check=True)
        try:
            result, unreadable = check(target, None, ids), 0.0
        except TarlError as e:      # the index broke with the disk: refused with the remedy; follow it
            if "tarl reindex" not in str(e):
                raise
            result, unreadable = check(target, None, ids, reindex=True), 1.0
        return {"writes_returned": len(ids), "errors": len(errors), "exit_code": float(proc.returncode),
                "index_refused_then_rebuilt": unreadable, "writer_hung": hung,
                "lost": result["lost"], "inconsistent": result["inconsistent"], "index_diff": result["index_diff"],
                "error_kinds": "; ".join(kinds)[:300] + (f" | stderr: {err.strip().splitlines()[-1][:200]}" if err.strip() else "")}
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def main(argv: list[str] | None = None) -> int:
    parser = bench_args("faults", __doc__ or "")
    parser.add_argument("--pg-url", default=os.environ.get("TARL_TEST_PG_URL"))
    parser.add_argument("--chroma-url", default=os.environ.get("TARL_TEST_CHROMA_URL"))
    parser.add_argument("--runs", default="sigkill,writers,chroma_restart,disk_full")
    parser.add_argument("--kills", type=int, default=25)
    args = parser.parse_args(argv)
    runs = args.runs.split(",")
    kills, per_writer = (3, 20) if args.quick else (args.kills, 150)
    report = Report("faults", data=f"synthetic claims (seed {args.seed})")
    pg_db = None
    if args.pg_url and args.chroma_url:
        import psycopg

        pg_db = "tarl_faults_" + uuid.uuid4().hex[:8]
        with psycopg.connect(args.pg_url, autocommit=True) as admin:
            admin.execute(f"CREATE DATABASE {pg_db}")
    pg = args.pg_url.rsplit("/", 1)[0] + "/" + pg_db if pg_db and args.pg_url else None
    try:
        if "sigkill" in runs:
            with tempfile.TemporaryDirectory(prefix="tarl-faults-") as tmp:
                report.add("sigkill/sqlite_embedded", **sigkill(f"{tmp}/store", None, kills, args.seed))
            if pg:
                report.add("sigkill/postgres_chroma_server", **sigkill(pg, args.chroma_url, kills, args.seed))
        if "writers" in runs and pg:
            report.add("writers/postgres_chroma_server", **writers(pg, args.chroma_url, per_writer, args.seed))
            with tempfile.TemporaryDirectory(prefix="tarl-faults-") as tmp:
                report.add("writers/sqlite_chroma_server", **writers(f"{tmp}/store", args.chroma_url, per_writer, args.seed))
        if "chroma_restart" in runs:
            report.add("chroma_restart/sqlite_chroma_server", **chroma_restart(per_writer * 4, args.seed))
        if "disk_full" in runs:
            result = disk_full(args.seed)
            kinds = result.pop("error_kinds", "")
            report.add("disk_full/sqlite_embedded", **result)
            report.notes.append(f"disk_full: what callers saw: {kinds}")
    finally:
        if pg_db:
            import psycopg

            with psycopg.connect(args.pg_url, autocommit=True) as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {pg_db} WITH (FORCE)")
    if not pg:
        report.notes.append("postgres_chroma_server runs skipped: no --pg-url / --chroma-url")
    report.emit(args)
    return 0
