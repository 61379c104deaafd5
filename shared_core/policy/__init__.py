"""Operation selection: which of the five TARL actions a claim gets."""

from .base import Policy
from .learned import LearnedPolicy
from .rules import RulePolicy

__all__ = ["LearnedPolicy", "Policy", "RulePolicy"]
