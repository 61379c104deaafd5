"""``tarl inspect`` and ``tarl replay``: read a store from the shell, each a thin wrapper over one engine read.

    tarl inspect STORE [--namespace NS]          the three ledgers now (every namespace by default)
    tarl inspect STORE --log [--namespace NS]    the transaction log
    tarl replay STORE NS --as-of TX              the ledgers exactly as they were after transaction TX
    tarl explain STORE ENTRY_ID [--as-of TX]     why an entry is where it is (justifications, transactions)
    tarl sweep STORE [--namespace NS]            expire what ran past its validity or TTL (writes)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .engine import MemoryEngine
from .executor import MemoryState
from .schema import Transaction


def print_state(state: MemoryState) -> None:
    print(f"# {state.namespace}")
    for name, rows in (("accepted", state.accepted), ("pending", state.pending), ("history", state.history)):
        print(f"  {name} ({len(rows)})")
        for e in rows:
            why = f"  [{e.reason.value}{': ' + e.note if e.note else ''}]" if e.reason else ""
            print(f"    {e.id}  tx{e.created_tx:<5} {e.source:<11} {e.text}{why}")


def print_transaction(t: Transaction) -> None:
    claim = f" {t.claim.text!r}" if t.claim else ""
    target = f" -> {t.target_id}" if t.target_id else ""
    why = f"  ({t.decision.rationale})" if t.decision and t.decision.rationale else ""
    if t.decision is not None and t.decision.decided_by != "policy":      # escalated to an LLM judge
        why += f"  [{t.decision.decided_by}, {t.decision.judge_ms or 0:.0f} ms]"
    print(f"tx{t.tx:<5} {t.at:%Y-%m-%d %H:%M:%S} {t.namespace:<14} {t.action.value:<15}{claim}{target}{why}")
    for m in t.moves:
        src = m.from_ledger.value if m.from_ledger else "new"
        reason = f" [{m.reason.value}]" if m.reason else ""
        print(f"        {m.entry_id}: {src} -> {m.to_ledger.value}{reason}")


def main(command: str, argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog=f"tarl {command}", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("store", type=Path, help="the store folder given to MemoryEngine.open")
    if command == "replay":
        parser.add_argument("namespace")
        parser.add_argument("--as-of", type=int, required=True, help="transaction number")
    elif command == "explain":
        parser.add_argument("entry_id")
        parser.add_argument("--as-of", type=int, default=None, help="transaction number")
    elif command == "sweep":
        parser.add_argument("--namespace", default=None)
    else:
        parser.add_argument("--namespace", default=None)
        parser.add_argument("--log", action="store_true", help="print the transaction log instead")
    args = parser.parse_args(argv)
    if not (args.store / "ledger.db").exists():
        parser.error(f"store={str(args.store)!r}: no ledger.db there")
    with MemoryEngine.open(args.store) as engine:
        if command == "replay":
            print_state(engine.state(args.namespace, as_of=args.as_of))
        elif command == "explain":
            print("\n".join(engine.explain(args.entry_id, as_of=args.as_of).lines()))
        elif command == "sweep":
            for t in engine.sweep(namespace=args.namespace):
                print_transaction(t)
        elif args.log:
            for t in engine.log(args.namespace):
                print_transaction(t)
        else:
            for ns in [args.namespace] if args.namespace else engine.namespaces():
                print_state(engine.state(ns))
    return 0
