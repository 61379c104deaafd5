"""Boundary records of the memory engine.

Everything that enters or leaves the core is one of these pydantic models, so a bad value is refused
at the edge with an error that names the field, before anything is written.
"""

from __future__ import annotations

import json
import math
import unicodedata
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from enum import StrEnum
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import TarlError

MAX_TEXT_CHARS = 8000
"""Longest claim text accepted. Memories are facts, not documents; a longer text is almost always a
mistake (a whole transcript passed as one claim) and would also dominate embedding and grounding."""


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_id() -> str:
    return uuid.uuid4().hex[:16]


def _aware(value: datetime | None) -> datetime | None:
    """Naive datetimes are read as UTC so that comparisons across sources never raise."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value


def _visible(ch: str) -> bool:
    """Letters, digits, punctuation, symbols; not separators (Z*) nor control, format (zero-width),
    surrogate, private-use or unassigned characters (C*), which would embed to nothing a reader sees."""
    return unicodedata.category(ch)[0] not in "ZC"


class Ledger(StrEnum):
    ACCEPTED = "accepted"
    PENDING = "pending"
    HISTORY = "history"


class Reason(StrEnum):
    """Why a row is in History; or why it is parked in Pending (``premise_retracted``, and for
    hypotheses ``awaiting_premises`` / ``pruned`` / ``exhausted``, revocable); or, for ``deduced``, why it is in Accepted by
    inference from a closed exclusion group rather than by evidence."""

    SUPERSEDED = "superseded"
    REJECTED = "rejected"
    EXPIRED = "expired"
    RETRACTED = "retracted"
    PREMISE_RETRACTED = "premise_retracted"
    EXHAUSTED = "exhausted"
    REFUTED = "refuted"
    PRUNED = "pruned"
    """A hypothesis or experiment whose premise was refuted, exhausted or closed: it cannot hold now."""
    DEDUCED = "deduced"
    AWAITING_PREMISES = "awaiting_premises"
    """A hypothesis confirmed (by a result or by hand) while a premise is not yet Accepted: it waits
    in Pending and is restored to Accepted when its premises are."""
    COMPLETED = "completed"
    """An experiment whose result is in (the result is its own entry)."""


class Action(StrEnum):
    """The five TARL actions a policy chooses from, plus lifecycle moves made by the engine itself.

    Lifecycle moves (``promote``, ``close``) exist so that verification, retraction, expiry and
    cascades go through the same executor and transaction log as policy decisions.
    """

    APPEND = "append"
    NOOP = "noop"
    REVISE = "revise"
    REJECT_CONFLICT = "reject_conflict"
    DEFER_VERIFY = "defer_verify"
    PROMOTE = "promote"
    CLOSE = "close"


DECISION_ACTIONS: tuple[Action, ...] = (
    Action.APPEND,
    Action.NOOP,
    Action.REVISE,
    Action.REJECT_CONFLICT,
    Action.DEFER_VERIFY,
)
WRITE_ACTIONS = frozenset({Action.APPEND, Action.REVISE})
"""TARL's binary view: Write = {append, revise}; everything else holds the claim back."""


class Claim(BaseModel):
    """A statement offered to memory. It becomes an Entry only through an executed action."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    namespace: str = "default"
    source: str = "user"
    confidence: float = 0.9
    observed_at: datetime = Field(default_factory=utcnow)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    slot: str | None = None
    many: bool | None = None
    """The slot holds several values (likes, allergies, members): a further value is appended beside
    the others. None: inferred from the words (``slots``). Kept on the entry as ``metadata["many"]``."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    depends_on: tuple[str, ...] = ()

    @field_validator("text")
    @classmethod
    def _text(cls, v: str) -> str:
        v = v.strip()
        if not any(_visible(ch) for ch in v):
            raise ValueError("text must contain a visible character (not only whitespace, control or format characters)")
        if len(v) > MAX_TEXT_CHARS:
            raise ValueError(f"text has {len(v)} characters; the limit is {MAX_TEXT_CHARS}")
        return v

    @field_validator("namespace")
    @classmethod
    def _namespace(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be empty")
        return v                                # kept exactly: LangGraph's ("users", "alice\n") is not ("users", "alice")

    @field_validator("source")
    @classmethod
    def _name(cls, v: str) -> str:
        v = v.strip()
        if not v:
            raise ValueError("must not be empty")
        return v

    @field_validator("slot")
    @classmethod
    def _slot(cls, v: str | None) -> str | None:
        if v is not None and not v:
            raise ValueError("slot must be None or a non-empty key")
        return v                                # kept exactly: a store key " a " is not "a"

    @field_validator("metadata")
    @classmethod
    def _metadata(cls, v: dict[str, Any]) -> dict[str, Any]:
        try:
            json.dumps(v)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"metadata must be JSON-serialisable: {exc}") from None
        return v

    @field_validator("confidence")
    @classmethod
    def _confidence(cls, v: float) -> float:
        if math.isnan(v) or not 0.0 <= v <= 1.0:
            raise ValueError(f"confidence must be within [0, 1], got {v!r}")
        return v

    @field_validator("observed_at", "valid_from", "valid_to")
    @classmethod
    def _tz(cls, v: datetime | None) -> datetime | None:
        return _aware(v)

    @model_validator(mode="after")
    def _validity(self) -> Claim:
        if self.valid_from and self.valid_to and self.valid_to < self.valid_from:
            raise ValueError(
                f"valid_to ({self.valid_to.isoformat()}) is before valid_from ({self.valid_from.isoformat()})"
            )
        return self


