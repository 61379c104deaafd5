"""Trust for agent-written memories: which source a model may claim for a fact it asks memory to keep.

One rule, used by every adapter's ``remember`` tool, so LangChain and LlamaIndex give the same answer:

**A model may always lower trust, and raise it only with evidence.**

- ``assistant`` (its own inference or paraphrase), ``third_party`` (hearsay), ``document`` and ``web``
  are granted as claimed: none is trusted more than the model itself.
- ``user`` and ``tool`` are *relays*: the agent passes on what the user said, or what a tool returned.
  A relay is granted when the conversation holds a message of that role that supports the fact: every
  value word of the fact (number, identifier, name) occurs in it and at least :data:`SUPPORT` of the
  fact's content words do (:data:`SUPPORT_WITH_VALUES` when it has values; "the user" is no content).
  So the agent can store the user's new city in its own words, or an order API's new address against
  the user's older statement, and TARL weighs it as the user's or the tool's.
- A relay with no supporting message is stored as ``assistant``, with the reason in the claim's
  metadata: a model cannot launder its guess (or an injected instruction) into the user's voice.
- No claimed source (``None``): the most trusted role that supports the fact, else ``assistant``.
- Any other source (``system``, ``reflection``, a typo) is refused with an error naming it: those are
  written by the application, not by a model.

Why not pin ``assistant`` for every agent write: then a tool's fresh address, relayed by the agent,
loses to the user's stale one, and the model keeps reading the stale value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .errors import TarlError
from .families import VALUES, member
from .grounding import content_tokens, entities, identifiers, numbers

RELAYS = ("user", "tool")
"""Sources a model may claim only as a relay of a message of that role, most trusted first."""
LOWER = ("assistant", "third_party", "document", "web")
"""Sources a model may claim freely (no more trusted than the model itself)."""
MODEL_SOURCES = RELAYS + LOWER
SUPPORT = 0.5
"""Share of the fact's content words that must occur in one message of the relayed role."""
SUPPORT_WITH_VALUES = 1 / 3
"""The same share for a fact whose values (numbers, ids, names) all occur in the message: the values anchor
it, and a paraphrase says the rest in other words ("Order A-1001 was delivered" for "A-1001 arrived
today", "The user is 34 years old" for "I'm 34")."""


@dataclass(frozen=True)
class Attribution:
    """The source memory records for an agent-written fact, and why (kept in the claim's metadata)."""

    source: str
    claimed: str | None
    note: str

    def metadata(self) -> dict[str, str]:
        return {"claimed_source": self.claimed or "", "attribution": self.note}


_SUBJECT_WORDS = frozenset({"user", "users", "user's"})
"""How a relayed fact names its subject ("The user lives in Porto", the extraction prompt's own phrasing):
not content the message must say."""


_CLOSED = re.compile(r"\b(?:" + "|".join(VALUES.values()) + r")\b", re.I)


def closed_values(text: str) -> frozenset[str]:
    """Members of a closed class of values (aisle, light, vegan, nights): a value as much as a name is, so a
    paraphrase anchored on one ("The user prefers an aisle seat" for "aisle from now on") relays it."""
    return frozenset(m.group(0).lower() for m in _CLOSED.finditer(text))


def supports(message: str, fact: str) -> bool:
    """``message`` says ``fact``: all of the fact's value words occur in it (a number also as the number
    of a measure written together: "3" in "3pm", "10" in "10k"), and enough content words."""
    said = message.lower()
    closed = closed_values(fact)
    if not {member(v) for v in closed} <= {member(v) for v in closed_values(message)}:
        return False            # ("drives" relays "drive": one member, however inflected)
    values = numbers(fact) | identifiers(fact) | entities(fact)
    if not all(re.search(rf"(?<![a-z0-9]){re.escape(v.lower())}(?![0-9])" if v.isdigit()
                         else rf"(?<![a-z0-9]){re.escape(v.lower())}(?![a-z0-9])", said) for v in values):
        return False
    words = {w for w in content_tokens(fact) if len(w) > 1} - _SUBJECT_WORDS
    if not words:
        return False
    share = SUPPORT_WITH_VALUES if values or closed else SUPPORT
    return len(words & content_tokens(message)) >= share * len(words)


def attribute(fact: str, claimed: str | None, conversation: Iterable[tuple[str, str]]) -> Attribution:
    """The source to record for ``fact`` written by a model that claims ``claimed``, given the
    ``conversation`` so far as ``(role, text)`` pairs (roles ``user``, ``assistant``, ``tool``, ...)."""
    if claimed is not None and claimed not in MODEL_SOURCES:
        raise TarlError("source", claimed, f"a model may claim one of {', '.join(MODEL_SOURCES)}")
    if claimed in LOWER:
        return Attribution(claimed, claimed, f"claimed {claimed}")
    said = [(role, text) for role, text in conversation if isinstance(text, str)]
    roles = (claimed,) if claimed is not None else RELAYS
    for role in roles:
        if any(r == role and supports(text, fact) for r, text in said):
            return Attribution(role, claimed, f"relays a {role} message of this conversation")
    why = f"no {claimed} message of this conversation says it" if claimed else "no user or tool message says it"
    return Attribution("assistant", claimed, why)
