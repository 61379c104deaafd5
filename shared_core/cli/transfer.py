"""``tarl export`` and ``tarl import``: a store's transaction log as JSON Lines (see ``shared_core.transfer``).

    tarl export STORE [-o FILE]     write the log (stdout by default); read-only
    tarl import STORE FILE          rebuild a store from an export; STORE must be new or empty

The import file is read and checked in full before the store is created, so a bad file leaves nothing
behind.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..engine import MemoryEngine
from ..readonly import LEDGER_FILE, open_read_only
from ..schema import Transaction
from ..transfer import export_log, import_log, read_log
from .args import CliError, store_parser
from .terminal import safe


def progress(desc: str) -> Any:
    """A tqdm bar on stderr, drawn only when stderr is a terminal."""
    from tqdm import tqdm

    def wrap(items: Iterable[Transaction], total: int) -> Iterable[Transaction]:
        return tqdm(items, total=total or None, desc=desc, unit="tx", file=sys.stderr, disable=None, leave=False)

    return wrap


def main(command: str, argv: list[str]) -> int:
    parser = store_parser(command, __doc__)
    if command == "export":
        parser.add_argument("-o", "--output", type=Path, default=None, help="file to write (default: stdout)")
    else:
        parser.add_argument("file", help="an export written by tarl export ('-' reads stdin)")
    args = parser.parse_args(argv)
    if command == "export":
        with open_read_only(args.store) as engine:
            if args.output is None:
                n = export_log(engine, sys.stdout, progress=progress("export"))
            else:
                with args.output.open("w", encoding="utf-8") as out:
                    n = export_log(engine, out, progress=progress("export"))
        print(f"exported {n} transactions", file=sys.stderr)
        return 0
    if (args.store / LEDGER_FILE).exists():
        with open_read_only(args.store) as existing:
            if existing.store.head():
                raise CliError(f"store={safe(args.store)!r} holds {existing.store.head()} transactions; "
                               "import only into a new or empty store")
    if args.file == "-":
        transactions = read_log(sys.stdin, progress=progress("read"))
    else:
        if not Path(args.file).is_file():
            raise CliError(f"file={args.file!r}: no such file")
        with open(args.file, encoding="utf-8") as lines:
            transactions = read_log(lines, progress=progress("read"))
    with MemoryEngine.open(args.store) as engine:
        head = import_log(engine, transactions)
    print(f"imported {len(transactions)} transactions into {safe(args.store)} (head {head})", file=sys.stderr)
    return 0
