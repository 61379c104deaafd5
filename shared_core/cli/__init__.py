"""The ``tarl`` command: each subcommand is a thin wrapper over one engine call or one benchmark.

A user's mistake (unknown entry, a path that is not a store, a bad ``--as-of``...) is printed as one
line ``tarl: error: ...`` on stderr with exit code 2, never a traceback; bugs still raise.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from ..errors import TarlError
from .args import CliError
from .terminal import safe

COMMANDS = {
    "demo": ("shared_core.demo", "run the scripted offline demo"),
    "inspect": ("shared_core.cli.store", "print the ledgers of a store (read-only)"),
    "replay": ("shared_core.cli.store", "print a namespace as it was after a past transaction (read-only)"),
    "explain": ("shared_core.cli.store", "why an entry is where it is (read-only)"),
    "history": ("shared_core.cli.store", "every transaction that touched an entry (read-only)"),
    "pending": ("shared_core.cli.store", "the review queue: list (read-only), accept, reject"),
    "sweep": ("shared_core.cli.store", "expire entries past their validity or TTL"),
    "reindex": ("shared_core.cli.store", "rebuild the vector index from the ledger"),
    "export": ("shared_core.cli.transfer", "write a store's transaction log as JSON Lines (read-only)"),
    "import": ("shared_core.cli.transfer", "rebuild a new store from an export"),
    "ui": ("shared_core.ui.server", "serve the dashboard on 127.0.0.1 (read-only unless --write)"),
    "bench": ("shared_core.cli.bench", "run a benchmark, or all of them into one report"),
    "train": ("shared_core.training", "retrain the shipped policy weights (needs the train extra)"),
}


def usage() -> str:
    width = max(map(len, COMMANDS))
    rows = "\n".join(f"  {name.ljust(width)}  {help_}" for name, (_, help_) in COMMANDS.items())
    return f"usage: tarl COMMAND [options]   (tarl COMMAND --help for its options)\n\ncommands:\n{rows}"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage())
        return 0 if argv else 2
    try:
        if argv[0] not in COMMANDS:
            raise CliError(f"unknown command {argv[0]!r} (one of: {', '.join(COMMANDS)})")
        module = importlib.import_module(COMMANDS[argv[0]][0])
        return int(module.main(argv[0], argv[1:]) or 0)
    except (CliError, TarlError) as exc:
        print(f"tarl: error: {safe(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:         # `tarl inspect ... | head`: the reader left; that is not an error
        sys.stdout = None  # type: ignore[assignment]
        return 0
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tarl: error: {safe(where)}{safe(exc.strerror or exc)}", file=sys.stderr)
        return 2
    except SystemExit as exc:       # --help, and commands that still exit from argparse
        return exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 2
