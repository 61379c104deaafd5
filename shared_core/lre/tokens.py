"""The default offline token counter.

Budgets must work without downloading a tokenizer (tiktoken fetches its BPE files on first use), so the
default is an approximation: ``max(ceil(chars / 4), ceil(words * 4 / 3))`` (words = spaces + 1) plus a fixed overhead of
:data:`MESSAGE_OVERHEAD` tokens per message for the role and separators. ``chars / 4`` is the usual
English rule of thumb (and what ``langchain_core.count_tokens_approximately`` uses); the word term
stops short-word text (numbers, ids, code) from being under-counted. It over-counts slightly more often
than it under-counts, which is the safe side for a budget. Pass your model's tokenizer as
``token_counter`` where exact counts matter.
"""

from __future__ import annotations

from collections.abc import Callable

MESSAGE_OVERHEAD = 3
"""Tokens added per message for the role marker and separators (as chat templates do)."""

TokenCounter = Callable[[str], int]
"""Counts the tokens of one message's text; the per-message overhead is added by the caller."""


def count_tokens(text: str) -> int:
    """Approximate token count of ``text`` (no overhead; see the module docstring)."""
    n = len(text)
    by_words = ((text.count(" ") + 1) * 4 + 2) // 3 if n else 0
    by_chars = (n + 3) // 4
    return by_chars if by_chars > by_words else by_words
