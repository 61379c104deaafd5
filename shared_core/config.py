"""``PolicyConfig``: source trust priors, the source-name mapping and the decision thresholds.

Why configuration and not module globals: how much a deployment trusts "crm_sync" or "web" is a fact
about that deployment, and the learned policy's calibration was fitted with particular priors, so the
shipped defaults travel inside the weights file (key ``"config"``) and a caller may override them with
``MemoryEngine.open(config=...)``. A source name the config does not know is refused (naming the field
and value) unless ``source_aliases`` maps it to a known one: silently guessing a trust level for an
unknown writer is how injected content reaches Accepted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import TarlError

DEFAULT_PRIORS: dict[str, float] = {
    "user": 0.95,        # the user speaking about themselves
    "system": 0.9,
    "tool": 0.85,        # a tool reporting on its own domain at its own time
    "reflection": 0.7,
    "assistant": 0.6,    # the assistant's own inference or relay
    "document": 0.55,
    "unknown": 0.5,
    "third_party": 0.4,  # hearsay: someone else about the user
    "web": 0.35,
}
DEFAULT_UNTRUSTED = ("third_party", "web", "document", "unknown")


class PolicyConfig(BaseModel):
    """Trust and thresholds for one engine. Immutable; validated at the boundary."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_priors: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_PRIORS))
    source_aliases: dict[str, str] = Field(default_factory=dict)
    """Deployment names for known sources, e.g. ``{"crm_sync": "tool", "langgraph": "assistant"}``."""
    untrusted: tuple[str, ...] = DEFAULT_UNTRUSTED
    """Sources whose claims never reach Accepted on their own: ungrounded ones wait in Pending and a
    Pending one is not promoted by another untrusted source's agreement."""
    of_record: tuple[str, ...] = ("document",)
    """Untrusted sources whose own new fact, about nothing memory holds, is kept: a booking confirmation, a bill, a
    signed contract states it of record. Against a held fact they stay untrusted. Measured on the hand-written
    choosing sets: of 26 such document claims, 21 are labelled ``append`` (the rest hedged, future or another's form)."""
    hedge_factor: float = 0.6
    recency_bonus: float = 0.05
    validity_bonus: float = 0.1
    match_threshold: float = 0.35
    """Cosine similarity above which the nearest entry is a grounding candidate."""
    overlap_threshold: float = 0.3
    """...or content-word Jaccard above which it is (weak embedders miss lexical paraphrase)."""
    neighbours: int = 16
    """Open entries fetched from the index per claim (TARL scores at most 16 visible slots)."""
    change_sure: float = Field(default=0.9, ge=0.5, le=1.0)
    """Change probability (rescaled so 0.5 is the change model's own threshold) from which a linked claim
    may not be ``noop``; below it the policy weighs the change model's verdict with the rest. Chosen on
    the hand-written dev split (0.5: 325 / 366 of 439 free / slotted decisions right; 0.9: 335 / 375). A
    swapped value (``replaced``) forbids ``noop`` whatever the model says."""
    link_threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """Linker probability from which a free-text claim is about an open entry; None: the threshold
    shipped with the linker (chosen on the hand-written dev split)."""

    @field_validator("source_priors")
    @classmethod
    def _priors(cls, v: dict[str, float]) -> dict[str, float]:
        for name, p in v.items():
            if not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
                raise ValueError(f"source_priors[{name!r}]={p!r}: must be within [0, 1]")
        return v

    @model_validator(mode="after")
    def _known(self) -> PolicyConfig:
        for alias, target in self.source_aliases.items():
            if target not in self.source_priors:
                raise ValueError(f"source_aliases[{alias!r}]={target!r}: not a source in source_priors")
        for field in ("untrusted", "of_record"):
            for name in getattr(self, field):
                if name not in self.source_priors:
                    raise ValueError(f"{field}: {name!r} is not a source in source_priors")
        return self

    def source(self, name: str) -> str:
        """The canonical source a claim's ``source`` names; raises ``TarlError`` naming ``source``."""
        if name in self.source_priors:
            return name
        if name in self.source_aliases:
            return self.source_aliases[name]
        raise TarlError("source", name, f"unknown source; use one of {sorted(self.source_priors)} "
                                        "or map it with PolicyConfig(source_aliases={...})")

    def prior(self, name: str) -> float:
        return self.source_priors[self.source(name)]

    def trusted(self, name: str) -> bool:
        return self.source(name) not in self.untrusted

    @classmethod
    def from_weights(cls, path: str | Path) -> PolicyConfig:
        """The defaults shipped inside a weights file (its ``"config"`` record), else the built-ins."""
        raw = json.loads(Path(path).read_text())
        return cls.model_validate(raw.get("config", {}))

    @classmethod
    def coerce(cls, value: PolicyConfig | Mapping[str, Any] | None) -> PolicyConfig:
        if value is None or isinstance(value, PolicyConfig):
            return value or default_config()
        if isinstance(value, Mapping):
            try:
                return cls.model_validate(dict(value))
            except ValueError as exc:
                raise TarlError("config", dict(value), str(exc).splitlines()[-1]) from None
        raise TarlError("config", value, "expected a PolicyConfig or a dict of its fields")


_DEFAULT: PolicyConfig | None = None


def default_config() -> PolicyConfig:
    """The shipped defaults (from the shipped weights file), read once."""
    global _DEFAULT
    if _DEFAULT is None:
        from .policy.model import WEIGHTS_DIR

        path = WEIGHTS_DIR / "tarl.json"
        _DEFAULT = PolicyConfig.from_weights(path) if path.exists() else PolicyConfig()
    return _DEFAULT
