"""The store commands: each a thin wrapper over one engine call, read-only unless it must write.

    tarl inspect STORE [--namespace NS] [--log]   the three ledgers now, or the transaction log
    tarl replay STORE NS --as-of TX               a namespace exactly as it was after transaction TX
    tarl explain STORE ENTRY [--as-of TX]         why an entry is where it is
    tarl history STORE ENTRY [--as-of TX]         every transaction that touched an entry, with rationale
    tarl pending STORE [--namespace NS]           the review queue
    tarl pending STORE accept|reject ENTRY        resolve a Pending entry (writes)
    tarl sweep STORE [--namespace NS]             expire what ran past its validity or TTL (writes)
    tarl reindex STORE                            rebuild the Chroma index from the ledger (writes; a damaged
                                                  chroma/ is moved aside, never deleted)

Read-only commands open the store with ``open_read_only``: they create and change no file.
"""

from __future__ import annotations

import argparse

from ..engine import MemoryEngine
from ..readonly import open_for_writing, open_read_only
from ..views import checked_as_of, checked_namespace, entry_history, known_entry
from .args import store_parser, tx_number
from .terminal import entry_row, safe, show, state_lines, transaction_lines

READ_ONLY = {"inspect", "replay", "explain", "history"}


def _parser(command: str) -> argparse.ArgumentParser:
    parser = store_parser(command, __doc__)
    if command == "replay":
        parser.add_argument("namespace")
        parser.add_argument("--as-of", type=tx_number, required=True, help="transaction number")
    elif command in ("explain", "history"):
        parser.add_argument("entry_id")
        parser.add_argument("--as-of", type=tx_number, default=None, help="transaction number")
    elif command == "pending":
        parser.add_argument("action", nargs="?", choices=["list", "accept", "reject"], default="list")
        parser.add_argument("entry_id", nargs="?")
        parser.add_argument("--namespace", default=None)
        parser.add_argument("--note", default=None, help="why (kept in the log)")
    elif command == "inspect":
        parser.add_argument("--namespace", default=None)
        parser.add_argument("--log", action="store_true", help="print the transaction log instead")
    elif command == "sweep":
        parser.add_argument("--namespace", default=None)
    return parser


def main(command: str, argv: list[str]) -> int:
    parser = _parser(command)
    args = parser.parse_args(argv)
    if command == "pending" and (args.action == "list") != (args.entry_id is None):
        parser.error("accept and reject take an ENTRY_ID; list takes none")
    writes = command not in READ_ONLY and not (command == "pending" and args.action == "list")
    if command == "reindex":              # a damaged index cannot be opened; open(reindex=True) rebuilds it
        with open_for_writing(args.store, reindex=True) as engine:
            print(f"reindexed {safe(args.store)} up to transaction {engine.store.head()}")
        return 0
    with (open_for_writing(args.store) if writes else open_read_only(args.store)) as engine:
        _run(engine, command, args)
    return 0


def _run(engine: MemoryEngine, command: str, args: argparse.Namespace) -> None:
    namespaces = [checked_namespace(engine, args.namespace)] if getattr(args, "namespace", None) else None
    if command == "replay":
        show(state_lines(engine.state(checked_namespace(engine, args.namespace), as_of=checked_as_of(engine, args.as_of))))
    elif command == "explain":
        show(engine.explain(args.entry_id, as_of=checked_as_of(engine, args.as_of)).lines())
    elif command == "history":
        entry = known_entry(engine, args.entry_id)
        print(f"{safe(entry.id)} [{entry.ledger.value}] {safe(entry.text)}")
        for t in entry_history(engine, args.entry_id, as_of=checked_as_of(engine, args.as_of)):
            show(transaction_lines(t))
    elif command == "pending" and args.action != "list":
        show(transaction_lines(engine.verify(args.entry_id, args.action == "accept", note=args.note)))
    elif command == "pending":
        for ns in namespaces or engine.namespaces():
            rows = engine.pending(ns)
            print(f"# {safe(ns)}  pending ({len(rows)})")
            for e in rows:
                print(entry_row(e))
    elif command == "sweep":
        for t in engine.sweep(namespace=args.namespace):
            show(transaction_lines(t))
    elif args.log:
        for ns in namespaces or [None]:
            for t in engine.log(ns):
                show(transaction_lines(t))
    else:
        for ns in namespaces or engine.namespaces():
            show(state_lines(engine.state(ns)))
