"""TARL-Mem episodes: sequences of claims with gold actions, gold targets and executable gold states.

An ``Episode`` is one namespace's stream of claims; each ``GoldStep`` names the gold action and, by
step index, the entry it is about. Gold next states are not written by hand: ``gold_states`` runs the
gold actions through the one executor, so gold is as executable as predictions are.

The generator (``generate``) writes realistic, varied episodes for one person each: personal facts with
paraphrases, updates (with and without cue words), hedged plans, less reliable contradicting sources
(relatives, web profiles, the assistant's guesses), multi-valued attributes, exact repeats, tool outputs
whose ids get refreshed or arrive late, and chit-chat. It also writes what agents write: an assistant's
``remember`` call relaying a new user fact (third person "The user ...", "User's ...", or the user quoted)
is appended like the user's own words, while the assistant's own hedged inference waits in Pending;
reference ids stated without a slot ("my order id is ...") are revised by a later correction with an
update cue. Splits are disjoint by person (the entity).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from ..executor import MemoryState, Step, execute
from ..schema import Action, Claim, Entry
from .phrases import (ATTRIBUTES, CHITCHAT, FIRST, GUESS_FRAMES, LAST, RELAY_FRAMES, RELAY_SUBJECTS, TOOLS, Attribute,
                      ToolKind, third_person)

EPOCH = datetime(2025, 1, 6, 9, 0, tzinfo=timezone.utc)
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class GoldStep:
    claim: Claim
    action: Action
    target: int | None = None
    """Index of the earlier step whose entry this claim is about (None: about nothing in memory)."""
    kind: str = ""
    scored: bool = True
    """False for context-setting steps (hand-written and HaluMem seeds) kept out of the metrics."""


@dataclass(frozen=True)
class Episode:
    name: str
    split: str
    origin: str
    steps: tuple[GoldStep, ...]

    @property
    def namespace(self) -> str:
        return self.steps[0].claim.namespace


def entry_id(step: int) -> str:
    return f"s{step:04d}"


def run_step(state: MemoryState, claim: Claim, action: Action, target_id: str | None, step: int) -> MemoryState:
    """Execute one decision on a copy of ``state`` through the real executor (ids are step-derived, so
    two runs that take the same actions produce identical states)."""
    nxt = state.copy()
    t = execute(nxt, Step(action, claim, target_id), namespace=state.namespace, tx=state.tx + 1, at=claim.observed_at,
                make_id=lambda: entry_id(step))
    return nxt.apply(t)


def gold_states(episode: Episode) -> list[MemoryState]:
    """States after each gold step; ``states[i]`` is the state before step ``i``, ``states[i+1]`` after."""
    states = [MemoryState(episode.namespace)]
    for i, s in enumerate(episode.steps):
        tid = entry_id(s.target) if s.target is not None else None
        states.append(run_step(states[-1], s.claim, s.action, tid, i))
    return states


def split_of(entity: str) -> str:
    """70/15/15 by a stable hash of the entity, so no person appears in two splits."""
    h = int(hashlib.sha1(entity.encode()).hexdigest()[:8], 16) % 100
    return "train" if h < 70 else "dev" if h < 85 else "test"


@dataclass
class _Builder:
    rng: random.Random
    name: str
    namespace: str
    clock: datetime = EPOCH
    steps: list[GoldStep] = field(default_factory=list)
    current: dict[str, list[int]] = field(default_factory=dict)
    """Open gold entries per attribute key (several for multi-valued attributes)."""
    values: dict[str, list[str]] = field(default_factory=dict)
    slotted: dict[str, bool] = field(default_factory=dict)

    def tick(self) -> datetime:
        self.clock += timedelta(hours=self.rng.choice([1, 3, 8, 20, 30, 50, 100]))
        return self.clock

    def add(self, key: str, text: str, action: Action, target: int | None, kind: str, source: str,
            confidence: float | None = None, valid_from: datetime | None = None) -> int:
        slot = key if self.slotted.get(key) and self.rng.random() < 0.8 else None
        conf = confidence if confidence is not None else round(self.rng.uniform(0.75, 1.0), 2)
        claim = Claim(text=text, namespace=self.namespace, source=source, confidence=conf, observed_at=self.tick(),
                      valid_from=valid_from, slot=slot)
        self.steps.append(GoldStep(claim, action, target, kind))
        return len(self.steps) - 1


def _fill(rng: random.Random, template: str, name: str, value: str) -> str:
    r = rng.random()
    subject = name if r < 0.65 else name.split()[0] if r < 0.8 else rng.choice(RELAY_SUBJECTS)
    text = template.format(n=subject, v=value)
    return text[0].upper() + text[1:]


def _relayed(rng: random.Random, attr: Attribute, name: str, value: str, frames: tuple[str, ...]) -> str:
    """A fact as an agent's memory tool writes it: about "the user" (or the person's name) in the third
    person, or the user's own words quoted, inside one of ``frames``."""
    first = _fill(rng, rng.choice(attr.state), name, value)
    subject = rng.choice(RELAY_SUBJECTS) if rng.random() < 0.8 else name
    third = third_person(first, subject)
    frame = rng.choice(frames)
    keep = frame.startswith("{t}") or third.startswith((name.split()[0], "User"))
    inner = third if keep else third[:1].lower() + third[1:]
    text = frame.format(t=inner, q=first)
    return text[0].upper() + text[1:]


