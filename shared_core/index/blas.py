"""One BLAS thread for the cache's small dense products, without touching the rest of the process.

Why: OpenBLAS splits a mat-vec of the cache's dense tail (up to 256 x 2048 floats) over every core, and
its worker threads then spin for a while waiting for more work. A write every few milliseconds keeps them
spinning: measured on ``tarl bench scale``'s own steps (10k entries, 300 back-to-back writes, 2 cores,
load 2.5-2.9), 5.2-6.1 ms of process CPU a write with the default threads against 4.5 with one, and
163-189 against 213-215 writes/s. One thread computes each output element exactly as several do (checked
bit for bit), so no result changes. The limit is set around the product only (the setting is the
process's, so products of other threads in that window run on one thread too); large products (a dense
embedder's whole namespace) keep their threads, which pay there.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def _blas() -> list[Any]:
    """The BLAS libraries loaded in this process whose thread count can be set (none: nothing to do)."""
    try:
        from threadpoolctl import ThreadpoolController
    except ImportError:          # an optional speed-up: without it the products run as before
        return []
    return [lib for lib in ThreadpoolController().lib_controllers if lib.user_api == "blas" and lib.num_threads > 1]


SMALL = 256 * 2048
"""Products of up to this many matrix elements run on one thread (the cache's sparse-mode tail)."""

_guard = threading.Lock()
_inside = 0
_before: list[int] = []


@contextlib.contextmanager
def one_thread(size: int = 0) -> Iterator[None]:
    """One BLAS thread inside, for a product of ``size`` elements at most ``SMALL``; nested and concurrent
    uses restore the count the first one found, once the last one leaves."""
    global _inside, _before
    libs = _blas() if size <= SMALL else []
    if not libs:
        yield
        return
    with _guard:
        if _inside == 0:
            _before = [lib.get_num_threads() for lib in libs]
            for lib in libs:
                lib.set_num_threads(1)
        _inside += 1
    try:
        yield
    finally:
        with _guard:
            _inside -= 1
            if _inside == 0:
                for lib, n in zip(libs, _before):
                    lib.set_num_threads(n)
