"""Export / import: a lossless round trip of ledgers and log, checked at every transaction."""

from __future__ import annotations

import io
import json
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shared_core.cli import main
from shared_core.engine import MemoryEngine
from shared_core.errors import TarlError
from shared_core.schema import Claim
from shared_core.transfer import export_log, import_log, read_log


def assert_same_store(a: MemoryEngine, b: MemoryEngine) -> None:
    """Same log, and the same three ledgers of every namespace after every transaction."""
    assert a.namespaces() == b.namespaces()
    assert a.log() == b.log()
    for ns in a.namespaces():
        for tx in range(0, a.store.head() + 1):
            assert a.state(ns, as_of=tx) == b.state(ns, as_of=tx), (ns, tx)
        assert a.state(ns) == b.state(ns)


def beliefs_store(engine: MemoryEngine) -> None:
    """Every kind of transaction: decisions, verification, cascades, groups, results, expiry."""
    ns = "lab"
    premise = engine.write(Claim(text="The reagent batch 7 is pure", namespace=ns, slot="batch7"))
    engine.write(Claim(text="Assay A works on batch 7", namespace=ns, depends_on=(premise.entry_id,)))
    group = engine.exclusion_group("Which enzyme is responsible?", ns)
    h1 = engine.hypothesis("Enzyme X is responsible", ns, prior=0.7, group=group.id)
    engine.hypothesis("Enzyme Y is responsible", ns, prior=0.3, group=group.id)
    engine.start_experiment(h1.id, "Knock out X")
    engine.record_result(h1.id, confirmed=False)
    engine.retract(premise.entry_id, note="batch 7 was contaminated")
    maybe = engine.write(Claim(text="Maybe the lab moves in June", namespace=ns, source="assistant"))
    engine.verify(maybe.entry_id, accept=False)
    engine.write(Claim(text="Door code is 4411", namespace="ops", metadata={"ttl_seconds": 1, "tags": ["a", 1.5]}))
    engine.sweep(now=engine.clock() + timedelta(hours=1))


def test_cli_round_trip_of_the_demo_and_a_beliefs_store(demo_store, tmp_path, tree_state, capsys):
    with MemoryEngine.open(demo_store) as engine:
        beliefs_store(engine)
    before = tree_state(demo_store)
    out = tmp_path / "export.jsonl"
    assert main(["export", str(demo_store), "-o", str(out)]) == 0
    assert tree_state(demo_store) == before                           # export is read-only
    header = json.loads(out.read_text().splitlines()[0])
    assert header["format"] == "tarl-log" and header["transactions"] == len(out.read_text().splitlines()) - 1
    assert main(["import", str(tmp_path / "copy"), str(out)]) == 0
    assert "imported" in capsys.readouterr().err
    with MemoryEngine.open(demo_store) as a, MemoryEngine.open(tmp_path / "copy") as b:
        assert_same_store(a, b)
        assert [h.entry.id for h in b.search("Where does Maya live?", "user:maya")] == \
            [h.entry.id for h in a.search("Where does Maya live?", "user:maya")]     # index rebuilt


def test_export_to_stdout_and_import_from_stdin(demo_store, tmp_path, capsys, monkeypatch):
    assert main(["export", str(demo_store)]) == 0
    dump = capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO(dump))
    assert main(["import", str(tmp_path / "copy"), "-"]) == 0
    with MemoryEngine.open(demo_store) as a, MemoryEngine.open(tmp_path / "copy") as b:
        assert_same_store(a, b)


claims = st.builds(
    lambda who, what, source, slot, conf: Claim(text=f"{who} {what}", namespace=f"user:{who}", source=source,
                                                slot=f"{who}:{what.split()[0]}" if slot else None, confidence=conf),
    st.sampled_from(["Ana", "Ben"]),
    st.sampled_from(["lives in Rome", "lives in Oslo", "likes tea", "maybe likes jazz", "has 2 cats"]),
    st.sampled_from(["user", "tool", "assistant", "third_party"]), st.booleans(), st.floats(0.05, 1.0),
)
ops = st.one_of(st.tuples(st.just("write"), claims), st.tuples(st.sampled_from(["accept", "reject", "retract"]),
                                                              st.integers(0, 50)))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ops, min_size=1, max_size=14))
def test_round_trip_is_lossless_for_any_history(sequence):
    with MemoryEngine.open() as a, MemoryEngine.open() as b:
        for op, arg in sequence:
            if op == "write":
                a.write(arg)
                continue
            entries = [e for ns in a.namespaces() for e in a.state(ns).entries.values()]
            try:
                target = entries[arg % len(entries)].id if entries else "none"
                a.retract(target) if op == "retract" else a.verify(target, accept=op == "accept")
            except TarlError:
                pass                                      # an entry in the wrong ledger: refused, nothing written
        buffer = io.StringIO()
        export_log(a, buffer)
        import_log(b, read_log(io.StringIO(buffer.getvalue())))
        assert_same_store(a, b)


def test_bad_imports_are_refused_and_create_nothing(demo_store, tmp_path, capsys):
    dump = tmp_path / "dump.jsonl"
    assert main(["export", str(demo_store), "-o", str(dump)]) == 0
    capsys.readouterr()
    lines = dump.read_text().splitlines()
    cases = {
        "header": ("not json\n", "not a tarl export"),
        "version": (json.dumps({"format": "tarl-log", "version": 99}) + "\n", "version=99"),
        "field": ("\n".join([lines[0], lines[1].replace('"action":"append"', '"action":"teleport"')]), "line 2"),
        "gap": ("\n".join([lines[0], lines[2]]), "tx=2: expected transaction 1"),
        "move": ("\n".join([lines[0], lines[1], lines[1].replace('"tx":1', '"tx":2', 1)]), "tx 2"),
    }
    for name, (text, message) in cases.items():
        bad = tmp_path / f"{name}.jsonl"
        bad.write_text(text)
        assert main(["import", str(tmp_path / name), str(bad)]) == 2, name
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, (name, err)
        assert not (tmp_path / name).exists(), name
    assert main(["import", str(demo_store), str(dump)]) == 2          # never into a store with history
    assert "import only into a new or empty store" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "x"), str(tmp_path / "nope.jsonl")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["export", str(demo_store), "-o", str(tmp_path / "no" / "such" / "dir" / "f")]) == 2
    assert "No such file or directory" in capsys.readouterr().err
