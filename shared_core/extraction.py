"""Extraction that names slots: one prompt and one parser, used by both adapters' extractors and tools.

Why: the slot is what lets memory see that two facts are about one attribute. Stored under random ids,
"manager is Priya" and "manager is Daniel" both stay Accepted; under one slot (``user.manager``) the
second revises the first. Slotted claims are also decided far better than free text. The model that
reads the conversation already knows the attribute, so the prompt asks it for a canonical
``subject.attribute`` slot and whether the attribute holds one value or several.

A slot is checked here, not trusted: :func:`canonical_slot` lower-cases and snake-cases it and refuses
anything that is not ``subject.attribute`` or that looks like a random id (hex or uuid labels): such a
fact is kept as free text (no slot), never keyed by a random id.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from .grounding import normalised
from .judging import reply_object

EXTRACT_PROMPT = (
    "Extract the durable facts about the user or their world from this conversation turn, one short "
    "self-contained sentence each (name the subject: 'The user ...', 'Order ZX-4410 ...'). For each fact give:\n"
    "- source: who asserted it: 'user' (the user about themselves), 'third_party' (someone else, hearsay), "
    "'tool' (a tool's output), 'assistant' (your own inference), 'document' or 'web';\n"
    "- slot: a canonical key 'subject.attribute' in lower snake_case, e.g. user.home_city, user.manager, "
    "user.likes_food, daughter.school, order_zx4410.status, stripe.api_key. Use the same slot every time the "
    "same attribute of the same subject comes up; different subjects (two orders, two people) get different "
    "slots. Never use a random id as a slot;\n"
    "- many: true when the attribute holds several values at once (likes, allergies, team members, a child's "
    "activities), false when a new value replaces the old one (home city, employer, manager, an order's status).\n"
    "Return no facts if there are none (greetings, questions, chit-chat)."
)
"""The one extraction prompt (system message; the conversation turn follows as the user message)."""
JSON_REPLY = (
    '\nReply with JSON only: {"facts": [{"text": "...", "source": "user", "slot": "user.home_city", '
    '"many": false}]}, or {"facts": []}.'
)
"""Appended for models asked in plain chat rather than through structured output."""
KNOWN_SLOTS = 12
"""At most this many slots already in memory are shown to the extracting model (:func:`with_known_slots`)."""

_LABEL = re.compile(r"^[a-z][a-z0-9_]*$")
_USER_WORDS = re.compile(r"^(?:the\s+)?user(?:'s|s)?[\s_:-]+(.*)$", re.I)
_RANDOM = re.compile(r"^(?:[0-9a-f]{12,}|[0-9a-f]{8}_?[0-9a-f]{4}_?[0-9a-f]{4}_?[0-9a-f]{4}_?[0-9a-f]{12})$")
MANY_KEY_SEPARATOR = "#"


def canonical_slot(raw: Any) -> str | None:
    """``raw`` as a ``subject.attribute`` slot (lower snake_case labels; a bare attribute is the
    user's: ``home_city`` -> ``user.home_city``, and so is one written in words: ``user manager`` and
    ``User's manager`` -> ``user.manager``), or None when it is missing, malformed or contains a
    random id label (hex of 12+ characters, or a uuid)."""
    if not isinstance(raw, str):
        return None
    if "." not in raw and (words := _USER_WORDS.match(raw.strip())) is not None and words.group(1):
        raw = "user." + words.group(1)
    labels = [re.sub(r"[^a-z0-9]+", "_", part.strip().lower()).strip("_") for part in raw.split(".")]
    if len(labels) == 1:                        # an attribute alone ("home_city") is the user's
        labels = ["user", *labels]
    if not all(_LABEL.match(x) for x in labels):
        return None
    if any(_RANDOM.match(x.replace("-", "_")) or _RANDOM.match(x.replace("_", "")) for x in labels):
        return None
    return ".".join(labels)


def spelled(source: str) -> str | None:
    """A source name as a model writes it ("User", " user", "third-party", "third party") in the spelling
    the configuration uses; an empty one means none was given."""
    return re.sub(r"[\s-]+", "_", source.strip().lower()) or None


SOURCES = ("user", "third_party", "tool", "assistant", "document", "web")
"""The sources an extracting model may name; anything else is recorded as the model's own (``assistant``)."""


class ExtractedFact(BaseModel):
    """One fact as the model extracts it (the schema chat models fill through structured output).

    Lenient where models are sloppy and nothing is lost by it: ``null`` for an optional field means its
    default, a source is read case- and dash-insensitively ("User", "third-party"), a source the model
    may not claim ("system", a typo) is its own word (``assistant``), and a confidence given as a
    percentage (95) is read as one (0.95). The text must still be a sentence."""

    text: str = Field(description="One short self-contained factual sentence.")
    source: str = Field(default="user", description="user | third_party | tool | assistant | document | web")
    confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    slot: str | None = Field(default=None, description="Canonical 'subject.attribute', e.g. 'user.home_city'.")
    many: bool = Field(default=False, description="True if the attribute holds several values at once.")

    @field_validator("slot", mode="before")
    @classmethod
    def _slot(cls, v: Any) -> str | None:
        return canonical_slot(v)

    @field_validator("source", mode="before")
    @classmethod
    def _source(cls, v: Any) -> str:
        name = spelled(str(v)) if v is not None else None
        return "user" if name is None else name if name in SOURCES else "assistant"

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, v: Any) -> Any:
        if v is None:
            return 0.9
        return v / 100 if isinstance(v, (int, float)) and not isinstance(v, bool) and 1 < v <= 100 else v

    @field_validator("many", mode="before")
    @classmethod
    def _many(cls, v: Any) -> Any:
        return False if v is None else v


