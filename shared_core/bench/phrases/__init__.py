"""Wording for the episode generator, one module per concern: what subjects have (``attributes``) and
how each source words a statement (``frames``)."""

from .attributes import CHILD, COLLEAGUE, ORDER, SERVICE, TICKET, TRIP, USER, Attribute
from .frames import casual, tool_output

__all__ = ["CHILD", "COLLEAGUE", "ORDER", "SERVICE", "TICKET", "TRIP", "USER", "Attribute", "casual", "tool_output"]
