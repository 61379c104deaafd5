"""Chroma serves reads: on PostgreSQL + a Chroma server, the only state processes share is the ledger
database and the server, and a process with nothing warm searches and decides exactly as the writer
does, even while the index lags; an entry closed in the ledger never surfaces, whatever Chroma says."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from shared_core import decision as deciding
from shared_core.engine import MemoryEngine
from shared_core.executor import Step
from shared_core.index.behind import INDEXED_TX
from shared_core.index.served import ServedNeighbours
from shared_core.schema import Action, Claim, Ledger

ROOT = Path(__file__).resolve().parents[2]
NS = "u"
FACTS = [("Ana lives in Rome", "ana:home"), ("Ana works at the bakery", "ana:job"), ("Ben likes green tea", None),
         ("Ben drives a blue Volvo", "ben:car"), ("Chloe has order #A-1042", None), ("Ana moved to Oslo", "ana:home"),
         ("Dev plays chess on Sundays", None), ("Ben now drives a grey Tesla", "ben:car"), ("Elif lives in Kyoto", "elif:home"),
         ("Chloe's order #A-1042 was refunded", None), ("Ana works at Nordlys now", "ana:job"), ("Farid likes jazz", None)]
QUERIES = ["where does Ana live", "what does Ben drive", "order #A-1042", "who likes jazz or tea", "Ana's job"]
PROBES = [("Ana lives in Oslo", "ana:home"), ("Ben drives a grey Tesla", "ben:car"), ("Greta likes sushi", None),
          ("Ana works at the bakery", "ana:job")]

WORKER = """
import json, sys
from shared_core import decision as deciding
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim
sys.path.insert(0, sys.argv[3])
from test_server_reads import FACTS, observe
target, url, mode = sys.argv[1], sys.argv[2], sys.argv[4]
with MemoryEngine.open(target, chroma_url=url) as engine:
    if mode == "write":
        for text, slot in FACTS:
            engine.write(Claim(text=text, namespace="u", slot=slot))
    else:
        print("ready", flush=True)
        sys.stdin.readline()                     # the parent may make the index lag meanwhile
    print(json.dumps(observe(engine)), flush=True)
