"""Janus: commit learned reflections only when they prove useful (arXiv 2606.31121).

``trigger`` decides *when* to compare (memory momentum), ``evalset`` *on what* (coverage, boundary,
fresh), ``controller`` *whether* the candidate replaces the current memory, ``ledger`` records every
decision as TARL transactions so it can be replayed and explained.
"""

from shared_core.janus.controller import JanusConfig, JanusController, JanusDecision, JanusStats, Memory, Verdict
from shared_core.janus.errors import (
    EmbeddingError,
    EmptyMemoryError,
    EvaluatorError,
    JanusError,
    MemoryFormatError,
)
from shared_core.janus.evalset import EvalSet
from shared_core.janus.ledger import JanusLedger, MemoryDiff, memory_diff
from shared_core.janus.trigger import (
    AlwaysTrigger,
    MomentumTrigger,
    PeriodicTrigger,
    RandomTrigger,
    Trigger,
    TriggerCheck,
)

__all__ = [
    "AlwaysTrigger",
    "EmbeddingError",
    "EmptyMemoryError",
    "EvalSet",
    "EvaluatorError",
    "JanusConfig",
    "JanusController",
    "JanusDecision",
    "JanusError",
    "JanusLedger",
    "JanusStats",
    "Memory",
    "MemoryDiff",
    "MemoryFormatError",
    "MomentumTrigger",
    "PeriodicTrigger",
    "RandomTrigger",
    "Trigger",
    "TriggerCheck",
    "Verdict",
    "memory_diff",
]
