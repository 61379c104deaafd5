"""Belief tools for LLM agents: one definition (names, descriptions, input schemas, behaviour) that the
LangChain and LlamaIndex adapters only wrap.

The model states what it believes and how beliefs hang together; the engine does the bookkeeping a
model forgets across sessions: pruning what rests on a refuted premise, exhausting and deducing in
closed questions, and choosing what to test next. Every tool answers in plain text with short ids
(``Q1``, ``H3``, see :mod:`.aliases`) and says what followed from the call, so the model never has to
re-derive it. Bad input (an unknown id, a cycle, a prior outside (0, 1], a missing field) comes back as
an ``error: ...`` reply naming the field and value; nothing is written, and the model can retry.

>>> from shared_core import MemoryEngine
>>> tools = BeliefTools(MemoryEngine.open(), "lab")
>>> print(tools.call("declare_question", {"question": "Which catalyst works?", "closed_world": True,
...       "candidates": [{"text": "A works", "prior": 0.6}, {"text": "B works", "prior": 0.4}]}))
Q1 declared (closed world: exactly one candidate holds): H1 'A works' (prior 0.60), H2 'B works' (prior 0.40)
>>> print(tools.call("record_result", {"hypothesis": "H1", "confirmed": False, "evidence": "no yield"}))
R1 recorded: H1 refuted.
- H1: refuted by result R1
- H2: deduced: the only member of closed group Q1 still in play
>>> print(tools.call("propose_hypothesis", {"text": "C works", "prior": 1.5}))
error: prior=1.5: Input should be less than or equal to 1. Nothing was written; fix the call and retry.
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import TarlError
from ..schema import Entry, Ledger, Move, Transaction
from . import kinds as K
from .aliases import Aliases
from .briefing import briefing, consequences
from .graph import ancestors
from .live import LiveView
from .hypotheses import best, frontier, sample, status

if TYPE_CHECKING:
    from ..engine import MemoryEngine
    from ..executor import MemoryState

Rule = Literal["argmax", "deepest", "sample"]
RULES: tuple[Rule, ...] = ("argmax", "deepest", "sample")
DEFAULT_RULE: Rule = "deepest"
"""What ``next_to_test`` suggests by default: the deepest frontier hypothesis (the one resting on the
most confirmed hypotheses), highest prior among equals -- finish a promising line before opening
another. Chosen on ``tarl bench beliefs --agent`` (README, "Choosing next_to_test's rule"): fewest
experiments of the three rules at prior noise 0, 0.2 and 0.4 (3.97 / 4.23 / 4.37 against argmax's
4.37 / 4.33 / 4.43 and sampling's 5.58 / 5.60 / 5.54). Sampling (the engine's ``next_to_test``
default) pays for exploration that pruning and deduction make unnecessary -- they already keep a
chooser off a dead path -- and has the worst tail; the price of ``deepest`` is that a low-prior line is
opened last, which loses on worlds whose only true line has the lowest prior."""


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ProposeHypothesis(_Input):
    """Propose one hypothesis to test (or a new candidate answer to a declared question)."""

    text: str = Field(min_length=1, description="The hypothesis, one self-contained sentence.")
    prior: float = Field(0.5, gt=0.0, le=1.0, description="Your probability that it holds, in (0, 1].")
    rests_on: list[str] = Field(default_factory=list,
                                description="Ids (H...) of hypotheses that must hold for this one to hold.")
    answers: str | None = Field(None, description="Id (Q...) of the question this is a candidate answer to.")
    retest: bool = Field(False, description="True to propose again a hypothesis that was refuted or pruned.")


class Candidate(_Input):
    text: str = Field(min_length=1, description="A candidate answer, one self-contained sentence.")
    prior: float | None = Field(None, gt=0.0, le=1.0, description="Your probability that it is the answer.")


class DeclareQuestion(_Input):
    """Declare a question with its competing candidate answers."""

    question: str = Field(min_length=1, description="The question, e.g. 'Which catalyst works?'.")
    candidates: list[Candidate] = Field(default_factory=list, description="Its candidate answers.")
    closed_world: bool = Field(description="True if exactly one candidate holds (the list is complete); "
                                           "False if the list may be incomplete or several may hold.")
    rests_on: list[str] = Field(default_factory=list,
                                description="Ids (H...) of hypotheses every candidate rests on.")


class StartExperiment(_Input):
    """Start an experiment on a hypothesis (marks it in progress)."""

    hypothesis: str = Field(description="Id (H...) of the hypothesis to test.")
    description: str | None = Field(None, description="What the experiment does.")


class RecordResult(_Input):
    """Record an experiment's outcome; the engine prunes and deduces what follows."""

    hypothesis: str = Field(description="Id (H...) of the hypothesis tested.")
    confirmed: bool = Field(description="True if the result supports the hypothesis, False if it refutes it.")
    evidence: str = Field(min_length=1, description="What was observed, in one or two sentences.")
    experiment: str | None = Field(None, description="Id (E...) of the experiment; default: its open one.")


