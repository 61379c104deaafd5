"""The dashboard over HTTP, served by the real ``tarl ui`` server on loopback: pages, escaping,
read-only refusal, the write path through ``engine.verify``, and the binding rules."""

from __future__ import annotations

import re

import httpx
import pytest
from markupsafe import escape

from shared_core.cli import main
from shared_core.engine import MemoryEngine
from shared_core.schema import Claim, Ledger
from shared_core.ui.server import prepare

NS = "user:maya"
SCRIPT = "<script>alert('x')</script>"
IMG = '"><img src=x onerror=alert(1)>'


def _token(html: str) -> str:
    return re.search(r'name="token" value="([^"]+)"', html).group(1)


def test_every_page_renders_on_the_demo_store(demo_store, serve_ui, tree_state):
    with MemoryEngine.open(demo_store) as engine:
        first, pending = engine.state(NS).history[0], engine.state(NS).pending[0]
    before = tree_state(demo_store)
    base = serve_ui(demo_store)
    with httpx.Client(base_url=base) as http:
        home = http.get("/")
        assert home.status_code == 200 and "read-only" in home.text and NS in home.text
        assert "default-src 'none'" in home.headers["content-security-policy"]
        now = http.get("/ledgers", params={"ns": NS}).text
        then = http.get("/ledgers", params={"ns": NS, "as_of": 4}).text
        assert "Maya moved to Porto" in now and "Maya moved to Porto" not in then
        assert "As it was after transaction 4" in then
        page = http.get("/entry", params={"id": first.id}).text
        assert str(escape(first.text)) in page and "superseded" in page and "Every transaction that touched it" in page
        assert pending.text in http.get("/pending").text
        assert "Maya is allergic to peanuts" in http.get("/search", params={"ns": NS, "q": "allergic"}).text
        assert http.get("/janus").status_code == 200
        assert http.get("/static/app.js").status_code == 200
        assert http.get("/entry", params={"id": "nope"}).status_code == 404
        assert http.get("/ledgers", params={"ns": NS, "as_of": "999"}).status_code == 400
        assert http.get("/ledgers", params={"ns": "nobody"}).status_code == 400
    assert tree_state(demo_store) == before                 # a read-only dashboard changes no file


def test_read_only_server_refuses_writes_with_403(demo_store, serve_ui, tree_state):
    with MemoryEngine.open(demo_store) as engine:
        pending = engine.state(NS).pending[0]
    before = tree_state(demo_store)
    with httpx.Client(base_url=serve_ui(demo_store)) as http:
        page = http.get("/pending").text
        assert "disabled" in page
        for verdict in ("accept", "reject"):
            refused = http.post(f"/pending/{verdict}", data={"id": pending.id, "token": _token(page)})
            assert refused.status_code == 403 and "read-only" in refused.text
    assert tree_state(demo_store) == before


def test_write_server_accepts_through_the_engine_and_checks_its_token(demo_store, serve_ui):
    with MemoryEngine.open(demo_store) as engine:
        pending = engine.state(NS).pending[0]
        head = engine.store.head()
    with httpx.Client(base_url=serve_ui(demo_store, write=True), follow_redirects=True) as http:
        page = http.get("/pending").text
        assert http.post("/pending/accept", data={"id": pending.id, "token": "forged"}).status_code == 403
        assert http.post("/pending/frob", data={"id": pending.id, "token": _token(page)}).status_code == 404
        done = http.post("/pending/accept", data={"id": pending.id, "token": _token(page)})
        assert done.status_code == 200 and "pending → " in done.text          # followed the 303 to /pending
        assert http.post("/pending/accept", data={"id": pending.id, "token": _token(page)}).status_code == 400
    with MemoryEngine.open(demo_store) as engine:
        assert engine.get(pending.id).ledger is Ledger.ACCEPTED
        assert [t.action.value for t in engine.log(after=head)] == ["promote"]     # one logged engine call


@pytest.mark.parametrize("where", ["text", "namespace"])
def test_hostile_text_and_namespaces_render_as_text(tmp_path, serve_ui, where):
    ns = f"user:{SCRIPT}{IMG}" if where == "namespace" else "user:eve"
    with MemoryEngine.open(tmp_path / "s") as engine:
        d = engine.write(Claim(text=f"Eve says {SCRIPT} and {IMG}", namespace=ns))
        p = engine.write(Claim(text=f"Maybe {IMG} Eve owns a boat", namespace=ns, source="assistant"))
    with httpx.Client(base_url=serve_ui(tmp_path / "s")) as http:
        pages = [http.get("/"), http.get("/ledgers", params={"ns": ns}), http.get("/entry", params={"id": d.entry_id}),
                 http.get("/entry", params={"id": p.entry_id}), http.get("/pending"),
                 http.get("/search", params={"ns": ns, "q": f"Eve {SCRIPT}{IMG}"}),
                 http.get("/ledgers", params={"ns": f"{SCRIPT}{IMG}"})]
    for response in pages:
        assert "<script>alert" not in response.text and "<img src=x" not in response.text, response.url
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in pages[1].text
    assert "&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in pages[1].text


def test_binds_loopback_by_default_and_refuses_foreign_host_headers(demo_store, serve_ui):
    server, sock, handle = prepare([str(demo_store), "--port", "0"])
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()
        handle.close()
    base = serve_ui(demo_store)
    assert httpx.get(base + "/", headers={"Host": "attacker.example"}).status_code == 400   # DNS rebinding


def test_read_only_server_follows_a_live_writer(demo_store, serve_ui):
    base = serve_ui(demo_store)
    assert "Maya owns a kayak" not in httpx.get(base + "/ledgers", params={"ns": NS}).text
    with MemoryEngine.open(demo_store) as engine:
        engine.write(Claim(text="Maya owns a kayak", namespace=NS))
        assert "Maya owns a kayak" in httpx.get(base + "/ledgers", params={"ns": NS}).text   # writer still open
    assert "Maya owns a kayak" in httpx.get(base + "/ledgers", params={"ns": NS}).text


def test_ui_command_errors_are_one_line(tmp_path, capsys):
    assert main(["ui", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tarl: error: store=") and err.count("\n") == 1
    assert main(["ui", str(tmp_path), "--port", "x"]) == 2
    assert "invalid int value" in capsys.readouterr().err


def test_janus_page_lists_each_decision_with_its_verdict(tmp_path, serve_ui):
    from shared_core.janus import Verdict
    from shared_core.janus.controller import JanusDecision
    from shared_core.janus.ledger import JanusLedger

    with MemoryEngine.open(tmp_path / "s") as engine:
        ledger = JanusLedger(engine, "agent/reflections")
        ledger.record(JanusDecision(step=1, verdict=Verdict.NO_TRIGGER, current=(), candidate=("use carry",)))
        ledger.record(JanusDecision(step=2, verdict=Verdict.CURRENT_BETTER, current=("use carry",),
                                    candidate=("use <b>borrow</b>",), score_current=0.9, score_candidate=0.4))
    page = httpx.get(serve_ui(tmp_path / "s") + "/janus").text
    assert page.index("step 2 · current_better") < page.index("step 1 · no_trigger")
    assert "use &lt;b&gt;borrow&lt;/b&gt;" in page and "reject_conflict" in page and "use carry" in page
