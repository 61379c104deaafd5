"""Argument parsing that reports a user's mistake as one line (``tarl: error: ...``, exit 2) instead
of argparse's usage dump, and the argument types the store commands share."""

from __future__ import annotations

import argparse
from pathlib import Path

MAX_TX = 2**63 - 1
"""SQLite's largest integer: a bigger ``--as-of`` cannot name a transaction."""


class CliError(Exception):
    """A user mistake on the command line; ``main`` prints it as one line and exits 2."""


class Parser(argparse.ArgumentParser):
    def __init__(self, prog: str, description: str | None = None) -> None:
        super().__init__(prog=prog, description=description, formatter_class=argparse.RawDescriptionHelpFormatter)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise CliError(f"{self.prog}: {message}")


def tx_number(text: str) -> int:
    """A transaction number as typed: a whole number from 0 to SQLite's largest integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a transaction number") from None
    if not 0 <= value <= MAX_TX:
        raise argparse.ArgumentTypeError(f"{text} is out of range (0 .. {MAX_TX})")
    return value


def store_parser(command: str, doc: str | None) -> Parser:
    parser = Parser(f"tarl {command}", doc)
    parser.add_argument("store", type=Path, help="the store folder (holds ledger.db)")
    return parser
