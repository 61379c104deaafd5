"""Moving a store between machines: the transaction log as JSON Lines, and back.

Why the log and nothing else: every ledger row is the result of a logged transaction (each carries the
entries it created, as they were born, and every move), so the log alone rebuilds all three ledgers at
every past instant; the vector index is derived and is rebuilt on import. The first line is a header
naming the format, so a wrong file is refused before anything is read into a store.

Import copies rows the executor already produced, verbatim (same ids, times and decisions): it is the
one writer besides the executor, and it only ever writes into an empty store, so it can never
contradict existing history. Every line is parsed and the whole log is checked (transaction numbers in
order, every move starting from the ledger its entry is in) before one atomic write.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING

from pydantic import ValidationError

from .errors import TarlError
from .schema import Ledger, Transaction

if TYPE_CHECKING:
    from .engine import MemoryEngine

FORMAT = "tarl-log"
VERSION = 1
Progress = Callable[[Iterable[Transaction], int], Iterable[Transaction]]


def _no_progress(items: Iterable[Transaction], total: int) -> Iterable[Transaction]:
    return items


def export_log(engine: MemoryEngine, out: IO[str], *, progress: Progress = _no_progress) -> int:
    """Write the header and every transaction, oldest first; returns how many were written."""
    head = engine.store.head()
    out.write(json.dumps({"format": FORMAT, "version": VERSION, "transactions": head}) + "\n")
    n = 0
    for t in progress(engine.log(), head):
        out.write(t.model_dump_json() + "\n")
        n += 1
    return n


def read_log(lines: Iterable[str], *, progress: Progress = _no_progress) -> list[Transaction]:
    """Parse and check an exported log; raises ``TarlError`` naming the line and the problem."""
    it = iter(lines)
    header = _header(next(it, ""))
    transactions = list(progress(_parse(it), int(header.get("transactions", 0))))
    check(transactions)
    return transactions


def import_log(engine: MemoryEngine, transactions: list[Transaction]) -> int:
    """Write checked ``transactions`` into ``engine``'s empty store in one atomic step, then bring the
    index up to it; returns the new head."""
    head = engine.store.head()
    if head:
        raise TarlError("store", getattr(engine.store, "path", "?"),
                        f"holds {head} transactions; import only into an empty store")
    with engine.store.writer() as w:
        for t in transactions:
            w.record(t)
    engine.reconcile()
    return engine.store.head()


def _header(line: str) -> dict[str, object]:
    try:
        header = json.loads(line)
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise TarlError("line 1", line.strip()[:80], f"not a tarl export (expected a {FORMAT!r} header)")
    if header.get("version") != VERSION:
        raise TarlError("version", header.get("version"), f"this tarl reads version {VERSION}")
    return header


def _parse(lines: Iterator[str]) -> Iterator[Transaction]:
    for number, line in enumerate(lines, 2):
        if not line.strip():
            continue
        try:
            yield Transaction.model_validate_json(line)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "transaction"
            raise TarlError(f"line {number}", where, first["msg"]) from None


def check(transactions: Iterable[Transaction]) -> None:
    """The log is a history the executor could have written: numbered 1, 2, ...; entries born once;
    every move starts in the ledger its entry is in; premises exist before their dependents."""
    where: dict[str, Ledger] = {}
    expected = 1
    for t in transactions:
        if t.tx != expected:
            raise TarlError("tx", t.tx, f"expected transaction {expected} (transactions must be 1, 2, 3, ...)")
        born = {e.id: e for e in t.created}
        for e in t.created:
            if e.id in where:
                raise TarlError(f"tx {t.tx}", e.id, "creates an entry that already exists")
            if e.created_tx != t.tx:
                raise TarlError(f"tx {t.tx}", e.id, f"entry says created_tx={e.created_tx}")
            missing = [p for p in e.depends_on if p not in where and p not in born]
            if missing:
                raise TarlError(f"tx {t.tx}", e.id, f"rests on unknown entries {missing}")
        for m in t.moves:
            if m.from_ledger is None:
                if m.entry_id not in born or m.entry_id in where:
                    raise TarlError(f"tx {t.tx}", m.entry_id, "is born by a move but not created here")
                where[m.entry_id] = m.to_ledger
            elif where.get(m.entry_id) is not m.from_ledger:
                raise TarlError(f"tx {t.tx}", m.entry_id,
                                f"moves from {m.from_ledger.value} but is in {where.get(m.entry_id, 'no ledger')}")
            else:
                where[m.entry_id] = m.to_ledger
        if set(born) - set(where):
            raise TarlError(f"tx {t.tx}", sorted(set(born) - set(where))[0], "is created without a move")
        expected += 1