class ExtractedFacts(BaseModel):
    """Facts extracted from one conversation turn."""

    facts: list[ExtractedFact] = Field(default_factory=list)

    @field_validator("facts", mode="before")
    @classmethod
    def _facts(cls, v: Any) -> Any:
        return [] if v is None else v


_NO_FACTS = re.compile(r"^\W*(?:none|no facts?|nothing|n/a)\W*$|\b(?:no|none|nothing|not any)\b[^.]{0,40}"
                       r"\b(?:facts?|memor(?:y|ies)|to (?:store|remember|extract|save))\b", re.I)


def parse_facts(raw: Any) -> list[ExtractedFact]:
    """A model's reply as facts: an :class:`ExtractedFacts`, a dict or JSON text of one, a list of
    facts, or plain text (one fact per line, no slot; ``NONE`` for nothing). Raises ``ValueError``
    naming the first bad field."""
    if isinstance(raw, ExtractedFacts):
        return list(raw.facts)
    raw = reply_object(raw)
    if isinstance(raw, str):
        lines = [re.sub(r"^\s*(?:[-*\u2022]|\d+[.)])\s*", "", x).strip() for x in raw.splitlines()]
        return [ExtractedFact(text=x) for x in lines if x and not _NO_FACTS.search(x)]
    if isinstance(raw, list):
        raw = {"facts": raw}
    try:
        return list(ExtractedFacts.model_validate(raw).facts)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ValueError(f"{'.'.join(map(str, err['loc']))}={err.get('input')!r}: {err['msg']}") from None


def store_key(fact: ExtractedFact) -> str:
    """The key a fact is put under in a plain key-value store (one value per key): its slot for a
    single-valued attribute (a later value replaces it); for a multi-valued one the slot plus a digest
    of the value, so a further value is kept beside the others and the same value again lands on the
    same key; for a fact with no slot a digest of its text. Never a random id. (A ``TarlStore`` needs
    none of this: it keeps several values on one slot when the claim says ``many``.)"""
    digest = hashlib.sha1(normalised(fact.text).encode()).hexdigest()[:8]
    if fact.slot is None:
        return f"fact{MANY_KEY_SEPARATOR}{digest}"
    return f"{fact.slot}{MANY_KEY_SEPARATOR}{digest}" if fact.many else fact.slot


def named_slot(key: Any, many: Any = None) -> tuple[str, bool] | None:
    """The ``subject.attribute`` slot a stored key names and whether it holds several values: a slot
    (``user.home_city``) or a multi-valued slot's key (``user.likes_food#1a2b3c4d``, :func:`store_key`).
    None for keys that name no slot: entry ids, a text's digest, an application's own plain keys."""
    if not isinstance(key, str):
        return None
    slot, sep, _ = key.partition(MANY_KEY_SEPARATOR)
    if "." not in slot or canonical_slot(slot) != slot:
        return None
    return slot, bool(sep) or many is True


def with_known_slots(prompt: str, known: Iterable[tuple[Any, Any, str]], limit: int = KNOWN_SLOTS) -> str:
    """``prompt`` and the slots already in memory, each with its cardinality and one text held under it.

    Why: the model extracts each turn on its own, so without this it names one attribute differently
    from turn to turn (``user.home_city``, then ``user.city``), and a value that changed lands on a new
    slot beside the old one, both current, instead of revising it. ``known`` is (stored key, its ``many``,
    text), most relevant first, as either adapter holds it; keys that name no slot (:func:`named_slot`)
    are left out, and the first ``limit`` distinct slots are shown."""
    seen: dict[str, tuple[bool, str]] = {}
    for key, many, text in known:
        named = named_slot(key, many)
        if named is not None and named[0] not in seen and len(seen) < limit:
            seen[named[0]] = (named[1], " ".join(text.split())[:120])
    if not seen:
        return prompt
    lines = "\n".join(f"- {s} ({'several values' if m else 'one value'}): {t}" for s, (m, t) in seen.items())
    return (f"{prompt}\nSlots already in memory. Use the same slot when a fact is about the same attribute of "
            f"the same subject, also when its value changed; choose a new slot only for a new attribute or "
            f"subject:\n{lines}")


def line(text: str, slot: str | None) -> str:
    """One memory as a model sees it; a slotted memory names its slot, so a ``remember`` about the same
    attribute can reuse it."""
    named = named_slot(slot)
    return f"- {text} (slot: {named[0]})" if named else f"- {text}"


_LINE = re.compile(r"^\s*-\s*(?P<text>.*?)(?:\s*\(slot:\s*(?P<slot>[^()]+?)\s*\))?\s*$", re.DOTALL)


def copied(memory: str) -> tuple[str, str | None]:
    """``line`` read back: a memory as a model names it to the forget tools (``user.address``, a text, or a
    line it copied, ``- text (slot: s)``), as (text, the slot the line names or None)."""
    found = _LINE.match(memory)
    if found is None:
        return memory.strip(), None
    return found["text"].strip(), found["slot"]


def same_text(a: str, b: str) -> bool:
    """Two memory texts the forget tools take for one (spacing and case aside)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def forget_reply(memory: Any, gone: list[str]) -> str:
    """What a forget tool tells the model, on both adapters: what it retracted, or why nothing."""
    if not isinstance(memory, str) or not memory.strip():
        return f"not forgotten: memory={memory!r}: must be a memory's slot or its exact text"
    if not gone:
        return (f"not forgotten: no memory has the slot or text {memory.strip()!r}; recall it and pass its slot "
                "or its exact text")
    return "forgotten (no longer recalled; kept in memory's history): " + "; ".join(gone)
