"""Record states: the closed class of states a record moves through (an order, a ticket, an invoice, a device, a
deploy), and ``moved_state``, whether a claim names another state than the one its entry records; and where a switch
stands (``switched``: on or off), the simplest state of all.

Why its own module: a record's state moves however the two texts are worded ("3 heartbeats missed -> status offline"
after "status": "online"), so it is read from this class, not from a swapped word; ``change`` reads it as hard
evidence of a change and the decision as a feature of its own (``state_moved``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import slots
from .cuescan import Prefiltered
from .linking import specific
from .tokens import identifiers


STATES: dict[str, str] = {
    "done": r"done|complete[ds]?|resolved|closed|finished|fixed",
    "todo": r"open|to ?do|backlog|reopened|unresolved",
    "progress": r"in[ -]progress|in review|underway",
    "pending": r"pending|processing|queued|on hold",
    "shipped": r"shipped|dispatched|in transit|out for delivery",
    "delivered": r"delivered|arrived|showed up|turned up|received",
    "cancelled": r"cancell?ed|refunded|voided",
    "paid": r"paid|settled", "unpaid": r"unpaid|overdue|outstanding",
    "sent": r"sent|issued",
    "online": r"online|connected|reconnected", "offline": r"offline|disconnected",
    "active": r"active|enabled|live",
    "inactive": r"inactive|disabled|suspended|paused|expired|deactivated",
    "failed": r"failed|failing|errored|crashed",
    "succeeded": r"succeeded|successful|passed|green",
    "booked": r"booked|confirmed|scheduled",
    "approved": r"approved|accepted|merged",
    "rejected": r"rejected|declined|denied",
    "blocked": r"blocked",
}
"""The states a record moves through (an order, a ticket, an invoice, a device, a deploy), one group per
state: a closed class written from general usage, not from any data set."""
_STATE_WORD = Prefiltered(re.compile(r"\b(?:" + "|".join(f"(?P<{k}>{rx})" for k, rx in STATES.items()) + r")\b", re.I))
_STATE_FIELD = Prefiltered(re.compile(r"\b(?:status|state)\b[\"']?\s*(?:[:=]|->|→)?\s*[\"']?(?P<value>[a-z][a-z -]{1,24})", re.I))


@lru_cache(maxsize=65536)
def _states(text: str) -> frozenset[str]:
    return frozenset(m.lastgroup for m in _STATE_WORD.finditer(text) if m.lastgroup)


@lru_cache(maxsize=65536)
def held_state(text: str) -> frozenset[str]:
    """The state a record's status field holds (cached: an entry meets many claims)."""
    m = _STATE_FIELD.search(text)
    return _states(m.group("value")) if m else frozenset()


def moved_state(claim: str, entry: str) -> bool:
    """The entry records a state ("status": "online", "status: sent") and the claim names another one
    and not that one ("3 heartbeats missed -> status offline", "1182 is done", "invoice.paid"): the
    record moved on, however the two are worded."""
    held = held_state(entry) or (_states(entry) if identifiers(entry) or "#" in (slots.of(entry).subject or "")
                                  else frozenset())   # "Ticket SUP-1 is open", "Order 4471 is in transit"
    said = _states(claim) if held else frozenset()
    return bool(said) and not said & held


_OFF = Prefiltered(re.compile(
    r"\b(?:disabled|deactivated|unsubscribed|opted out|(?:turn|switch)(?:ed|ing|s)?\s+(?:[\w-]+\s+){0,3}?off)\b", re.I))
_SWITCH = re.compile(r"\b(?:turn|switch|flipp?)(?:ed|ing|s)?\s+(?:[\w-]+\s+){0,3}?(?P<turned>on|off)\b"
                     r"(?![-\w]|\s+(?:the|a|my|our|to)\b)"
                     r"|\b(?:is|are|was|'s)\s+(?:now\s+|back\s+|still\s+)?(?P<said>on|off)(?=\s*(?:$|[.,;:!)\]]|"
                     r"(?:in|at|for|again|now|since|from|by|and|but|so|today|tonight)\b))"
                     r"|(?-i:\b(?P<caps>ON|OFF)\b)(?![-\w])", re.I)
"""Where a switch stands: "turned ON", "the porch light is off", "flipped the vpn on"; not "is on tuesdays"."""


@lru_cache(maxsize=65536)
def _position(text: str) -> tuple[str, bool] | None:
    """Where the text's one switch stands, and whether it says so in words: a bare "ON" may label another switch."""
    said = [(m.group("turned") or m.group("said") or m.group("caps"), m.lastgroup != "caps") for m in _SWITCH.finditer(text)]
    found = {word.lower() for word, _ in said}
    return (found.pop(), any(worded for _, worded in said)) if len(found) == 1 else None


def switched(claim: str, entry: str) -> bool:
    """The claim switches off what the entry has on ("turned off email notifications" after "I get notifications by
    email", "unsubscribed from the guardian newsletter"), or the other way round ("porch light turned on by the timer"
    after "the porch light is off"): naming the entry's thing again is its news, not a repeat."""
    if not specific(claim) & specific(entry):
        return False
    if _OFF.search(claim) and not _OFF.search(entry):
        return True
    said, held = _position(claim), _position(entry)
    return said is not None and held is not None and said[0] != held[0] and (said[1] or held[1])
