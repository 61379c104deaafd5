"""``tarl bench all --report DIR``: run every benchmark and write one Markdown report.

Each benchmark runs exactly as ``tarl bench NAME`` would (same flags, its own JSON record and PNG
plots under DIR), and the report quotes the table it printed verbatim, so a number in the report is
always one a single command reproduces. A benchmark that fails (e.g. its data set is absent) is
reported as failed with the reason, and the others still run.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import platform
import sys
import traceback
from datetime import datetime, timezone
from pathlib import Path

BENCHMARKS = ("core", "embedders", "tarl-mem", "escalation", "lre", "janus", "beliefs", "scale", "observations")
"""Every benchmark DESIGN.md names, in its order (those not in this build are listed as absent), then this
build's own: ``observations`` (what memory keeps of an extractor's facts about a conversation)."""


def run_one(name: str, flags: list[str]) -> tuple[bool, str]:
    """(succeeded, what it printed or why it failed), running ``tarl bench NAME *flags``."""
    try:
        module = importlib.import_module(f"shared_core.bench.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("shared_core.bench"):
            return False, "absent: this build has no such benchmark"
        raise
    out, argv = io.StringIO(), sys.argv
    sys.argv = ["tarl", "bench", name, *flags]           # the JSON record names the command that reproduces it
    try:
        with contextlib.redirect_stdout(out):
            code = module.main(flags)
    except SystemExit as exc:
        code = exc.code
    except Exception as exc:  # noqa: BLE001 - one failing benchmark must not hide the others
        return False, out.getvalue() + "".join(traceback.format_exception_only(exc)).strip()
    finally:
        sys.argv = argv
    return code in (0, None), out.getvalue().rstrip()


def status(ok: bool, text: str) -> str:
    return "ok" if ok else "absent" if text.startswith("absent") else "FAILED"


def report(results: dict[str, tuple[bool, str]], root: Path, command: str) -> str:
    lines = ["# tarl-memory benchmark report", "",
             f"Command: `{command}`  ", f"Written: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC on "
             f"{platform.platform()} ({os.cpu_count()} CPUs), Python {platform.python_version()}", ""]
    lines += ["| benchmark | status |", "|---|---|"]
    lines += [f"| {n} | {status(ok, text)} |" for n, (ok, text) in results.items()]
    for name, (ok, text) in results.items():
        lines += ["", f"## {name}", "", "```text", text.replace("```", "'''") or "(no output)", "```"]
        record = root / "json" / f"{name}.json"
        if record.exists():
            lines += ["", f"JSON record: [`json/{name}.json`](json/{name}.json)"]
        for png in sorted((root / "plots" / name).glob("*.png")):
            rel = png.relative_to(root).as_posix()
            lines += ["", f"![{name}: {png.stem}]({rel})"]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    from ..cli.args import Parser

    p = Parser("tarl bench all", __doc__)
    p.add_argument("--report", type=Path, required=True, help="folder for report.md, json/ and plots/")
    p.add_argument("--quick", action="store_true", help="every benchmark's reduced run")
    p.add_argument("--only", default=None, help="comma-separated subset, e.g. core,beliefs")
    args = p.parse_args(argv)
    names = BENCHMARKS if args.only is None else tuple(n.strip() for n in args.only.split(",") if n.strip())
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        p.error(f"--only: unknown benchmarks {unknown} (known: {', '.join(BENCHMARKS)})")
    from tqdm import tqdm

    results: dict[str, tuple[bool, str]] = {}
    command = "tarl bench all " + " ".join(argv)
    args.report.mkdir(parents=True, exist_ok=True)
    for name in tqdm(names, desc="bench all", unit="benchmark", file=sys.stderr, disable=None):
        flags = (["--quick"] if args.quick else []) + ["--json", str(args.report / "json" / f"{name}.json"),
                                                       "--plots", str(args.report / "plots" / name)]
        results[name] = run_one(name, flags)
        # rewritten after every benchmark: an interrupted long run keeps what it measured
        (args.report / "report.md").write_text(report(results, args.report, command), encoding="utf-8")
    print(f"wrote {args.report / 'report.md'}: " + ", ".join(f"{n} {status(*r)}" for n, r in results.items()))
    return 0 if all(status(*r) != "FAILED" for r in results.values()) else 1