class NoInput(_Input):
    pass


class Explain(_Input):
    """Why an entry is where it is."""

    id: str = Field(description="Any id: H... (hypothesis), Q... (question), E..., R... or A... (assumption).")


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    schema: type[BaseModel]
    run: Callable[[Any], str]


class BeliefTools:
    """The belief tools bound to one engine and namespace (one research project).

    ``rule``: how ``next_to_test`` picks from the frontier ("argmax": highest prior; "sample": in
    proportion to prior, seeded by ``seed``).
    """

    def __init__(self, engine: MemoryEngine, namespace: str, *, rule: Rule = DEFAULT_RULE,
                 seed: int | None = None) -> None:
        from ..engine import MemoryEngine

        if not isinstance(engine, MemoryEngine):
            raise TarlError("engine", engine, "must be a shared_core MemoryEngine")
        if not isinstance(namespace, str) or not namespace.strip():
            raise TarlError("namespace", namespace, "must be a non-empty string")
        if rule not in RULES:
            raise TarlError("rule", rule, f"must be one of {', '.join(RULES)}")
        self.engine, self.namespace, self.rule = engine, namespace, rule
        self.rng = random.Random(seed)
        self._live: LiveView | None = None
        self._lock = threading.RLock()         # parallel tool calls share one live view
        self.specs: tuple[ToolSpec, ...] = (
            ToolSpec("declare_question", "Declare a question with competing candidate answers (closed_world: "
                     "the list is complete and exactly one holds, so refuting all but one deduces it). "
                     "Returns the ids (Q..., H...).", DeclareQuestion, self._declare),
            ToolSpec("propose_hypothesis", "Propose a hypothesis, with your prior, the hypotheses it rests on "
                     "and the question it answers. Returns its id (H...).", ProposeHypothesis, self._propose),
            ToolSpec("start_experiment", "Start an experiment on a hypothesis from the frontier.",
                     StartExperiment, self._start),
            ToolSpec("record_result", "Record an experiment's result with its evidence. Says what was pruned, "
                     "exhausted or deduced as a consequence.", RecordResult, self._record),
            ToolSpec("next_to_test", "The hypothesis to test next, and why.", NoInput, self._next),
            ToolSpec("frontier", "Every hypothesis that can usefully be tested now (untested, premises "
                     "confirmed).", NoInput, self._frontier),
            ToolSpec("explain", "Why a hypothesis is pruned, refuted, deduced, confirmed or untested: its "
                     "premises, evidence and history.", Explain, self._explain),
        )

    # -- calling ------------------------------------------------------------------------------
    def spec(self, name: str) -> ToolSpec:
        for s in self.specs:
            if s.name == name:
                return s
        raise TarlError("name", name, f"no such belief tool (tools: {', '.join(s.name for s in self.specs)})")

    def call(self, name: str, args: dict[str, Any] | None = None) -> str:
        """Run tool ``name`` on raw ``args`` (as a model sent them); always a reply, never an exception
        for bad input."""
        spec = self.spec(name)
        try:
            params = spec.schema.model_validate(args or {})
        except ValidationError as exc:
            return validation_message(exc)
        with self._lock:
            try:
                return spec.run(params)
            except TarlError as err:
                return self.error(err)

    async def acall(self, name: str, args: dict[str, Any] | None = None) -> str:
        """``call`` on a worker thread: the engine's SQLite transaction never blocks the event loop."""
        return await asyncio.to_thread(self.call, name, args)

    def functions(self, name: str) -> tuple[Callable[..., str], Callable[..., Awaitable[str]]]:
        """Tool ``name`` as a sync and an async keyword function, the shape frameworks wrap as a tool."""
        self.spec(name)

        def run(**kwargs: Any) -> str:
            return self.call(name, kwargs)

        async def arun(**kwargs: Any) -> str:
            return await self.acall(name, kwargs)

        return run, arun

    def error(self, err: TarlError) -> str:
        text = self.view()[1].render(str(err))
        return f"error: {text}. Nothing was written; fix the call and retry."

    def briefing(self) -> str:
        """The prompt summary for this namespace (see :mod:`.briefing`)."""
        with self._lock:
            self.view()
            assert self._live is not None
            return briefing(self._live)

    def view(self) -> tuple[MemoryState, Aliases]:
        """The namespace now (other processes' writes included)."""
        self._changes()
        assert self._live is not None
        return self._live.state, self._live.aliases

    def _seen(self) -> tuple[MemoryState, Aliases]:
        """The view as of the last refresh (right after ``_changes``: no need to look again)."""
        assert self._live is not None
        return self._live.state, self._live.aliases

    def _changes(self, done: Transaction | Entry | None = None) -> list[Move]:
        """The namespace's moves since the last look (after a write: the write and its consequences;
        ``done``: that write, when the engine returned it, so it need not be read back)."""
        if self._live is None:
            self._live = LiveView(self.engine, self.namespace)
            return []
        absorbed = self._live.absorb(done) if done is not None else None
        return absorbed if absorbed is not None else self._live.refresh()

    # -- the tools ----------------------------------------------------------------------------
    def _declare(self, p: DeclareQuestion) -> str:
        state, al = self.view()
        premises = _premises(al, p.rests_on)
        texts = [_norm(c.text) for c in p.candidates]
        if len(set(texts)) != len(texts):
            raise TarlError("candidates", [c.text for c in p.candidates], "lists the same candidate twice")
        same = _restated(state, p.question, K.GROUP)
        if same is not None:
            raise TarlError("question", p.question, f"is already declared as {al.alias(same.id)}; add candidates "
                            f"with propose_hypothesis(answers={al.alias(same.id)!r})")
        n = len(p.candidates)
        group = self.engine.exclusion_group(p.question, self.namespace, closed_world=p.closed_world)
        members = [self.engine.hypothesis(c.text, self.namespace, group=group.id, depends_on=premises,
                                          prior=c.prior if c.prior is not None else (1 / n if p.closed_world else 0.5))
                   for c in p.candidates]
        al = self.view()[1]
        world = "closed world: exactly one candidate holds" if p.closed_world else "open world"
        listed = ", ".join(f"{al.alias(m.id)} {m.text!r} (prior {K.prior(m):.2f})" for m in members)
        return f"{al.alias(group.id)} declared ({world}): {listed or 'no candidates yet'}"

    def _propose(self, p: ProposeHypothesis) -> str:
        state, al = self.view()
        premises = _premises(al, p.rests_on)
        group = al.resolve(p.answers, "answers", K.GROUP) if p.answers is not None else None
        same = _restated(state, p.text, K.HYPOTHESIS, group.id if group else None)
        if same is not None:
            loop = [q for q in premises if q == same.id or same.id in ancestors(state, q)]
            if loop:
                raise TarlError("rests_on", p.rests_on, f"would make a cycle: {p.text!r} is {al.alias(same.id)}, and "
                                f"{al.alias(loop[0])} already rests on {al.alias(same.id)}")
            if same.ledger is not Ledger.HISTORY:
                return f"already proposed as {al.alias(same.id)} [{status(state, same).value}]; nothing written."
            if not p.retest:
                return (f"{al.alias(same.id)} {same.text!r} is {status(state, same).value}: {al.render(same.note or '')}. "
                        "Nothing written; call explain for why, or propose it with retest=true to test it anew.")
        h = self.engine.hypothesis(p.text, self.namespace, prior=p.prior, depends_on=premises,
                                   group=group.id if group else None)
        return self._outcome(f"proposed: {h.text!r}", h.id, self._changes())

    def _start(self, p: StartExperiment) -> str:
        h = self.view()[1].resolve(p.hypothesis, "hypothesis", K.HYPOTHESIS)
        exp = self.engine.start_experiment(h.id, p.description)
        self._changes(exp)
        al = self._seen()[1]
        return (f"{al.alias(exp.id)} started on {al.alias(h.id)} {h.text!r}. When it is done, call "
                f"record_result(hypothesis={al.alias(h.id)!r}, ...).")

    def _record(self, p: RecordResult) -> str:
        state, al = self.view()
        h = al.resolve(p.hypothesis, "hypothesis", K.HYPOTHESIS)
        if p.experiment is not None:
            exp: Entry | None = al.resolve(p.experiment, "experiment", K.EXPERIMENT)
        else:
            running = [e for e in state.pending if K.kind(e) == K.EXPERIMENT and e.metadata.get(K.OF) == h.id]
            exp = max(running, key=lambda e: e.created_tx, default=None)
        outcome = K.CONFIRMED if p.confirmed else K.REFUTED
        t = self.engine.record_result(h.id, p.confirmed, experiment_id=exp.id if exp else None,
                                      text=f"{outcome}: {h.text} -- evidence: {p.evidence}")
        return self._outcome("recorded:", t.created[0].id, self._changes(t), subject=h.id)

    def _next(self, p: NoInput) -> str:
        state, al = self.view()
        options = sorted(frontier(state, state.pending), key=lambda e: (-K.prior(e), e.created_tx))
        if not options:
            return "Nothing to test: the frontier is empty. " + _established(state, al)
        depth = {e.id: _depth(state, e) for e in options}
        if self.rule == "sample":
            pick = sample(options, self.rng)
        else:                         # options are sorted by prior: max keeps the highest-prior first
            pick = max(options, key=lambda e: depth[e.id]) if self.rule == "deepest" else best(options)
        assert pick is not None
        total = sum(K.prior(e) for e in options)
        why = {"argmax": f"the highest prior ({K.prior(pick):.2f})",
               "deepest": f"the deepest (rests on {depth[pick.id]} confirmed hypotheses), then the highest "
                          f"prior ({K.prior(pick):.2f})",
               "sample": f"drawn in proportion to prior ({K.prior(pick):.2f}, a {K.prior(pick) / total:.0%} chance)"}
        why = why[self.rule]
        others = ", ".join(f"{al.alias(e.id)} {K.prior(e):.2f}" for e in options if e.id != pick.id)
        return (f"Test {al.alias(pick.id)} next: {pick.text!r}. Why: {why} among {len(options)} frontier "
                f"hypotheses (untested, every premise confirmed){_rests(pick, al)}."
                + (f" Others: {others}." if others else ""))

    def _frontier(self, p: NoInput) -> str:
        state, al = self.view()
        options = sorted(frontier(state, state.pending), key=lambda e: (-K.prior(e), e.created_tx))
        if not options:
            return "The frontier is empty. " + _established(state, al)
        return "\n".join(f"{al.alias(e.id)} {e.text!r} (prior {K.prior(e):.2f}{_rests(e, al)})" for e in options)

    def _explain(self, p: Explain) -> str:
        al = self.view()[1]
        ref = p.id.strip().upper()
        kind = next((k for k, pre in _KIND_OF_PREFIX.items() if ref.startswith(pre)), K.HYPOTHESIS)
        entry = al.resolve(p.id, "id", kind)
        return al.render(str(self.engine.explain(entry.id)))

    # -- what followed --------------------------------------------------------------------------
    def _outcome(self, head: str, created: str, moves: Sequence[Move], subject: str | None = None) -> str:
        state, al = self._seen()
        subject_entry = state.entry(subject or created)
        lead = f"{al.alias(created)} {head}"
        if subject is not None and subject_entry is not None:
            lead += f" {al.alias(subject)} {status(state, subject_entry).value}."
        else:
            lead += f" [{status(state, subject_entry).value if subject_entry else 'unknown'}]"
            if subject_entry is not None and subject_entry.note:
                lead += f": {al.render(subject_entry.note)}"
        lines = consequences(moves, state, al, skip=created)
        return "\n".join([lead, *lines])


