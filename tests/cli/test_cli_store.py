"""The store commands on a real store written by the demo: output, read-only guarantees, one-line errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_core.cli import main
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger

NS = "user:maya"
READ_ONLY = [
    ["inspect", "{store}"],
    ["inspect", "{store}", "--log"],
    ["inspect", "{store}", "--namespace", NS],
    ["replay", "{store}", NS, "--as-of", "3"],
    ["explain", "{store}", "{entry}"],
    ["history", "{store}", "{entry}"],
    ["pending", "{store}"],
    ["pending", "{store}", "list", "--namespace", NS],
    ["export", "{store}"],
]


def _ids(store) -> dict[str, str]:
    with MemoryEngine.open(store) as engine:
        state = engine.state(NS)
        first = next(e for e in state.entries.values() if e.text == "Maya lives in Lisbon")
        return {"first": first.id, "pending": state.pending[0].id}


@pytest.mark.parametrize("argv", READ_ONLY, ids=lambda a: " ".join(a[:1] + a[2:]))
def test_read_only_commands_change_no_file(argv, demo_store, tree_state, capsys):
    entry = _ids(demo_store)["first"]
    before = tree_state(demo_store)
    assert main([a.format(store=demo_store, entry=entry) for a in argv]) == 0
    assert tree_state(demo_store) == before
    assert capsys.readouterr().out


def test_read_only_on_a_store_left_with_a_wal_still_changes_no_content(demo_store, tree_state, capsys):
    """A ``-wal`` left behind (crash, or a live writer) is read through, not recreated or rewritten."""
    import sqlite3

    db = sqlite3.connect(demo_store / "ledger.db")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute("INSERT INTO meta (key, value) VALUES ('probe', '1')")
    before = {k: v[0] for k, v in tree_state(demo_store).items()}
    try:
        assert main(["inspect", str(demo_store), "--log"]) == 0
        assert {k: v[0] for k, v in tree_state(demo_store).items() if k != "ledger.db-shm"} == \
            {k: v for k, v in before.items() if k != "ledger.db-shm"}
    finally:
        db.close()


def test_history_lists_every_transaction_that_touched_an_entry(demo_store, capsys):
    lisbon = _ids(demo_store)["first"]
    with MemoryEngine.open(demo_store) as engine:
        log = engine.log(NS)
    moved = [t.tx for t in log if any(m.entry_id == lisbon for m in t.moves)]
    weighed = [t.tx for t in log if t.target_id == lisbon and t.tx not in moved]   # e.g. a noop restating it
    assert moved and weighed
    assert main(["history", str(demo_store), lisbon]) == 0
    out = capsys.readouterr().out
    assert "Maya lives in Lisbon" in out.splitlines()[0]
    shown = [int(line.split()[0][2:]) for line in out.splitlines()[1:] if line.startswith("tx")]
    assert shown == sorted(moved + weighed)
    assert out.count("learned:") == len(shown)                        # each with its rationale


def test_pending_accept_and_reject_move_the_entry_and_show_in_the_log(demo_store, capsys):
    pending = _ids(demo_store)["pending"]
    assert main(["pending", str(demo_store), "accept", pending, "--note", "user confirmed"]) == 0
    assert "pending -> accepted" in capsys.readouterr().out
    with MemoryEngine.open(demo_store) as engine:
        assert engine.get(pending).ledger is Ledger.ACCEPTED
        assert engine.log()[-1].action.value == "promote"
        rumour = engine.write(Claim(text="Maya might own a boat", namespace=NS, source="assistant"))
    assert main(["pending", str(demo_store)]) == 0
    assert rumour.entry_id in capsys.readouterr().out
    assert main(["pending", str(demo_store), "reject", rumour.entry_id]) == 0
    assert "pending -> history [rejected]" in capsys.readouterr().out


def test_sweep_and_reindex_run_on_a_store(demo_store, capsys):
    assert main(["sweep", str(demo_store)]) == 0
    assert main(["reindex", str(demo_store)]) == 0
    assert "reindexed" in capsys.readouterr().out


def _error(argv, capsys) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tarl: error: "), captured.err
    assert "Traceback" not in captured.err + captured.out
    return lines[0]


def test_user_errors_are_one_line_with_exit_code_2(demo_store, tmp_path, tree_state, capsys):
    store, first = str(demo_store), _ids(demo_store)["first"]
    before = tree_state(demo_store)
    assert "entry_id='nope'" in _error(["explain", store, "nope"], capsys)
    assert "entry_id='nope'" in _error(["history", store, "nope"], capsys)
    assert "out of range" in _error(["replay", store, NS, "--as-of", "9" * 40], capsys)
    assert "as_of=999" in _error(["replay", store, NS, "--as-of", "999"], capsys)
    assert "as_of=999" in _error(["explain", store, first, "--as-of", "999"], capsys)
    assert "not a transaction number" in _error(["replay", store, NS, "--as-of", "x"], capsys)
    assert "namespace='nobody'" in _error(["replay", store, "nobody", "--as-of", "1"], capsys)
    assert "take an ENTRY_ID" in _error(["pending", store, "accept"], capsys)
    assert "unknown command" in _error(["frobnicate"], capsys)
    assert "unknown benchmark" in _error(["bench", "nope"], capsys)
    assert tree_state(demo_store) == before
    assert "entry_id='nope'" in _error(["pending", store, "accept", "nope"], capsys)
    missing = tmp_path / "missing"
    assert "no such folder" in _error(["inspect", str(missing)], capsys)
    assert "no such folder" in _error(["sweep", str(missing)], capsys)
    assert not missing.exists()                                       # a write command never creates a store
    (tmp_path / "empty").mkdir()
    assert "no ledger.db" in _error(["pending", str(tmp_path / "empty"), "accept", "x"], capsys)
    assert list((tmp_path / "empty").iterdir()) == []
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "ledger.db").write_text("not a database at all, just text\n" * 50)
    assert "not a readable SQLite database" in _error(["inspect", str(tmp_path / "text")], capsys)
    import sqlite3

    (tmp_path / "other").mkdir()
    sqlite3.connect(tmp_path / "other" / "ledger.db").execute("CREATE TABLE t (x)").connection.close()
    assert "not a tarl ledger" in _error(["explain", str(tmp_path / "other"), "x"], capsys)


def test_terminal_output_escapes_control_characters(tmp_path, capsys):
    hostile_ns = "user:\x1b]0;pwned\x07eve"
    with MemoryEngine.open(tmp_path / "s") as engine:
        d = engine.write(Claim(text="Eve likes \x1b[2J\x1b[31mred\u202e and\nnew lines", namespace=hostile_ns))
        engine.write(Claim(text="Maybe Eve \x9b owns a \x1b[5mboat", namespace=hostile_ns, source="assistant"))
    for argv in (["inspect", str(tmp_path / "s")], ["inspect", str(tmp_path / "s"), "--log"],
                 ["history", str(tmp_path / "s"), d.entry_id], ["explain", str(tmp_path / "s"), d.entry_id],
                 ["pending", str(tmp_path / "s")], ["replay", str(tmp_path / "s"), hostile_ns, "--as-of", "1"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert not any(c in out for c in "\x1b\x07\x9b\u202e"), (argv, out)
        assert "\\x1b" in out
    assert main(["explain", str(tmp_path / "s"), "\x1b[2Jnope"]) == 2
    assert "\x1b" not in capsys.readouterr().err


@given(st.text())
def test_safe_never_lets_a_control_character_through(text):
    import unicodedata

    from shared_core.cli.terminal import safe

    shown = safe(text)
    assert all(c == "\t" or unicodedata.category(c) not in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn") for c in shown)
    assert safe(shown) == shown                                       # escaping twice changes nothing
    assert all(c in shown for c in text if c.isprintable())           # readable text stays readable


def test_a_damaged_index_is_one_line_naming_reindex_which_rebuilds_it(demo_store, tree_state):
    import os
    import subprocess
    import sys
    from pathlib import Path

    def tarl(*argv: str) -> subprocess.CompletedProcess[str]:      # a real process: embedded Chroma is per process
        root = Path(__file__).resolve().parents[2]
        return subprocess.run([sys.executable, "-m", "shared_core.cli", *argv], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": str(root)}, timeout=300)

    with open(demo_store / "chroma" / "chroma.sqlite3", "r+b") as f:
        f.write(b"not a database" * 64)
    assert tarl("inspect", str(demo_store)).returncode == 0                   # reads never need the index
    broken = tarl("sweep", str(demo_store))
    assert broken.returncode == 2, broken.stderr
    assert broken.stderr.count("\n") == 1 and "tarl reindex" in broken.stderr and "Traceback" not in broken.stderr
    rebuilt = tarl("reindex", str(demo_store))
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert tarl("sweep", str(demo_store)).returncode == 0
    assert any(p.name.startswith("chroma.replaced-") for p in demo_store.iterdir())   # moved aside, not deleted