def _person_events(b: _Builder, attr: Attribute) -> Iterator[Callable[[], None]]:
    """Yields the follow-up events one attribute can produce, each a closure that appends a step."""
    rng, key = b.rng, attr.key

    def pick_value(exclude: list[str]) -> str:
        return rng.choice([v for v in attr.values if v not in exclude])

    def target() -> int:
        return rng.choice(b.current[key])

    def restate() -> None:
        t = target()
        value = b.steps[t].claim.text
        if rng.random() < 0.25:
            text, source = value, rng.choice(["user", "user", "assistant", "tool"])
        else:
            v = _value_of(b, key, t)
            text, source = _fill(rng, rng.choice(attr.state + attr.echo), b.name, v), rng.choice(["user", "assistant"])
        b.add(key, text, Action.NOOP, t, "restate", source)

    def update() -> None:
        if attr.multi:
            return add_value()
        t = target()
        v = pick_value(b.values[key])
        templates = attr.update if rng.random() < 0.75 else attr.state
        text, source = _fill(rng, rng.choice(templates), b.name, v), rng.choice(["user", "user", "user", "tool"] if attr.tool_ok else ["user"])
        if b.steps[t].claim.source == "assistant" and rng.random() < 0.5:   # the agent relays the user's update
            text, source = third_person(_fill(rng, rng.choice(attr.update), b.name, v), rng.choice(RELAY_SUBJECTS)), "assistant"
        b.add(key, text, Action.REVISE, t, "update", source)
        b.current[key] = [len(b.steps) - 1]
        b.values[key] = [v]

    def add_value() -> None:
        if len(b.values[key]) >= len(attr.values) - 1:
            return restate()
        v = pick_value(b.values[key])
        b.add(key, _fill(rng, rng.choice(attr.add), b.name, v), Action.APPEND, None, "multi_value", "user")
        b.current[key].append(len(b.steps) - 1)
        b.values[key].append(v)

    def report() -> None:
        t = target()
        v = pick_value(b.values[key])
        # often worded just like the accepted fact, one detail changed: overlap alone must not mean "restates"
        templates = attr.report if rng.random() < 0.6 else attr.state
        # a source clearly less trusted than the one memory holds (an assistant relay is contested by hearsay)
        sources = ["third_party", "web"] + ([] if b.steps[t].claim.source == "assistant" else ["assistant", "document"])
        b.add(key, _fill(rng, rng.choice(templates), b.name, v), Action.REJECT_CONFLICT, t, "unreliable_conflict",
              rng.choice(sources), confidence=round(rng.uniform(0.5, 0.95), 2))

    def hedge() -> None:
        t = target()
        v = pick_value(b.values[key])
        b.add(key, _fill(rng, rng.choice(attr.hedge), b.name, v), Action.DEFER_VERIFY, t, "hedged", "user",
              confidence=round(rng.uniform(0.5, 0.9), 2))

    events: list[Callable[[], None]] = [restate, update] + ([report] if attr.report and not attr.multi else [])
    events += ([hedge] if attr.hedge else []) + ([add_value, add_value] if attr.multi else [])
    while True:
        yield rng.choice(events)


def _value_of(b: _Builder, key: str, step: int) -> str:
    text = b.steps[step].claim.text.lower()
    for v in b.values.get(key, []):
        if v.lower() in text:
            return v
    return b.values[key][-1]


def _introduce(b: _Builder, attr: Attribute) -> None:
    rng = b.rng
    v = rng.choice(attr.values)
    b.slotted[attr.key] = not attr.multi and rng.random() < 0.5   # a slot names a single-valued key
    if rng.random() < 0.12:   # a hearsay or hedged first mention: unverified, no target
        options = [(t, "third_party") for t in attr.report] + [(t, "user") for t in attr.hedge]
        template, source = rng.choice(options)
        b.add(attr.key, _fill(rng, template, b.name, v), Action.DEFER_VERIFY, None, "unverified_new", source,
              confidence=round(rng.uniform(0.4, 0.85), 2))
        return
    if rng.random() < 0.1:    # the assistant's own guess about the user: hedged, held for verification
        b.add(attr.key, _relayed(rng, attr, b.name, v, GUESS_FRAMES), Action.DEFER_VERIFY, None, "assistant_guess",
              "assistant", confidence=round(rng.uniform(0.5, 0.9), 2))
        return
    if rng.random() < 0.3:    # an agent relays what the user told it: a new fact, stored like the user's own
        text, kind, source = _relayed(rng, attr, b.name, v, RELAY_FRAMES), "relayed_fact", "assistant"
    else:
        sources = ["user", "user", "user", "system"] + (["tool"] if attr.tool_ok else [])
        text, kind, source = _fill(rng, rng.choice(attr.state), b.name, v), "new_fact", rng.choice(sources)
    i = b.add(attr.key, text, Action.APPEND, None, kind, source)
    b.current[attr.key], b.values[attr.key] = [i], [v]


