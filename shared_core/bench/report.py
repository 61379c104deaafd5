"""The one output convention every benchmark follows (see DESIGN.md).

A benchmark builds a ``Report``; ``emit`` prints the table and, when asked, writes the JSON record
``{"benchmark", "command", "data", "systems": {system: {metric: number}}}`` and PNG plots.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

DATA_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data"
"""Development data lives beside the repository (``../shared/data``); benchmarks take ``--data``."""


def bench_args(name: str, description: str, default_data: Path | None = None) -> argparse.ArgumentParser:
    """The flags every ``tarl bench NAME`` accepts; a benchmark may add its own."""
    p = argparse.ArgumentParser(prog=f"tarl bench {name}", description=description)
    p.add_argument("--data", type=Path, default=default_data, help="dataset path (default: %(default)s)")
    p.add_argument("--json", type=Path, default=None, help="write the JSON record here")
    p.add_argument("--plots", type=Path, default=None, help="write PNG plots into this folder")
    p.add_argument("--quick", action="store_true", help="reduced run for smoke tests")
    p.add_argument("--seed", type=int, default=0)
    return p


@dataclass
class Report:
    benchmark: str
    data: str
    systems: dict[str, dict[str, float]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    plots: list[tuple[str, Callable[[Any], None]]] = field(default_factory=list)
    columns: tuple[str, ...] = ()
    """Metrics the printed table shows (all when empty); the JSON record always has every metric."""

    def add(self, system: str, **metrics: float) -> None:
        self.systems.setdefault(system, {}).update({k: float(v) for k, v in metrics.items()})

    def plot(self, filename: str, draw: Callable[[Any], None]) -> None:
        """Register a plot; ``draw(ax)`` is called with a matplotlib Axes only if --plots is given."""
        self.plots.append((filename, draw))

    def table(self) -> str:
        metrics: list[str] = []
        for row in self.systems.values():
            metrics += [m for m in row if m not in metrics and (not self.columns or m in self.columns)]
        width = max([len("system")] + [len(s) for s in self.systems])
        cols = [max(len(m), 9) for m in metrics]
        lines = ["system".ljust(width) + " | " + " | ".join(m.rjust(c) for m, c in zip(metrics, cols))]
        lines.append("-" * len(lines[0]))
        for system, row in self.systems.items():
            cells = [_fmt(row.get(m)).rjust(c) for m, c in zip(metrics, cols)]
            lines.append(system.ljust(width) + " | " + " | ".join(cells))
        return "\n".join(lines)

    def emit(self, args: argparse.Namespace) -> None:
        print(f"# tarl bench {self.benchmark}  (data: {self.data})")
        print(self.table())
        for note in self.notes:
            print(f"- {note}")
        if args.json:
            args.json.parent.mkdir(parents=True, exist_ok=True)
            record = {
                "benchmark": self.benchmark,
                "command": "tarl " + " ".join(sys.argv[1:]) if sys.argv else "",
                "data": self.data,
                "systems": self.systems,
                **self.extra,
            }
            args.json.write_text(json.dumps(record, indent=2, default=str))
        if args.plots and self.plots:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            args.plots.mkdir(parents=True, exist_ok=True)
            for filename, draw in self.plots:
                fig, ax = plt.subplots(figsize=(7, 4.5))
                draw(ax)
                fig.tight_layout()
                fig.savefig(args.plots / filename, dpi=110)
                plt.close(fig)


def _fmt(v: float | None) -> str:
    if v is None:
        return "-"
    if math.isnan(v):
        return "nan"
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    return f"{v:.4f}" if abs(v) < 10 else f"{v:.2f}"
