"""What every policy implements: a claim, its grounding and reliability comparison in; a Decision out."""

from __future__ import annotations

from typing import Protocol

from ..grounding import Grounding
from ..reliability import Comparison
from ..schema import Claim, Decision


class Policy(Protocol):
    name: str

    def decide(self, claim: Claim, grounding: Grounding, comparison: Comparison | None) -> Decision: ...
