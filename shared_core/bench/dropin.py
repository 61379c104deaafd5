"""``tarl bench dropin``: do the adapters work as drop-ins? Two measurements, from a source checkout:

- **conformance**: the LangGraph store conformance suite (``tests/langchain/test_langchain_store_conformance.py``)
  run with pytest, counted per store (``InMemoryStore``, ``TarlStore`` in memory, ``TarlStore`` on disk);
- **three sessions**: ``examples/three_sessions.py`` per setup (session 3 in a new process), the share
  of questions whose current fact was shown, stale fact kept out, rumour kept out.

The core imports no framework: both run in child processes that load the adapters. Needs the
``langchain`` and ``llamaindex`` extras and the test tools (pytest, langmem).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from .report import Report, bench_args

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "langchain" / "test_langchain_store_conformance.py"
SCENARIO = ROOT / "examples" / "three_sessions.py"
STORES = {"in_memory": "InMemoryStore", "tarl_memory": "TarlStore_memory", "tarl_disk": "TarlStore_disk"}
SETUPS = ["langchain", "langmem", "llamaindex", "llamaindex_auto"]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def conformance() -> dict[str, Counter[str]]:
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(SUITE)],
                         capture_output=True, text=True, env=_env(), cwd=ROOT)
    counts: dict[str, Counter[str]] = {name: Counter() for name in STORES}
    for status, param in re.findall(r"^(PASSED|FAILED|ERROR) \S+\[(in_memory|tarl_memory|tarl_disk)", out.stdout, re.M):
        counts[param][status.lower()] += 1
    return counts


def scenario(setups: list[str]) -> dict[str, list[dict[str, object]]]:
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "scenario.json"
        subprocess.run([sys.executable, str(SCENARIO), *[a for s in setups for a in ("--setup", s)],
                        "--json", str(record)], capture_output=True, text=True, env=_env(), cwd=ROOT, timeout=3600)
        return json.loads(record.read_text())


def main(argv: list[str]) -> int:
    args = bench_args("dropin", "LangGraph store conformance and the three-session scenario").parse_args(argv)
    if not SUITE.exists() or not SCENARIO.exists():
        print("tarl bench dropin: needs a source checkout (tests/ and examples/)")
        return 2
    setups = ["langchain", "llamaindex"] if args.quick else SETUPS
    report = Report("dropin", "LangGraph store conformance suite; scripted three-session scenario (no model data)")
    for param, counts in conformance().items():
        total = sum(counts.values())
        report.add(f"conformance_{STORES[param]}", tests=total, passed=counts["passed"],
                   failed=counts["failed"] + counts["error"])
    results = scenario(setups)
    for setup in setups:
        rows = results.get(setup, [])
        n = len(rows) or 1
        report.add(f"scenario_{setup}", questions=len(rows),
                   current_shown=sum(bool(r["current_shown"]) for r in rows) / n,
                   stale_kept_out=sum(bool(r["stale_kept_out"]) for r in rows) / n,
                   rumour_kept_out=sum(bool(r["rumour_kept_out"]) for r in rows) / n)
    report.notes.append("conformance: 4 of the suite's tests assert where TarlStore differs on purpose "
                        "(README store table): they pass on each store with that store's own expectation")
    report.notes.append("scenario: shares over the questions of session 3, run in a new process; "
                        "see examples/three_sessions.py for the facts and what each setup is")
    report.extra["scenario"] = results

    def draw(ax: object) -> None:
        names = [s for s in report.systems if s.startswith("scenario_")]
        metrics = ["current_shown", "stale_kept_out", "rumour_kept_out"]
        for i, m in enumerate(metrics):
            ax.bar([j + 0.25 * i for j in range(len(names))], [report.systems[s][m] for s in names],  # type: ignore[attr-defined]
                   width=0.25, label=m)
        ax.set_xticks([j + 0.25 for j in range(len(names))], [s.removeprefix("scenario_") for s in names])  # type: ignore[attr-defined]
        ax.set_ylim(0, 1.05)  # type: ignore[attr-defined]
        ax.legend()  # type: ignore[attr-defined]
        ax.set_title("three sessions: share of questions")  # type: ignore[attr-defined]

    report.plot("dropin_scenario.png", draw)
    report.emit(args)
    return 0
