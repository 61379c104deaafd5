"""The ``tarl`` command: each subcommand is a thin wrapper over one engine method or one benchmark."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence


def _bench(argv: Sequence[str]) -> int:
    if not argv or argv[0].startswith("-"):
        print("usage: tarl bench NAME [options]   (core, tarl-mem, lre, janus, beliefs, scale)")
        return 2
    name, rest = argv[0], list(argv[1:])
    try:
        module = importlib.import_module(f"shared_core.bench.{name.replace('-', '_')}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("shared_core.bench"):
            print(f"tarl bench: unknown benchmark {name!r}")
            return 2
        raise
    return int(module.main(rest) or 0)


COMMANDS = {
    "demo": ("shared_core.demo", "run the scripted offline demo"),
    "inspect": ("shared_core.inspect", "print the ledgers of a store"),
    "replay": ("shared_core.inspect", "print a namespace as it was after a past transaction"),
    "explain": ("shared_core.inspect", "why an entry is where it is"),
    "sweep": ("shared_core.inspect", "expire entries past their validity or TTL"),
    "train": ("shared_core.training", "retrain the shipped policy weights (needs the train extra)"),
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "bench":
        return _bench(argv[1:])
    parser = argparse.ArgumentParser(prog="tarl", description="tarl-memory command line")
    parser.add_argument("command", choices=["bench", *COMMANDS])
    if not argv or argv[0] not in COMMANDS:
        parser.print_help()
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    return int(module.main(argv[0], argv[1:]) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
