"""``tarl demo``: a scripted multi-session conversation about one user, run through the engine on the
embedded default (SQLite + embedded Chroma + offline embedder), printing every decision and the ledgers."""

from __future__ import annotations

import argparse
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .engine import MemoryEngine
from .schema import Claim, Entry

NS = "user:maya"
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)

SESSIONS: list[list[dict]] = [
    [  # session 1: first facts
        {"text": "Maya lives in Lisbon", "slot": "home_city"},
        {"text": "Maya works as a data engineer at Nordlys", "slot": "job"},
        {"text": "Maya is allergic to peanuts", "slot": "allergy"},
        {"text": "Maya's order #A-7731 ships to Rua Augusta 12", "source": "tool", "slot": "order:A-7731:address"},
    ],
    [  # session 2: restatements, hearsay, hedges
        {"text": "Maya lives in Lisbon", "slot": "home_city"},
        {"text": "I heard Maya moved to Berlin", "source": "third_party", "slot": "home_city"},
        {"text": "Maybe Maya likes jazz", "source": "assistant"},
        {"text": "Maya has a dog called Pixel"},
    ],
    [  # session 3: real updates from reliable sources
        {"text": "Maya moved to Porto in May", "slot": "home_city"},
        {"text": "Maya's order #A-7731 now ships to Rua das Flores 40", "source": "tool", "slot": "order:A-7731:address"},
        {"text": "Maya is not allergic to peanuts", "source": "web", "slot": "allergy"},
        {"text": "Maya enjoys trail running on weekends"},
    ],
]


def _row(e: Entry) -> str:
    why = f"  [{e.reason.value}: {e.note}]" if e.reason else ""
    return f"    {e.id}  {e.text!r} (source={e.source}, slot={e.slot}){why}"


def run(path: Path) -> MemoryEngine:
    engine = MemoryEngine.open(path)
    for n, session in enumerate(SESSIONS, 1):
        print(f"\n== session {n}")
        for i, fields in enumerate(session):
            claim = Claim(namespace=NS, observed_at=T0 + timedelta(days=30 * n, minutes=i), **fields)
            d = engine.write(claim)
            print(f"  {d.action.value:<15} {claim.text!r}\n  {'':<15} why: {d.rationale}")
    for question in ("What is Maya allergic to?", "Where does order A-7731 ship?"):
        print(f"\n== recall: {question!r} (Accepted only: hearsay and superseded facts never surface)")
        for hit in engine.search(question, NS, k=2):
            print(f"    {hit.score:.2f}  {hit.entry.text}")
    state = engine.state(NS)
    for name, rows in (("Accepted", state.accepted), ("Pending", state.pending), ("History", state.history)):
        print(f"\n== {name} ({len(rows)})")
        for e in rows:
            print(_row(e))
    return engine


def main(command: str = "demo", argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tarl demo", description=__doc__)
    parser.add_argument("--path", type=Path, default=None, help="store folder (default: a fresh temporary one)")
    args = parser.parse_args(argv or [])
    if args.path is not None:
        run(args.path).close()
        print(f"\nstore kept at {args.path} (try: sqlite3 {args.path / 'ledger.db'} 'select * from entries')")
        return 0
    with tempfile.TemporaryDirectory(prefix="tarl-demo-") as tmp:
        run(Path(tmp)).close()
    return 0
