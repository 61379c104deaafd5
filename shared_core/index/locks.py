"""The owner lock of an embedded Chroma directory.

Chroma's embedded client keeps its HNSW segments in process memory and is not made for several
processes (a second writer process gets "Error finding id" / "Nothing found on disk" internal errors).
So one process owns ``chroma/``; another gets a clear error pointing to server mode. Engines of the
same process share the ownership (and Chroma's own per-path system), so they work together. An
``flock``: the operating system drops it when the process dies, so a SIGKILL never leaves it held.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

from ..errors import IndexUnavailable

_guard = threading.Lock()
_owned: dict[str, tuple[int, int]] = {}          # realpath -> (fd, engines of this process holding it)


def own(path: Path) -> str:
    """Take (or share, within this process) ownership of the embedded index at ``path``; returns the key
    to pass to ``release``. Raises ``IndexUnavailable`` when another process owns it."""
    key = os.path.realpath(path)
    with _guard:
        if key in _owned:
            fd, n = _owned[key]
            _owned[key] = (fd, n + 1)
            return key
        Path(key).parent.mkdir(parents=True, exist_ok=True)     # beside the index: survives moving it aside
        fd = os.open(f"{os.path.dirname(key)}/.{os.path.basename(key)}.owner.lock", os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise IndexUnavailable(
                "path", str(path),
                "this embedded Chroma index is open in another process, and embedded Chroma serves one "
                "process; to share a store between processes run a Chroma server (`chroma run --path DIR`) "
                "and open every engine with MemoryEngine.open(path, chroma_url='http://HOST:PORT')",
            ) from None
        _owned[key] = (fd, 1)
        return key


def release(key: str) -> None:
    with _guard:
        fd, n = _owned[key]
        if n > 1:
            _owned[key] = (fd, n - 1)
            return
        del _owned[key]
        os.close(fd)                              # closing the descriptor drops the flock