def stored_metadata(claim: Claim) -> dict[str, Any]:
    """The metadata an entry made from ``claim`` keeps: the claim's own, plus ``many`` when it was given."""
    return claim.metadata if claim.many is None else {**claim.metadata, "many": claim.many}


class Entry(BaseModel):
    """A claim that memory holds, in exactly one ledger. Content never changes; only the ledger does."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    namespace: str
    source: str
    confidence: float
    observed_at: datetime
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    slot: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    depends_on: tuple[str, ...] = ()
    ledger: Ledger
    reason: Reason | None = None
    note: str | None = None
    target_id: str | None = None
    """The Accepted entry this claim was weighed against: the one it revised, conflicted with, or
    contests while Pending (promotion then supersedes it)."""
    created_tx: int
    closed_tx: int | None = None

    @classmethod
    def from_claim(cls, claim: Claim, *, id: str, ledger: Ledger, tx: int, **extra: Any) -> Entry:
        fields = claim.model_dump()
        fields.pop("many")
        fields["metadata"] = stored_metadata(claim)
        return cls(id=id, ledger=ledger, created_tx=tx, **fields, **extra)

    def moved(self, ledger: Ledger, tx: int, reason: Reason | None, note: str | None) -> Entry:
        closed = tx if ledger is Ledger.HISTORY else None
        return self.model_copy(update={"ledger": ledger, "reason": reason, "note": note, "closed_tx": closed})

    def is_valid_at(self, when: datetime) -> bool:
        when = _aware(when)
        return (self.valid_from is None or self.valid_from <= when) and (
            self.valid_to is None or when < self.valid_to
        )

    def expired(self, when: datetime) -> bool:
        """Past its ``valid_to`` at ``when``: no longer served as current, even before a sweep closes it."""
        return self.valid_to is not None and self.valid_to <= _aware(when)


@dataclass(frozen=True)
class Hit:
    """A search result: an Accepted entry and its similarity to the query."""

    entry: Entry
    score: float


class Decision(BaseModel):
    """What a policy chose for a claim, and why. Probabilities are over DECISION_ACTIONS."""

    model_config = ConfigDict(frozen=True)

    action: Action
    target_id: str | None = None
    probabilities: dict[str, float] = Field(default_factory=dict)
    margin: float = 0.0
    rationale: str = ""
    entry_id: str | None = None
    tx: int | None = None
    decided_by: str = "policy"
    """``policy`` (the CPU policy), ``judge`` (an LLM judge's answer, validated) or ``fallback`` (the
    policy's choice after the judge failed: invalid answer, error or timeout). See ``escalation``."""
    judge_rationale: str = ""
    """The judge's one-line rationale, or why its answer was not used, or why it was not asked."""
    judge_ms: float | None = None
    """Wall time of the judge call (None: no call)."""


class Move(BaseModel):
    """One entry changing ledger inside a transaction (``from_ledger`` None: the entry is new)."""

    model_config = ConfigDict(frozen=True)

    entry_id: str
    from_ledger: Ledger | None
    to_ledger: Ledger
    reason: Reason | None = None
    note: str | None = None


class Transaction(BaseModel):
    """One atomic change to memory: the log row from which any past state can be replayed."""

    model_config = ConfigDict(frozen=True)

    tx: int
    namespace: str
    action: Action
    at: datetime
    target_id: str | None = None
    claim: Claim | None = None
    decision: Decision | None = None
    created: tuple[Entry, ...] = ()
    moves: tuple[Move, ...] = ()


def checked_vector(value: Any, dim: int) -> np.ndarray:
    """A caller's embedding, checked: the width of this store's vectors, finite, unit length (every
    embedder here L2-normalises; a vector of 1e30s would outscore every real neighbour)."""
    try:
        v = np.asarray(value, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError):
        raise TarlError("vector", value, f"expected {dim} finite numbers") from None
    if v.shape != (dim,) or not np.all(np.isfinite(v)):
        raise TarlError("vector", f"array of shape {np.shape(value)}", f"expected {dim} finite numbers")
    norm = float(np.linalg.norm(v))
    if abs(norm - 1.0) > 1e-3:
        raise TarlError("vector", f"array with norm {norm:.6g}", "must be unit length (L2-normalised, norm 1 +- 0.001)")
    return v.astype(np.float32)
