"""TARL-Mem episodes: sequences of claims with gold actions, gold targets and executable gold states.

An ``Episode`` is one namespace's stream of claims; each ``GoldStep`` names the gold action and, by
step index, the entry it is about. Gold next states are not written by hand: ``gold_states`` runs the
gold actions through the one executor, so gold is as executable as predictions are.

The generator (``generate``) follows the labelling contract (the project's ``tarl_labels`` notes) and
is built so that metadata alone tells little about the label (``bench/probe.py`` measures how little).
Each step first picks what the claim *says*
relative to memory (a first mention, a restatement in other words, a completed change, a further value
of a multi-valued attribute, an uncertain plan, a future-dated change, a stale snapshot, an injected
instruction, chit-chat); then draws its source from one mix and its confidence from one distribution
(mode 0.9, what adapters send), whatever the event; and only then derives the label from the contract.
So third parties and web pages also report true new facts (``defer_verify``) and restate accepted ones
(``noop``), tools also return stale snapshots (``reject_conflict``) and confirm stored values (``noop``),
users soften real changes ("..., I think") that still ``revise``; a change to an important attribute
(credentials, bank details, a phone number) from a source that is not clearly trusted waits
(``defer_verify``). A namespace holds several subjects (the user, their children, a colleague, orders,
tickets, trips, services) whose slots never target each other. Cardinality lives in ``GoldStep.many`` (and on the claim once ``Claim`` has a ``many`` field),
never in claim metadata. Splits are disjoint by person (the namespace's user).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from ..executor import MemoryState, Step, execute
from ..schema import Action, Claim, Entry
from .phrases import CHILD, COLLEAGUE, ORDER, SERVICE, TICKET, TRIP, USER, Attribute, tool_output
from .phrases import frames as F
from .phrases.voices import Say, Speaker, Subject, finish

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
    many: bool | None = None
    """The claim's attribute holds several values (likes, allergies, members); None when unknown or no slot.
    Kept beside the claim, not in its metadata, so no model reads it as a hint."""
    slot: str | None = None
    """The canonical ``subject.attribute`` the claim is about, whether or not the claim carries it (free text)."""


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


SOURCE_MIX = (("user", 0.42), ("assistant", 0.16), ("tool", 0.12), ("third_party", 0.10), ("web", 0.08),
              ("document", 0.05), ("system", 0.07))
"""One source mix for every event: the source never tells the label on its own."""
RELAY_SHARE = 0.6
"""Share of assistant claims that relay what the user said (trusted) rather than infer or recap."""
INJECTORS = ("web", "document", "tool", "third_party", "assistant")
_CLAIM_HAS_MANY = "many" in Claim.model_fields


def confidence(rng: random.Random) -> float:
    """One distribution for all events, with its mode at 0.9 (what the adapters send almost always)."""
    return 0.9 if rng.random() < 0.6 else round(rng.triangular(0.5, 1.0, 0.9), 2)


@dataclass
class _Builder:
    rng: random.Random
    namespace: str
    clock: datetime = EPOCH
    steps: list[GoldStep] = field(default_factory=list)
    accepted: dict[str, list[int]] = field(default_factory=dict)
    pending: dict[str, list[int]] = field(default_factory=dict)
    value: dict[int, str] = field(default_factory=dict)
    past: dict[str, list[str]] = field(default_factory=dict)
    slotted: dict[str, bool] = field(default_factory=dict)

    def tick(self) -> datetime:
        self.clock += timedelta(hours=self.rng.choice([1, 3, 8, 20, 30, 50, 100]))
        return self.clock

    def speaker(self, exclude: tuple[str, ...] = ()) -> Speaker:
        names, weights = zip(*[(s, w) for s, w in SOURCE_MIX if s not in exclude])
        source = self.rng.choices(names, weights)[0]
        return Speaker(source, source == "assistant" and self.rng.random() < RELAY_SHARE)

    def add(self, slot: str | None, many: bool | None, text: str, source: str, action: Action, target: int | None,
            kind: str, value: str | None = None, valid_from: datetime | None = None, stamp: bool = True) -> int:
        rng, at = self.rng, self.tick()
        if slot is not None and slot not in self.slotted:
            self.slotted[slot] = rng.random() < 0.55
        use_slot = slot if slot is not None and self.slotted[slot] and rng.random() < 0.9 else None
        held_from = self.steps[target].claim.valid_from if target is not None else None
        if valid_from is None and stamp and rng.random() < 0.35 and (held_from is None or at >= held_from):
            valid_from = at   # a stamp earlier than the target's validity would make the claim stale
        extra = {"many": many} if _CLAIM_HAS_MANY and use_slot else {}
        claim = Claim(text=text, namespace=self.namespace, source=source, confidence=confidence(rng), observed_at=at,
                      valid_from=valid_from, slot=use_slot, **extra)
        self.steps.append(GoldStep(claim, action, target, kind, many=many if slot else None, slot=slot))
        i = len(self.steps) - 1
        if value is not None:
            self.value[i] = value
        if slot is not None and action in (Action.APPEND, Action.REVISE):
            self.accepted.setdefault(slot, []).append(i)
            if target is not None and action is Action.REVISE:
                self.accepted[slot].remove(target)
                self.past.setdefault(slot, []).append(self.value[target])
        elif slot is not None and action is Action.DEFER_VERIFY:
            self.pending.setdefault(slot, []).append(i)
        return i


def _event(b: _Builder, subject: Subject, attr: Attribute) -> None:
    """One step about ``subject``'s ``attr``: what it says is chosen first, then who says it, then the label."""
    rng = b.rng
    slot = f"{subject.key}.{attr.key}"
    say = Say(rng, subject, attr)
    acc, pend = list(b.accepted.get(slot, [])), b.pending.get(slot, [])
    held = {b.value[i] for i in acc}
    waiting = [b.value[i] for i in pend if b.value[i] not in held]

    def fresh() -> str:
        return rng.choice([v for v in attr.values if v not in held] or list(attr.values))

    def put(text: str, sp: Speaker, action: Action, target: int | None, kind: str, v: str, **kw: object) -> None:
        b.add(slot, attr.many, text, sp.source, action, target, kind, v, **kw)  # type: ignore[arg-type]

    def soft(sp: Speaker, share: float) -> float:
        """Softeners are what people write (the user, hearsay, the assistant), not tools, pages or forms."""
        return 1.0 if sp.source in ("user", "third_party", "assistant") and rng.random() < share else 0.0

    def first_mention(v: str, kind: str, own: tuple[str, ...], generic: tuple[str, ...]) -> None:
        sp = b.speaker()
        s = soft(sp, 0.08)
        text = say(sp, own, generic, v, soften=s)
        ok = sp.trusted and not s
        put(text, sp, Action.APPEND if ok else Action.DEFER_VERIFY, None, kind if ok else f"{kind}_unverified", v)

    def change(v: str, kind: str) -> None:
        t = rng.choice(acc)
        sp = b.speaker(("tool",) if attr.many else ())
        if attr.many:
            own, generic = attr.change, F.LABEL_SWAP
        elif rng.random() < 0.55:
            own, generic = attr.change, F.LABEL_CHANGE
        else:   # the new value in plain state wording: no cue word at all
            own, generic = attr.state, F.LABEL_STATE
        text = say(sp, own, generic, v, o=b.value[t], soften=soft(sp, 0.25))
        if sp.trusted:
            put(text, sp, Action.REVISE, t, kind, v)
        elif attr.important:   # maybe the real owner, maybe a scam: verify before anything changes
            put(text, sp, Action.DEFER_VERIFY, t, "unverified_important", v)
        else:
            put(text, sp, Action.REJECT_CONFLICT, t, "untrusted_conflict", v)

    if not acc:
        v = rng.choice(waiting) if waiting and rng.random() < 0.4 else fresh()
        return first_mention(v, "new_fact", attr.state, F.LABEL_STATE)
    single = not attr.many
    stamped = [i for i in acc if b.steps[i].claim.valid_from is not None]
    events: list[tuple[str, float]] = [
        ("restate", 0.24), ("change", 0.26 if single else 0.12), ("add", 0.0 if single else 0.26), ("hedge", 0.12),
        ("future", 0.08 if single else 0.0), ("stale", 0.08 if stamped and single else 0.0), ("inject", 0.05),
        ("confirm", 0.08 if waiting else 0.0)]
    names, weights = zip(*events)
    event = rng.choices(names, weights)[0]
    if event == "confirm":   # a value held in Pending is said again: labelled against Accepted, never promoted
        v = rng.choice(waiting)
        if attr.many:
            return first_mention(v, "confirm_value", attr.add or attr.state, F.LABEL_ADD)
        return change(v, "confirm_change")
    if event == "restate":
        t = rng.choice(acc)
        if rng.random() < 0.15:   # the same words again (a repeated tool call, a repeated sentence)
            old = b.steps[t].claim
            return put(old.text, Speaker(old.source), Action.NOOP, t, "repeat", b.value[t])
        sp = b.speaker()
        other = rng.random() < 0.6
        text = say(sp, attr.restate if other else attr.state, F.LABEL_RESTATE if other else F.LABEL_STATE, b.value[t],
                   soften=soft(sp, 0.25))
        return put(text, sp, Action.NOOP, t, "restate", b.value[t])
    if event == "change":
        return change(fresh(), "change")
    if event == "add":
        own = attr.add if rng.random() < 0.65 else attr.state
        return first_mention(fresh(), "further_value", own, F.LABEL_ADD if own is attr.add else F.LABEL_STATE)
    if event == "hedge":     # uncertain or merely planned: it waits, whoever says it
        sp = b.speaker(("tool",))
        own, v = attr.hedge if rng.random() < 0.5 else (), fresh()
        return put(say(sp, own, F.LABEL_HEDGE, v), sp, Action.DEFER_VERIFY, rng.choice(acc) if single else None,
                   "uncertain", v)
    if event == "future":
        t, v, sp = rng.choice(acc), fresh(), b.speaker()
        when = b.clock + timedelta(days=rng.randint(10, 90))
        if (held := b.steps[t].claim.valid_from) is not None and when <= held:   # later than what it replaces
            when = held + timedelta(days=rng.randint(10, 90))
        if sp.trusted:        # a firm change with a date: revise now, valid from then
            text = (tool_output(rng, subject.key, subject.display, attr.key, v, f"{when:%Y-%m-%d}")
                    if sp.source == "tool" else say(sp, (), F.FUTURE_FIRM, v))
            return put(text, sp, Action.REVISE, t, "future_change", v, valid_from=when)
        return put(say(sp, (), F.FUTURE_RUMOUR, v), sp, Action.DEFER_VERIFY, t, "future_rumour", v, stamp=False)
    if event == "stale":     # an older snapshot arrives late: older validity loses
        t = rng.choice(stamped)
        v = rng.choice(b.past.get(slot) or [fresh()])
        sp = b.speaker()
        text = say(sp, attr.state, F.LABEL_STATE, v)
        if sp.source in ("user", "assistant", "third_party") or rng.random() < 0.5:   # people say it is old
            text = rng.choice([f for f in F.STALE if f != "{t}"]).format(t=text, date=rng.choice(F.DATES))
        before = b.steps[t].claim.valid_from - timedelta(days=rng.randint(30, 700))  # type: ignore[operator]
        return put(text, sp, Action.REJECT_CONFLICT, t, "stale", v, valid_from=before)
    t, sp = rng.choice(acc), Speaker(rng.choice(INJECTORS))   # an injected instruction never reaches Accepted
    frame = F.INJECTIONS_MANY if attr.many else F.INJECTIONS
    put(say(sp, attr.state, F.LABEL_STATE, fresh(), o=b.value[t], frame=frame), sp, Action.REJECT_CONFLICT, t,
        "injection", "")


