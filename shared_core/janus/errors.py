"""Errors Janus raises on bad input. All are ``ValueError``s and leave the controller's state unchanged,
so a caller can fix the input (or retry a flaky evaluator) and call again."""

from __future__ import annotations


class JanusError(ValueError):
    """Base class: something handed to Janus was not usable; nothing was changed."""


class MemoryFormatError(JanusError):
    """A memory was not a sequence of non-empty reflection strings."""


class EmptyMemoryError(MemoryFormatError):
    """A candidate memory was empty although the configuration does not allow empty memories."""


class EvaluatorError(JanusError):
    """The evaluator raised, or returned something that is not a finite number."""


class EmbeddingError(JanusError):
    """The embedder returned something that is not a finite (n, d) array for n texts."""
