"""``tarl bench NAME [options]``: one benchmark module per name (``all``: every one, into one report)."""

from __future__ import annotations

import importlib

from .args import CliError


def main(command: str, argv: list[str]) -> int:
    if not argv or argv[0].startswith("-"):
        from ..bench.all import BENCHMARKS

        raise CliError(f"usage: tarl bench NAME [options]   (NAME: {', '.join(BENCHMARKS)}, or all --report DIR)")
    name, rest = argv[0], list(argv[1:])
    try:
        module = importlib.import_module(f"shared_core.bench.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("shared_core.bench"):
            raise CliError(f"unknown benchmark {name!r}") from None
        raise
    return int(module.main(rest) or 0)