"""


def observe(engine: MemoryEngine) -> dict:
    """What a process sees: every query's hits and every probe claim's decision (not executed)."""
    hits = {q: [[h.entry.id, h.score] for h in engine.search(q, NS, k=4)] for q in QUERIES}
    decided = {}
    for text, slot in PROBES:
        claim = Claim(text=text, namespace=NS, slot=slot)
        outcome = deciding.decide(claim, *engine.candidates(claim, engine.index.embed([text])[0]),
                                  engine.policy, engine.config)
        decided[text] = [outcome.decision.action.value, outcome.decision.target_id]
    return {"hits": hits, "decided": decided}


def same(seen: dict, expected: dict) -> bool:
    """The same hits in the same order and the same decisions; scores equal up to float32 rounding
    (Chroma's distance of an indexed row, or our dot product of a row not indexed yet)."""
    ids = {q: [i for i, _ in hits] for q, hits in seen["hits"].items()}
    assert ids == {q: [i for i, _ in hits] for q, hits in expected["hits"].items()}
    for q, hits in seen["hits"].items():
        assert [s for _, s in hits] == pytest.approx([s for _, s in expected["hits"][q]], abs=1e-5)
    assert seen["decided"] == expected["decided"]
    return True


def _process(target: str, url: str, mode: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-c", WORKER, target, url, str(Path(__file__).parent), mode],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _result(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def lag(engine: MemoryEngine, upto: int) -> None:
    """Make the index look exactly as the write-behind left it after transaction ``upto``: rows as
    they were then (closed-since entries marked accepted again, newer ones absent), watermark there."""
    then = {e.id: e for e in engine.store.state(NS, as_of=upto).entries.values()}
    moved = {m.entry_id for _, m in engine.store.moves_since(upto)}
    engine.index.remove(i for i in moved if i not in then or then[i].ledger is Ledger.HISTORY)
    engine.index.upsert([then[i] for i in moved if i in then])
    engine.store.set_meta(INDEXED_TX, str(upto))


@pytest.mark.enable_socket
def test_a_fresh_process_searches_and_decides_as_the_writer_did(pg_url, chroma_url):
    with MemoryEngine.open(pg_url, chroma_url=chroma_url):
        pass                                                           # create the store once
    seen_by_writer = _result(_process(pg_url, chroma_url, "write"))
    reader = _process(pg_url, chroma_url, "read")
    assert reader.stdout is not None and reader.stdout.readline().strip() == "ready"
    reader.stdin.write("go\n")
    reader.stdin.flush()
    assert same(_result(reader), seen_by_writer)

    lagging = _process(pg_url, chroma_url, "read")                     # opened (and reconciled) first,
    assert lagging.stdout is not None and lagging.stdout.readline().strip() == "ready"
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:      # then the index falls behind
        closed = [e.id for e in eng.history(NS)]
        assert closed and eng.store.head() > 6
        lag(eng, 4)
        rows = eng.index.collection.get(ids=closed, include=["metadatas"])
        assert {m["ledger"] for m in rows["metadatas"]} == {"accepted"}   # Chroma still says accepted
    lagging.stdin.write("go\n")
    lagging.stdin.flush()
    assert same(_result(lagging), seen_by_writer)
    assert seen_by_writer["hits"]["where does Ana live"][0][0] not in closed


@pytest.mark.enable_socket
@pytest.mark.parametrize("watermark", ["behind", "claims_current"])
def test_an_entry_closed_in_the_ledger_never_surfaces_from_a_lagging_index(pg_url, chroma_url, watermark):
    with MemoryEngine.open(pg_url, chroma_url=chroma_url) as eng:
        assert isinstance(eng.vectors, ServedNeighbours)              # reads come from the server
        old = eng.apply(NS, [Step(Action.APPEND, Claim(text="Ana lives in Rome", namespace=NS, slot="home"))])[0].created[0].id
        eng.apply(NS, [Step(Action.APPEND, Claim(text="Ben lives in Rome too", namespace=NS))])
        eng.flush()
        before = eng.store.head()
        eng.retract(old)
        eng.flush()
        lag(eng, before)                                               # Chroma: old is accepted
        if watermark == "claims_current":                              # ... and the watermark lies
            eng.store.set_meta(INDEXED_TX, str(eng.store.head()))
        assert eng.index.query(eng.index.embed(["Ana lives in Rome"])[0], NS, 5)[0][0] == old
        for query in ("where does Ana live", "Ana lives in Rome", "Rome"):
            assert old not in [h.entry.id for h in eng.search(query, NS, k=5)]
        claim = Claim(text="Ana lives in Rome", namespace=NS, slot="home")
        seen, _ = eng.candidates(claim, eng.index.embed([claim.text])[0])
        assert old not in [e.id for e, _ in seen]
        assert eng.write(claim).action is Action.APPEND                # nothing open to restate


@pytest.mark.enable_socket
def test_a_small_namespace_beside_a_large_one_finds_only_its_own_accepted_entries(tmp_path, chroma_url):
    with MemoryEngine.open(tmp_path, chroma_url=chroma_url) as eng:   # Chroma is asked unfiltered first
        eng.apply("big", [Step(Action.APPEND, Claim(text=f"Ana lives in Rome, note {i}", namespace="big"))
                          for i in range(300)])
        mine = [eng.apply("small", [Step(Action.APPEND, Claim(text=t, namespace="small"))])[0].created[0].id
                for t in ("Ana lives in Oslo", "Ana likes tea")]
        waiting = eng.apply("small", [Step(Action.DEFER_VERIFY, Claim(text="Ana lives in Rome", namespace="small"))])
        eng.flush()
        hits = eng.search("where does Ana live in Rome", "small", k=5)
        assert sorted(h.entry.id for h in hits) == sorted(mine)
        claim = Claim(text="Ana lives in Rome", namespace="small")
        near, _ = eng.candidates(claim, eng.index.embed([claim.text])[0])
        assert {e.id for e, _ in near} == set(mine) | {waiting[0].created[0].id}
        assert len(eng.search("Ana lives in Rome", "big", k=7)) == 7


@pytest.mark.enable_socket
def test_reads_and_writes_go_on_from_the_ledger_while_the_chroma_server_is_down(tmp_path, index_and_ledger):
    from tests.conftest import CHROMA, free_port, start_chroma, wait_for_port

    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed")
    port = free_port()
    server = start_chroma(tmp_path / "chroma-data", port)
    assert wait_for_port(port, server)
    url = f"http://127.0.0.1:{port}"
    try:
        with MemoryEngine.open(tmp_path / "store", chroma_url=url) as eng:
            for text, slot in FACTS:
                eng.write(Claim(text=text, namespace=NS, slot=slot))
            eng.flush()
            up = observe(eng)
            server.kill()
            server.wait()
            assert same(observe(eng), up)                             # no error, the same answers
            late = eng.write(Claim(text="Greta likes sushi", namespace=NS))
            assert late.action is Action.APPEND
            server = start_chroma(tmp_path / "chroma-data", port)
            assert wait_for_port(port, server)
            eng.flush()                                                # the index catches up
            indexed, truth = index_and_ledger(eng)
            assert indexed == truth and late.entry_id in indexed
    finally:
        server.kill()
        server.wait()