def validation_message(exc: ValidationError) -> str:
    """A pydantic error as the model should read it: each bad field with its value and the fix."""
    parts = []
    for err in exc.errors():
        field = ".".join(str(x) for x in err["loc"]) or "input"
        value = "missing" if err["type"] == "missing" else repr(err.get("input"))
        parts.append(f"{field}={value}: {err['msg']}" if err["type"] != "missing" else f"{field}: required")
    return f"error: {'; '.join(parts)}. Nothing was written; fix the call and retry."


_KIND_OF_PREFIX = {K.GROUP: "Q", K.EXPERIMENT: "E", K.RESULT: "R", K.HYPOTHESIS: "H", K.CLOSED_WORLD: "A"}


def _premises(al: Aliases, refs: Sequence[str]) -> list[str]:
    ids = [al.resolve(r, f"rests_on[{i}]", K.HYPOTHESIS).id for i, r in enumerate(refs)]
    return list(dict.fromkeys(ids))


def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".?! ")


def _restated(state: MemoryState, text: str, kind: str, group: str | None = None) -> Entry | None:
    """The newest entry of ``kind`` with the same text (and question): a model restating itself."""
    same = [e for e in state.entries.values() if K.kind(e) == kind and _norm(e.text) == _norm(text)
            and (kind != K.HYPOTHESIS or K.group_of(e) == group)]
    return max(same, key=lambda e: e.created_tx, default=None)


def _depth(state: MemoryState, e: Entry) -> int:
    """How many hypotheses ``e`` rests on, transitively (on the frontier: all of them confirmed)."""
    return sum(1 for a in ancestors(state, e.id) if K.kind(state.entry(a) or e) == K.HYPOTHESIS and a != e.id)


def _rests(e: Entry, al: Aliases) -> str:
    premises = [al.alias(p) for p in e.depends_on if al.alias(p).startswith("H")]
    return f"; rests on {', '.join(premises)}" if premises else ""


def _established(state: MemoryState, al: Aliases) -> str:
    held = [e for e in state.accepted if K.kind(e) == K.HYPOTHESIS]
    if not held:
        return "Nothing is established yet; propose hypotheses or declare a question."
    return "Established: " + ", ".join(f"{al.alias(e.id)} ({status(state, e).value})" for e in held) + "."
