"""Operation selection: which of the five TARL actions a claim gets."""

from .base import Policy
from .rules import RulePolicy

__all__ = ["Policy", "RulePolicy"]
