"""tarl-memory core: TARL ledgers, one executor, and the MemoryEngine facade the adapters call."""

from .engine import Hit, MemoryEngine
from .errors import InvalidStep, TarlError, UnknownEntry
from .executor import MemoryState, Step
from .schema import Action, Claim, Decision, Entry, Ledger, Move, Reason, Transaction

__all__ = [
    "Action", "Claim", "Decision", "Entry", "Hit", "InvalidStep", "Ledger", "MemoryEngine", "MemoryState",
    "Move", "Reason", "Step", "TarlError", "Transaction", "UnknownEntry",
]
