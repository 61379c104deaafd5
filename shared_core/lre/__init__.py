"""LRE: learned relevance eviction of chat history to a token budget (arXiv 2606.20954).

History is cut into :class:`Unit` s (a turn; a tool call with its results), each unit gets causal
features and a probability of being load-bearing from a small logistic-regression :class:`Scorer`
(numpy inference from shipped JSON weights), and :func:`trim` keeps the most valuable units within the
token budget, always with the recent window and pinned units, verbatim and in order::

    from shared_core.lre import StreamingScorer, trim
    kept = trim(messages, budget=2048)          # messages: [{"role": ..., "content": ...}, ...]

    stream = StreamingScorer()                  # one per conversation: score each unit only once
    kept = trim(messages, 2048, scorer=stream)  # call again after every new message

Train on your own transcripts with self-supervised labels: ``fit_from_logs(transcripts)`` (needs
scikit-learn, only at training time). Or let a store learn from its own traffic, opt-in:
``AdaptiveScorer.beside("store.db")`` passed as ``scorer`` to ``trim``, ``LRETrimMiddleware`` or
``TarlMemory`` records what it scores, refits on a schedule, and ``rollback()`` undoes a refit
(``shared_core.lre.gate.JanusRefitGate`` can gate the refits).
"""

from __future__ import annotations

from typing import Any

from shared_core.lre.adaptive import AdaptiveScorer
from shared_core.lre.refit import fit_correction
from shared_core.lre.budget import select
from shared_core.lre.features import FEATURE_NAMES, FeatureSet, PrefixState, compute_features
from shared_core.lre.labels import answer_coverage_labels, identifier_reuse_labels, self_labels
from shared_core.lre.scorer import Scorer
from shared_core.lre.stream import StreamingScorer
from shared_core.lre.tokens import MESSAGE_OVERHEAD, count_tokens
from shared_core.lre.trim import BudgetTooSmallError, UnitScorer, select_units, trim
from shared_core.lre.units import LREInputError, Message, Unit, UnknownRoleError, normalize_message, units_from_messages

__all__ = [
    "AdaptiveScorer",
    "FEATURE_NAMES",
    "MESSAGE_OVERHEAD",
    "BudgetTooSmallError",
    "FeatureSet",
    "LREInputError",
    "Message",
    "PrefixState",
    "Scorer",
    "StreamingScorer",
    "Unit",
    "UnitScorer",
    "UnknownRoleError",
    "answer_coverage_labels",
    "compute_features",
    "count_tokens",
    "fit_correction",
    "fit_from_logs",
    "identifier_reuse_labels",
    "normalize_message",
    "select",
    "select_units",
    "self_labels",
    "trim",
    "units_from_messages",
]


def fit_from_logs(transcripts: Any, **options: Any) -> Scorer:
    """Train a :class:`Scorer` from your own transcripts (see :func:`shared_core.lre.fit.fit_from_logs`).

    Imported lazily so that ``import shared_core.lre`` never pulls in scikit-learn.
    """
    from shared_core.lre.fit import fit_from_logs as _fit

    return _fit(transcripts, **options)