def _subjects(rng: random.Random, name: str) -> list[Subject]:
    """The user, and maybe their children, a colleague, orders and a ticket: distinct subjects, one namespace."""
    first = name.split()[0]
    out = [Subject("user", (name, first, "the user", "User"), (), name, tuple(rng.sample(USER, rng.randint(2, 4))))]
    for kid in rng.sample(F.KID_NAMES, rng.choice([0, 0, 1, 1, 2])):
        rel = rng.choice(["son", "daughter", "kid"])
        out.append(Subject(kid.lower(), (kid, f"{first}'s {rel} {kid}"), (kid, f"my {rel} {kid}"), kid,
                           tuple(rng.sample(CHILD, rng.randint(1, 2)))))
    if rng.random() < 0.3:
        c = rng.choice([f for f in F.FIRST if f != first])
        full = f"{c} {rng.choice(F.LAST)}"
        out.append(Subject(c.lower(), (full, c), (f"{rng.choice(F.COLLEAGUE_ROLES)} {c}", c), full,
                           tuple(rng.sample(COLLEAGUE, rng.randint(1, 2)))))
    for oid in rng.sample(range(1000, 9999), rng.choice([0, 0, 1, 2])):
        out.append(Subject(f"order_{oid}", (f"order #{oid}", f"#{oid}", f"order {oid}"),
                           (f"my order #{oid}", f"order {oid}"),
                           f"#{oid}", tuple(rng.sample(ORDER, rng.randint(1, 2)))))
    if rng.random() < 0.25:
        city = rng.choice(F.TRIP_CITIES)
        out.append(Subject(f"trip_{city.lower()}", (f"the {city} trip", f"{first}'s {city} trip"),
                           (f"my {city} trip", f"our {city} trip"), f"{city} trip",
                           tuple(rng.sample(TRIP, rng.randint(1, 2)))))
    for svc in rng.sample(F.SERVICES, rng.choice([0, 0, 0, 1, 2])):
        out.append(Subject(svc.lower(), (svc,), (svc, f"our {svc}"), svc, tuple(rng.sample(SERVICE, rng.randint(1, 2)))))
    if rng.random() < 0.25:
        tid = f"OPS-{rng.randint(100, 9999)}"
        out.append(Subject(tid.lower(), (f"ticket {tid}", tid), (f"my ticket {tid}", tid), tid,
                           tuple(rng.sample(TICKET, rng.randint(1, 2)))))
    return out


def generate_episode(seed: int, person: str | None = None) -> Episode:
    rng = random.Random(seed)
    last = rng.choice(F.LAST) if rng.random() < 0.5 else f"{rng.choice(F.LAST)}-{rng.choice(F.LAST)}"
    name = person or f"{rng.choice(F.FIRST)} {last}"
    b = _Builder(rng, "u_" + name.lower().replace(" ", "_"))
    unseen = [(s, a) for s in _subjects(rng, name) for a in s.attributes]
    rng.shuffle(unseen)
    seen: list[tuple[Subject, Attribute]] = []
    length = rng.randint(10, 22)
    while len(b.steps) < length:
        r = rng.random()
        if r < 0.07:
            sp = rng.choices(["user", "assistant"], [0.75, 0.25])[0]
            b.add(None, None, finish(rng, rng.choice(F.CHITCHAT), 0.2), sp, Action.NOOP, None, "chitchat", stamp=False)
            continue
        if unseen and (r < 0.4 or not seen):
            seen.append(unseen.pop())
            pair = seen[-1]
        else:
            pair = rng.choice(seen)
        _event(b, *pair)
    return Episode(name=b.namespace, split=split_of(name), origin="generated", steps=tuple(b.steps))


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
