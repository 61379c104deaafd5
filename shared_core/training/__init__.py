"""Training for the learned policy (``tarl train``). torch is imported only inside this package, and
only when training actually runs, so importing ``shared_core`` never needs it."""

from __future__ import annotations

from collections.abc import Sequence


def main(command: str, argv: Sequence[str]) -> int:
    from .cli import run

    return run(list(argv))


__all__ = ["main"]