def _tool_events(b: _Builder, kind: ToolKind) -> Iterator[Callable[[], None]]:
    """A tool object (order, ticket, flight, ...): created, refreshed, repeated, or reported late."""
    rng = b.rng
    objects: list[dict[str, str]] = []
    history: dict[str, list[tuple[int, datetime]]] = {}

    def render(obj: dict[str, str]) -> str:
        return rng.choice(kind.templates).format(**obj)

    def stamp(at: datetime) -> datetime | None:
        """Half of the tools say when their output holds; the rest leave validity to the reader."""
        return at if timed else None

    timed = rng.random() < 0.5

    def new_object() -> None:
        obj = kind.make(rng)
        objects.append(obj)
        key = f"{kind.key}:{obj['id']}"
        b.slotted[key] = rng.random() < 0.5
        at = b.clock + timedelta(minutes=5)
        i = b.add(key, render(obj), Action.APPEND, None, "tool_new", "tool", confidence=1.0, valid_from=stamp(at))
        history[key] = [(i, at)]
        b.current[key] = [i]

    def refresh() -> None:
        if not objects:
            return new_object()
        obj = rng.choice(objects)
        key = f"{kind.key}:{obj['id']}"
        if rng.random() < 0.3:    # the same output again: nothing new
            t = b.current[key][0]
            b.add(key, render(obj), Action.NOOP, t, "tool_repeat", "tool", confidence=1.0,   # maybe reworded
                  valid_from=b.steps[t].claim.valid_from)
            return
        old = dict(obj)
        obj.update(kind.change(rng, obj))
        at = b.clock + timedelta(hours=1)
        t = b.current[key][0]
        i = b.add(key, render(obj), Action.REVISE, t, "tool_refresh", "tool", confidence=1.0, valid_from=stamp(at))
        history[key].append((i, at))
        b.current[key] = [i]
        if timed and rng.random() < 0.35:   # a delayed copy of the previous output arrives late: stale
            before = history[key][-2][1]
            b.add(key, render(old), Action.REJECT_CONFLICT, i, "tool_stale", "tool", confidence=1.0,
                  valid_from=before)

    events = [new_object, refresh, refresh, refresh]
    while True:
        yield rng.choice(events)


def generate_episode(seed: int, person: str | None = None) -> Episode:
    rng = random.Random(seed)
    last = rng.choice(LAST) if rng.random() < 0.5 else f"{rng.choice(LAST)}-{rng.choice(LAST)}"
    name = person or f"{rng.choice(FIRST)} {last}"
    ns = "u_" + name.lower().replace(" ", "_")
    b = _Builder(rng, name, ns)
    attrs = rng.sample(ATTRIBUTES, rng.randint(3, 6))
    streams: list[Iterator[Callable[[], None]]] = []
    pending_intro = list(attrs)
    tools = rng.sample(TOOLS, rng.randint(0, 2))
    for kind in tools:
        streams.append(_tool_events(b, kind))
    length = rng.randint(10, 22)
    while len(b.steps) < length:
        r = rng.random()
        if r < 0.07:
            b.add("chat", rng.choice(CHITCHAT), Action.NOOP, None, "chitchat", rng.choice(["user", "assistant"]))
        elif pending_intro and (r < 0.35 or not b.current):
            attr = pending_intro.pop()
            _introduce(b, attr)
            if attr.key in b.current:
                streams.append(_person_events(b, attr))
        elif streams:
            next(rng.choice(streams))()
    return Episode(name=ns, split=split_of(name), origin="generated", steps=tuple(b.steps))


def generate(n: int, seed: int = 0) -> list[Episode]:
    """``n`` episodes, one person each; people never repeat, so splits stay disjoint by entity."""
    out, seen = [], set()
    rng = random.Random(seed)
    for _ in range(50 * n):
        if len(out) >= n:
            break
        ep = generate_episode(rng.randrange(2**31))
        if ep.name not in seen:
            seen.add(ep.name)
            out.append(ep)
    return out


def opened(state: MemoryState) -> list[Entry]:
    """Open entries (Accepted and Pending), the grounding candidates."""
    return state.accepted + state.pending
