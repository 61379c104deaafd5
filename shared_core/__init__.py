"""tarl-memory core: TARL ledgers, one executor, and the MemoryEngine facade the adapters call."""

from .engine import Hit, MemoryEngine
from .errors import InvalidStep, TarlError, UnknownEntry
from .executor import MemoryState, Step
from .policy import LearnedPolicy, RulePolicy
from .schema import Action, Claim, Decision, Entry, Ledger, Move, Reason, Transaction

__all__ = [
    "Action", "Claim", "Decision", "Entry", "Hit", "InvalidStep", "LearnedPolicy", "Ledger", "MemoryEngine",
    "MemoryState", "Move", "Reason", "RulePolicy", "Step", "TarlError", "Transaction", "UnknownEntry",
]
