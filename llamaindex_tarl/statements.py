"""The default extractor: what the user *stated* in a turn, without what they asked the assistant.

Why cut sentences and not whole messages: people state a fact and ask in one breath ("I just moved to
Berlin, can you recommend a sushi place?"). Dropping every message that ends in "?" loses the fact;
storing every message stores requests ("Book me a flight to Rome") as if they were facts about the user.
The rules are plain English syntax, no vocabulary of any domain, and err towards keeping: dropping a fact
costs more than storing a remark, which the engine's chit-chat model turns into a ``noop`` anyway.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from llama_index.core.base.llms.types import ChatMessage

from shared_core.schema import MAX_TEXT_CHARS

from .messages import role_of

log = logging.getLogger(__name__)

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_CLAUSE = re.compile(r"\s*[,;:]\s+|\s+[-\u2013\u2014]\s+")
_PLEASE = re.compile(r"^(?:please|pls|plz|kindly)\b[\s,]*", re.I)
_AUX = r"(?:am|is|are|was|were|do|does|did|can|could|would|will|should|shall|may|might)"
_QUESTION = re.compile(
    rf"^(?:what|where|when|why|how|who|which)(?:'s|'re|'d|'ll|\s+{_AUX}\b)"     # what's up, how do I ...
    r"|^(?:can|could|would|will|do|did|are|have)\s+(?:you|u)\b", re.I)           # can you ..., do you ...
_REQUEST = re.compile(
    r"^(?:i\s+(?:want|need|would\s+like)|i'd\s+like)\s+you\s+to\b|^let\s+me\s+know\b"
    r"|^(?:write|tell|book|find|summari[sz]e|show|give|help|translate|explain|list|recommend|suggest|draft"
    r"|create|make|generate|send|check|search|look|calculate|compute|describe|compare|plan|rewrite|edit"
    r"|fix|convert|forget|ignore|disregard)\b"
    r"(?=\W*$|\s+(?:me|us|him|her|them|it|a|an|the|my|our|your|this|that|these|those|some|any"
    r"|all|what|how|where|when|who|why|which|if|whether|up|out|about)\b|\s+['\"\u2018\u201c])", re.I)
"""An imperative addressed to the assistant: a request verb first, then its object (so "Book club is on
Tuesdays" and "Order A-7731 was delayed" stay statements). "Remind me to ..." is not one: a reminder is a
memory to keep (issue 11's four reminders)."""

_BACK = re.compile(r"^(?:she|he|it|they|this|that|these|those|there|her|his|its|their|them|both)\b", re.I)
"""A sentence opening with one of these words is about the sentence before it: the two are one claim."""
_ABBREVIATED = re.compile(r"(?:^|\s)(?:dr|mr|mrs|ms|mx|prof|st|jr|sr|no|vs|mt|ave|rd|e\.g|i\.e|[a-z])\.$", re.I)
"""A "sentence" ending in an abbreviation or an initial ("Dr.", "J.") was cut inside one: it goes on."""


def user_statements(messages: Sequence[ChatMessage]) -> list[str]:
    """The default extractor: one claim per statement a user message makes.

    >>> user_statements([ChatMessage(role="user", content="I'm allergic to peanuts. Is pad thai safe for me?"),
    ...                  ChatMessage(role="assistant", content="Pad thai often has peanuts."),
    ...                  ChatMessage(role="user", content="I just moved to Berlin, can you recommend a sushi place?"),
    ...                  ChatMessage(role="user", content="Book me a flight to Rome")])
    ["I'm allergic to peanuts.", 'I just moved to Berlin']
    >>> user_statements([ChatMessage(role="user", content="I prefer dark mode. I have a cat. She is called Miso.")])
    ['I prefer dark mode.', 'I have a cat. She is called Miso.']

    Dropped: questions (a sentence ending in "?", or opening with "what's", "how do", "can you", "do you"
    ...) and requests to the assistant (an imperative such as write/tell/book/find/summarize/show/give/help
    followed by its object, "I'd like you to ...", "let me know ..."; a leading "please" is ignored). In a
    sentence whose later clause asks ("..., can you recommend ...?", "..., right?"), the clauses before it
    are kept. Each kept sentence is a claim, in order, except that one opening with a pronoun ("She is called
    Miso.") joins the one before it; a message with none gives no claim, and one whose statements run over
    a claim's ``MAX_TEXT_CHARS`` (a pasted document) gives none either, with a warning: a memory is a fact,
    not a document.
    """
    claims = []
    for m in messages:
        if role_of(m) != "user":
            continue
        stated = [s for s in map(_stated, _SENTENCE.split((m.content or "").strip())) if s]
        if sum(len(s) + 1 for s in stated) > MAX_TEXT_CHARS + 1:
            log.warning("a user message was not made a memory: its statements have %d characters, over the %d "
                        "a claim may have", len(" ".join(stated)), MAX_TEXT_CHARS)
            continue
        claims += _statements(stated)
    return claims


def _statements(sentences: list[str]) -> list[str]:
    """One claim per statement, a sentence opening with a pronoun kept with the one before it ("I have a cat.
    She is called Miso."). Why not one claim per message: a correction of one fact revises the claim that
    holds it, so "I prefer dark mode. I'm allergic to peanuts." then "Actually light mode now." superseded
    the allergy with the theme, and it was never recalled again."""
    out: list[str] = []
    for sentence in sentences:
        if out and (_BACK.match(sentence) or _ABBREVIATED.search(out[-1])):
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out


def _stated(sentence: str) -> str:
    """The part of one sentence before the clause that asks (all of it when none asks)."""
    cuts = [(0, 0), *((c.start(), c.end()) for c in _CLAUSE.finditer(sentence))]
    for before, start in cuts:                  # clause i starts at ``start``; what precedes it ends at ``before``
        if _asks(sentence[start:]):
            return sentence[:before].strip()
    if sentence.rstrip().endswith("?"):         # no clause opens the question: the last one is it ("..., right?")
        return sentence[:cuts[-1][0]].strip()
    return sentence.strip()


def _asks(clause: str) -> bool:
    rest = _PLEASE.sub("", clause.replace("\u2019", "'"))      # a phone keyboard's apostrophe
    if rest != clause and not re.search(r"\w", rest):
        return True                             # a bare "please": part of a request
    return bool(_QUESTION.match(rest) or _REQUEST.match(rest))
