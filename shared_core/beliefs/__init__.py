"""Memory that forgets: dependencies and cascades, hypotheses with a lifecycle, exclusion groups,
drift and explanations. Everything here is pure; the executor calls ``consequences`` inside each
transaction and the engine's belief methods turn requests into executor steps."""

from .drift import expired, expires_at, valid_at
from .explain import Explanation, Justification, explain, justification
from .graph import ancestors, justification_loop
from .hypotheses import Status, best, frontier, sample, status
from .kinds import check_claim, check_promote
from .propagate import cascade, consequences

__all__ = [
    "Explanation", "Justification", "Status", "ancestors", "best", "cascade", "check_claim", "check_promote", "consequences", "expired",
    "expires_at", "explain", "frontier", "justification", "justification_loop", "sample", "status", "valid_at",
]
