"""The ``tarl ui`` dashboard: a store's ledgers, replayable at any past transaction, in a browser.

Why Starlette + Jinja2, server-rendered: Starlette is a small, well-kept ASGI toolkit (FastAPI is built
on it; its one dependency, anyio, and uvicorn are already here through chromadb), and Jinja2 escapes
every value by default (``autoescape=True``), which is what memory text -- user content -- needs. Pages
are plain HTML forms and links, so the dashboard works without JavaScript; one local script only makes
the timeline slider submit itself. No CDN and no network: every asset is served from ``static/``, and a
Content-Security-Policy allows scripts, styles and forms from this origin only.

Read-only unless started with ``--write``: the store is opened with ``readonly.open_read_only`` and
every POST is refused with 403. With writes, accept/reject are plain ``engine.verify`` calls (they
show in the log like any other transaction), guarded by a per-server form token (a page elsewhere
cannot post to the dashboard) and a loopback Host check (DNS rebinding).
"""

from __future__ import annotations

import hmac
import secrets
import threading
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..engine import MemoryEngine
from ..errors import TarlError, UnknownEntry
from ..readonly import ReadOnlyStore, StoreFiles, ledger_path, open_for_writing, open_read_only
from ..schema import Ledger
from ..views import checked_as_of, checked_namespace, entry_history, janus_decisions, known_entry, rests_on_it

HERE = Path(__file__).parent
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")
HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
TIMELINE_ROWS = 400
"""Transactions listed beside the slider (the newest up to the replayed one); the slider reaches all."""


class StoreHandle:
    """The engine the pages read. Read-only: a snapshot (no writer had the store open) is reopened
    when the ledger's files change, so the dashboard follows a live store; a connection that reads
    through the WAL sees new commits itself. With writes: one ordinary engine."""

    def __init__(self, path: str | Path, *, write: bool = False) -> None:
        self.path, self.write = Path(path), write
        self._db = ledger_path(path)
        self._lock = threading.Lock()
        self._files = StoreFiles.of(self._db)
        self._engine = open_for_writing(path) if write else open_read_only(path)
        self._retired: list[MemoryEngine] = []     # still maybe read by a request in flight; closed at the end

    def engine(self) -> MemoryEngine:
        if self.write:
            return self._engine
        with self._lock:
            if getattr(self._engine.store, "immutable", False) and self._files.changed(self._db):
                self._retired.append(self._engine)
                self._files, self._engine = StoreFiles.of(self._db), open_read_only(self.path)
            return self._engine

    def close(self) -> None:
        for engine in [*self._retired, self._engine]:
            engine.close()


def build_app(store: StoreHandle, *, allowed_hosts: tuple[str, ...] = LOOPBACK) -> Starlette:
    """The ASGI app over ``store``. ``allowed_hosts``: Host headers served (loopback names by default)."""
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    token = secrets.token_urlsafe(24)

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        engine = store.engine()
        html = env.get_template(template).render(
            request=request, write=store.write, token=token, path=str(store.path), namespaces=engine.namespaces(),
            head=engine.store.head(), Ledger=Ledger, **context)
        return HTMLResponse(html, status_code=status, headers=HEADERS)

    def param_as_of(request: Request, engine: MemoryEngine) -> int | None:
        raw = request.query_params.get("as_of", "")
        if not raw:
            return None
        if not raw.isdigit() or len(raw) > 19:
            raise TarlError("as_of", raw, "must be a transaction number")
        return checked_as_of(engine, int(raw))

    def namespace(request: Request, engine: MemoryEngine) -> str | None:
        ns = request.query_params.get("ns")
        if ns:
            return checked_namespace(engine, ns)
        names = engine.namespaces()
        return names[0] if names else None

    async def overview(request: Request) -> Response:
        engine = store.engine()
        counts = {ns: {lg: engine.store.count(ns, lg) for lg in Ledger} for ns in engine.namespaces()}
        return page(request, "overview.html", counts=counts)

    async def ledgers(request: Request) -> Response:
        engine = store.engine()
        ns = namespace(request, engine)
        as_of = param_as_of(request, engine)
        if ns is None:
            return page(request, "overview.html", counts={})
        shown = engine.store.head() if as_of is None else as_of
        timeline = [t for t in engine.log(ns) if t.tx <= shown][-TIMELINE_ROWS:][::-1]
        return page(request, "ledgers.html", ns=ns, as_of=as_of, shown=shown, state=engine.state(ns, as_of=as_of),
                    timeline=timeline)

    async def entry(request: Request) -> Response:
        engine = store.engine()
        entry_id = request.query_params.get("id", "")
        as_of = param_as_of(request, engine)
        known_entry(engine, entry_id)
        explanation = engine.explain(entry_id, as_of=as_of)
        state = engine.state(explanation.entry.namespace, as_of=as_of)
        return page(request, "entry.html", e=explanation.entry, explanation=explanation, as_of=as_of,
                    dependents=rests_on_it(state, explanation.entry), history=entry_history(engine, entry_id, as_of))

    async def pending(request: Request) -> Response:
        engine = store.engine()
        chosen = request.query_params.get("ns")
        names = [checked_namespace(engine, chosen)] if chosen else engine.namespaces()
        queue = {ns: engine.pending(ns) for ns in names}
        done = request.query_params.get("done")
        return page(request, "pending.html", queue=queue, done=engine.log(after=int(done) - 1)[:1]
                    if done and done.isdigit() and len(done) < 19 else [])

    async def verify(request: Request) -> Response:
        if not store.write:
            raise ReadOnlyStore("store", str(store.path), "the dashboard is read-only; start it with tarl ui --write")
        verdict = request.path_params["verdict"]
        if verdict not in ("accept", "reject"):
            return page(request, "error.html", 404, message=f"no such action: {verdict}")
        form = await request.form()
        if not hmac.compare_digest(str(form.get("token", "")), token):
            return page(request, "error.html", 403, message="This form is stale or did not come from this dashboard.")
        t = store.engine().verify(str(form.get("id", "")), verdict == "accept", note=str(form.get("note") or "") or None)
        return RedirectResponse(f"/pending?done={t.tx}", status_code=303)

    async def janus(request: Request) -> Response:
        return page(request, "janus.html", decisions=janus_decisions(store.engine()))

    async def search(request: Request) -> Response:
        engine = store.engine()
        ns, query = namespace(request, engine), request.query_params.get("q", "").strip()
        hits = engine.search(query, ns, k=10) if query and ns else []
        return page(request, "search.html", ns=ns, q=query, hits=hits)

    async def refused(request: Request, exc: Exception) -> Response:
        status = 403 if isinstance(exc, ReadOnlyStore) else 404 if isinstance(exc, UnknownEntry) else 400
        return page(request, "error.html", status, message=str(exc))

    routes = [
        Route("/", overview), Route("/ledgers", ledgers), Route("/entry", entry), Route("/pending", pending),
        Route("/pending/{verdict:str}", verify, methods=["POST"]), Route("/janus", janus), Route("/search", search),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    hosts = ["*"] if "*" in allowed_hosts else list(allowed_hosts)
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
                     exception_handlers={TarlError: refused})
