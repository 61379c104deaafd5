"""``tarl ui STORE [--write] [--host 127.0.0.1] [--port 8765]``: serve the dashboard.

Loopback only unless ``--host`` says otherwise: memory is private, and the dashboard has no login.
The socket is bound before the server starts, so the printed address is the one really served
(``--port 0`` picks a free port).
"""

from __future__ import annotations

import socket
import sys
from typing import Any

from ..cli.args import CliError, Parser
from ..cli.terminal import safe

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def parser() -> Parser:
    from pathlib import Path

    p = Parser("tarl ui", __doc__)
    p.add_argument("store", type=Path, help="the store folder (holds ledger.db)")
    p.add_argument("--write", action="store_true", help="allow accept/reject (otherwise read-only: POSTs get 403)")
    p.add_argument("--host", default=DEFAULT_HOST, help="address to bind (default: %(default)s, loopback only)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default: %(default)s; 0 picks a free one)")
    return p


def prepare(argv: list[str]) -> tuple[Any, socket.socket, Any]:
    """(uvicorn server, bound socket, store handle) for ``argv``; ``main`` runs them, tests drive them."""
    args = parser().parse_args(argv)
    try:
        import uvicorn

        from .app import LOOPBACK, StoreHandle, build_app
    except ModuleNotFoundError as exc:
        raise CliError(f"tarl ui needs the ui extra ({exc.name} is missing): pip install 'tarl-memory[ui]'") from None
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise CliError(f"--host {args.host} --port {args.port}: cannot bind ({exc.strerror})") from None
    store = StoreHandle(args.store, write=args.write)
    hosts = LOOPBACK if args.host in LOOPBACK else ("*",)
    config = uvicorn.Config(build_app(store, allowed_hosts=hosts), log_level="warning", lifespan="off")
    return uvicorn.Server(config), sock, store


def main(command: str, argv: list[str]) -> int:
    server, sock, store = prepare(argv)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    mode = "writes enabled" if store.write else "read-only"
    print(f"tarl ui: serving {safe(store.path)} ({mode}) on http://{shown}:{port}/  (Ctrl-C stops)", file=sys.stderr)
    if host not in ("127.0.0.1", "::1"):
        print("tarl ui: warning: not loopback; anyone who can reach this address can read this memory", file=sys.stderr)
    try:
        server.run(sockets=[sock])
    finally:
        store.close()
        sock.close()
    return 0
