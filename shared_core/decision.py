"""THE decision function: how one claim changes memory, from a read view of the namespace.

``MemoryEngine.write`` calls it under the ledger's write lock; ``tarl bench tarl-mem`` and training call
it on gold (or rolled-out) states; so the benchmark measures the shipped path. It is pure: it reads
the candidates it is handed and returns the steps to execute, never writing anything itself.

Pipeline: check the source against the configuration -> slots (the claim's explicit or inferred
``subject.attribute`` and cardinality, and each candidate's) -> linking (``linking``: explicit slots on
both sides decide; otherwise the learned pair model's probability that the claim is about each
candidate, zero without shared evidence) -> grounding (the linked candidate, else the nearest one, as
context) -> change (``change``: does the claim say something different about it) -> reliability
comparison -> the policy's scores -> the labelling contract (``policy.contract``) -> pending resolution
(corroboration promotes a Pending entry, never one untrusted source by another).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from . import calls, change, chitchat, contrast, endings, grounding, linking, members, moments, pending, quantities, records
from . import distinct, initials, kin, lists, slots, stamps, states, tense, units, versions
from .config import PolicyConfig, default_config
from .cuescan import Prefiltered, has_digit
from .executor import Step
from .grounding import Grounding, claim_features, content_tokens, features, match_side, matched, proposition
from .policy.base import Policy
from .policy.contract import OWNER_PRIOR, enforce
from .reliability import Comparison, compare, hedged, prior, reliability
from .schema import Claim, Decision, Entry, Ledger
from .written import written_alike

CHANGE_CUE = ("update_cue", "negation_differs")


@dataclass(frozen=True)
class Outcome:
    decision: Decision
    steps: list[Step]
    grounding: Grounding
    comparison: Comparison | None


def restates(claim: Claim, entry: Entry) -> bool:
    return linking.restated(claim.text, entry.text)


def slot_of(item: Claim | Entry) -> slots.Slot:
    """The slot of a claim or an entry (its cardinality from the claim's ``many``, an entry's metadata). Asked of every
    candidate of every decision (~55 a write at 10k entries), a cache hit: the checks around it are written for speed."""
    many = item.many if type(item) is Claim else item.metadata.get("many")
    return slots.of(item.text, item.slot, many if many is True or many is False else None)


def _says_more(claim: str, entry: str) -> bool:
    """The claim says all the entry says and names more ("The user works at Acme as a senior engineer" after
    "... as an engineer", "Ticket ZX-4410 is open and assigned to Maria" after "Ticket ZX-4410 is open"):
    whatever else it is, it is no repeat to drop."""
    said = content_tokens(proposition(entry))
    return bool(said) and said <= content_tokens(proposition(claim)) and bool(linking.specific(claim) - linking.specific(entry))


def _links(claim: Claim, mine: slots.Slot, kept: Sequence[tuple[Entry, slots.Slot]],
           sims: dict[str, float]) -> list[float | None]:
    """The linker's probability per candidate; None where explicit slots on both sides decide, or
    when no linker is shipped."""
    model = linking.default()
    scored = [mine.explicit is None or theirs.explicit is None for _, theirs in kept]
    if model is None or not any(scored):
        return [None] * len(kept)           # (explicit slots everywhere: every answer below would be None)
    rows = [(e.text, theirs, sims.get(e.id, 0.0)) for e, theirs in kept]
    x = linking.matrix(claim.text, mine, rows, scored)
    p = linking.gated(model, x)
    if units.amounts(claim.text):       # "im 183cm": about the entry holding that amount in another unit ("6 ft tall")
        p = np.where([units.same_amount(claim.text, e.text) for (e, _), s in zip(kept, scored) if s], 1.0, p)
    if _MOVED_ON.search(claim.text):     # "bo left for a startup" about "Bo is the other ML eng": the person
        words = linking.lower_words(claim.text)     # named moved on, so their entry is the one it changes
        named = np.asarray([_moved_on(mine, e.text, theirs, words) for (e, theirs), s in zip(kept, scored) if s])
        p = np.where(named, model.probabilities(x), p)
    found = iter(p.tolist())        # (Python floats at once, not a numpy scalar each)
    return [next(found) if s else None for s in scored]


def _moved_on(mine: slots.Slot, entry: str, theirs: slots.Slot, words: frozenset[str]) -> bool:
    """The person a moving-on claim names is the one the entry is about: its subject ("Bo is the other ML eng"),
    or, where the entry has none, the claim's own subject named in it ("and Bruno joined us this sprint")."""
    people = linking.person_words(theirs.subject or "")
    if not people:
        return theirs.subject is None and mine.subject is not None and " " not in mine.subject \
            and mine.subject in grounding.entities(entry)
    return people <= words and mine.subject in (None, theirs.subject) \
        and not (mine.known and not slots.same_attribute(mine, theirs))    # "Rafael moved to Berlin": not his job


_MOVED_ON = Prefiltered(re.compile(
    r"\b(?:left|quit|retired|retiring|resigned|switched|moved|transferred|promoted|stepped down|replaced|went over|"
    r"got poached|poached|signed with|on sabbatical|(?:off|out) sick|(?:mat|maternity|paternity|parental) leave|can'?t make it|"
    r"dropped out|pulled out)\b", re.I))


def _link_at(cfg: PolicyConfig) -> float:
    """The configured link threshold, else the one shipped with the linker (chosen on dev)."""
    model = linking.default()
    return cfg.link_threshold if cfg.link_threshold is not None else model.threshold if model else 0.5


def _names_value(claim: str, entry: str, people: frozenset[str] = frozenset()) -> bool:
    """The claim names the entry's value (a specific word both share that no attribute family claims:
    "citalopram" in "doc upped the citalopram to 30"), so on a multi-valued attribute it is about that
    value's entry, not a further value. The name of the person both are about (``people``) is no value:
    "Alice also likes techno" names Alice, not jazz."""
    return any(slots.family(w) is None for w in (linking.specific(claim) & linking.specific(entry)) - people)


_READERS = frozenset(("tool", "system", "assistant", "reflection", "document", "web", "third_party"))
"""Sources whose text may read, recap or pass on a stored value again (``records.confirms``): a repeat, not news. The
user's own words are not read so: an owner saying more is news (``says_more``)."""

_RECORDERS = frozenset(("assistant", "reflection"))
"""Readers that recap what the conversation settled: a recap names some of its entry's values, seldom all ("Your flight
TP1351 now leaves at 08:25." after the tool's record of its gate, time and state), so naming no value the entry lacks
is its test (``records.confirms``'s ``recap``); where the entry itself ends the value the recap names ("nuked the
lastpass account" before "You use LastPass"), or the recap is a cache's, it is the value from before the change.
Measured by per-step rollout: dev and train 8 decisions more right, 0 fewer (a tool's sentence read so dropped a change
it reported: tools keep the stricter test)."""


def _confirms(claim: str, entry: str, mine: slots.Slot, theirs: slots.Slot, people: frozenset[str],
              alike: tuple[str, str], recap: bool = False) -> bool:
    """A reader's claim that holds its target's value again (``records.confirms``), the things' own ids ("order:KX12345")
    set aside as keys; not another record's (its id absent from the entry) nor a word of the entry's swapped ("priority:
    urgent" for "normal"). Read only for a reader's claim and its best target."""
    if mine.subject and has_digit(mine.subject) and mine.subject.rsplit("#", 1)[-1] not in entry.lower():
        return False
    keys = frozenset(w for s in (mine.subject, theirs.subject, mine.explicit, theirs.explicit) if s and has_digit(s)
                     for w in re.split(r"[#.: ]", s) if w)
    return not change.replaced(*alike) and records.confirms(claim, entry, keys, people, recap)


_CONFIRMING = re.compile(r"\b(?:confirm(?:ing|s)?|(?:we|i)(?:'ve| have) confirmed) (?:your|that)\b", re.I)
"""A sender's sentence that says it confirms ("... confirming your appointment on Tuesday March 5th at 3:00pm. Reply C
to confirm."): where it names every value held, a repeat, whatever else it says (not a record's "status": "confirmed")."""


WEAKER = 0.2
"""Trust prior gap from which a claim's source is clearly weaker than its target's (the assistant's recap
against what the user said: 0.6 vs 0.95)."""

_CHANGE_AT = 0.5
"""``change_p`` from which the claim says something different (the change model's own threshold is
folded into its probability by ``_change``, so one cut serves both paths)."""


def _change(alike: tuple[str, str], sim: float, mine: slots.Slot, theirs: slots.Slot, f: dict[str, float],
            replaced: bool) -> float:
    """How likely the claim says something different about its target (the two texts as written alike), rescaled so
    0.5 is the change model's dev-chosen threshold: 1 on hard evidence (``replaced``); before a model is shipped, the
    slot comparison's verdict (0 or 1)."""
    if replaced:
        return 1.0          # a name, number or word swapped for another: a change, whatever the model says
    model = change.default()
    if model is None:
        return float(slots.differs(mine, theirs) or bool(f["numbers_differ"]))
    p, t = change.probability(*alike, sim), model.threshold
    return float(0.5 * p / t if p < t else 0.5 + 0.5 * (p - t) / (1 - t))  # type: ignore[operator]


def prepare(item: Claim | Entry) -> None:
    """Compute (and cache, per text) what the decision reads of one text on its own: its slot and the
    linker's, change model's and grounding's word sets, stamps, cues, a note's field and quantities (read of
    a target, 9 in 10 decisions). A claim's are computed when it is decided, so the entry it becomes is ready
    for every later decision; only the claim in hand and the pairs remain per write."""
    linking.prepare(item.text), linking.person_words(slot_of(item).subject or "")
    change.prepare(item.text), grounding.prepare(item.text), records.fields(item.text), records.note(item.text)
    slots.family(item.text), calls.call(item.text), calls.asked(item.text), hedged(item.text)
    tense.reported(item.text), kin.relation(item.text), quantities.quantities(item.text), contrast.prepare(item.text)
    units.amounts(item.text), initials.prepare(item.text)


def _attribute_known(mine: slots.Slot, theirs: slots.Slot, claim: str, entry: str, ids_shared: bool) -> bool:
    """Evidence that the two name one attribute: both name one family (a family on one side only was often a
    stray cue: "balance" read as a price linked two of HaluMem's facts about films), a tool's record (unless
    the claim names another attribute and none of the record's ids: "aisle seat always pls" is not the
    booking), or shared keys."""
    if mine.known and theirs.known and mine.attribute == theirs.attribute:
        return True
    if "record" in (mine.attribute, theirs.attribute) and not (mine.known and mine.attribute != "record" and not ids_shared):
        return True
    return bool(linking.keys(claim) & linking.keys(entry))


RELAYS = ("third_party", "web", "unknown")
"""Sources that pass on what others say: a date in their words is a rumour's date, not a firm change."""
_UNFIRM = ("hedged", "cue_speculative", "cue_conditional", "cue_injection", "cue_stale")


def firm_future(claim: Claim, source: str, f: dict[str, float]) -> bool:
    """A change the claim itself dates after it was observed (``valid_from`` later than ``observed_at``, or a document's
    own words: a signed notice's "from 1 June the rent will be ...", an HR system's "effective day 30"), stated
    firmly by a source that is not relaying others: the labels' firm future-dated change, which revises
    (the old value stays in History for as-of queries) rather than waiting."""
    dated = claim.valid_from is not None and claim.valid_from > claim.observed_at or bool(f.get("of_record")) \
        and bool(f.get("cue_future")) and not f.get("cue_sender") and tense.dated_from(claim.text)   # a document's own
    # date ("with effect from 1 July"), not one an e-mail's sender gives
    return dated and source not in RELAYS and not any(f.get(k) for k in _UNFIRM)


def situate(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_entries: Sequence[Entry] = (),
            config: PolicyConfig | None = None) -> tuple[Grounding, Comparison | None]:
    """Grounding and reliability comparison of ``claim`` over the open candidates it is handed:
    ``neighbours`` (nearest open entries with their cosine) and ``slot_entries`` (open entries of the
    claim's explicit slot). Raises ``TarlError`` (field ``source``) for a source the config does not know."""
    cfg = config or default_config()
    source = cfg.source(claim.source)
    sims = {e.id: s for e, s in neighbours}
    premises = set(claim.depends_on)     # a claim builds on its premises: it never replaces or repeats them
    history, accepted = Ledger.HISTORY, Ledger.ACCEPTED     # (an enum member read costs ~0.13 us: ~300 a slotted write)
    pool = list({e.id: e for e in [*slot_entries, *(e for e, _ in neighbours)]
                 if e.ledger is not history and e.id not in premises}.values())
    prepare(claim)
    mine = slot_of(claim)
    base = {"source_prior": cfg.source_priors[source], "claim_reliability": reliability(claim, cfg),
            "hedged": float(hedged(claim.text)), "untrusted": float(source in cfg.untrusted), "many": float(mine.many),
            "slot_known": float(mine.known), "content_free": float(chitchat.remark(claim.text, source)),
            "of_record": float(source in cfg.of_record)}
    base["unknown_sender"] = float(source == "unknown" and bool(claim_features(claim)["cue_sender"]))
    if source == "user":        # "The user's manager is Daniel" from the user's side is relayed speech, not a recap;
        base["cue_recap"] = base["cue_injection"] = 0.0     # "update your memory, I live in Leeds now": the owner's ask
    if source == "user" and kin.RELAYED.search(claim.text):     # "my sister thinks I live in Madrid": her word
        base.update(source_prior=cfg.source_priors["third_party"], untrusted=1.0)
    kept = [(e, theirs) for e in pool if not distinct.things(mine, theirs := slot_of(e), claim.text, e.text)]
    links, link_at = _links(claim, mine, kept, sims), _link_at(cfg)
    moving = [quantities.moves(claim.text, e.text) for e, _ in kept] if quantities.moving(claim.text) else []
    if not any(moving) and moments.moving(claim.text):      # "it's the 27th now": the one entry holding when
        moving = [moments.moves(claim.text, e.text) for e, _ in kept]       # something happens
    if not any(moving) and (members.only_member(claim.text) or members.sets_state(claim.text)):    # "aisle from now
        moving = [members.other(claim.text, e.text) or members.swapped(claim.text, e.text) for e, _ in kept]   # on"
    moved = {e.id for (e, _), m in zip(kept, moving) if m} if sum(moving) == 1 else set()
    named = initials.named(claim.text, [e.text for e, _ in kept])     # "still in SF": the entry naming San Francisco
    if versions.pairs_from(claim.text):          # "$ node -v -> v20.12.2": the entry giving node's version
        named = [n or versions.shared(claim.text, e.text) for n, (e, _) in zip(named, kept)]
    links = [max(p, link_at) if p is not None and (e.id in moved or n) else p   # "upped me to 2100": the one entry
             for (e, _), p, n in zip(kept, links, named)]                     # holding a number it moves
    scored, ending = [], set()
    asked, side = calls.call(claim.text), match_side(claim.text)

    def again(e: Entry, theirs: slots.Slot) -> bool:
        """The same call read again (not a caller's slot, not another record's id): the same record."""
        return asked is not None and calls.call(e.text) == asked and slots.same_subject(mine, theirs) \
            and (mine.explicit is None or theirs.explicit is None)

    for (e, theirs), p in zip(kept, links):
        if again(e, theirs):
            score, ident, p = 1.0, True, 1.0
        elif p is not None:                  # the linker decides
            score = p
            ident = p >= link_at or restates(claim, e) or records.one_state(claim.text, e.text)
        else:
            score = matched(side, e.text, sims.get(e.id, 0.0))
            if mine.explicit is not None and theirs.explicit is not None:
                ident = mine.explicit == theirs.explicit
            else:
                ident = slots.identity(mine, theirs) or restates(claim, e) or (
                    slots.compatible(mine, theirs) and score >= cfg.match_threshold)
        if (mine.explicit is None or theirs.explicit is None) and endings.over(claim.text, e.text):
            ending.add(e.id)        # "Tom passed away": about the entry that holds Tom, whoever the subject
            if not ident:           # guesser took the claim to be about
                score, ident, p = max(score, link_at), True, max(p or 0.0, link_at)
        if mine.many and ident:     # several values: the entry holding the claim's value is the one it is about
            score += 0.5 * bool(mine.values & theirs.values)
        scored.append((ident, score, e.ledger is accepted, e, theirs, float(ident) if p is None else p))
    keyed = {e.id for _, _, _, e, theirs, _ in scored if mine.explicit is not None and theirs.explicit == mine.explicit}
    scored.sort(key=lambda t: (t[0], t[3].id in keyed, t[3].id in ending, t[1], t[2]), reverse=True)
    # the caller's own key first, then the entry whose value the claim ends ("Amir's retired": the one naming Amir)
    if scored and (scored[0][0] or scored[0][1] >= cfg.match_threshold):
        ident, _, _, best, theirs, link_p = scored[0]
        if ident and best.ledger is Ledger.PENDING and best.target_id:   # a slot under contest: the claim is
            best, theirs = next(((e, t) for *_, e, t, _ in scored if e.id == best.target_id   # about the Accepted
                                 and e.ledger is Ledger.ACCEPTED), (best, theirs))            # entry contested
        runner = scored[1][1] if len(scored) > 1 else 0.0
        amount = units.same_amount(claim.text, best.text)      # "im about 11 stone": the entry's 70 kg in stone
        if (said := initials.restated(units.restated(claim.text, best.text), best.text)) != claim.text:   # compared in
            claim = claim.model_copy(update={"text": said})     # the entry's unit and words: "about 183cm" is "about 6 ft"
            mine = slot_of(claim)
        sim = sims.get(best.id, 0.0)
        f = features(claim, best, sim, runner)
        if order := stamps.newer(claim.text, best.text) or stamps.older(claim.text, best.text, best.observed_at):
            f["cue_stale"] = float(order < 0)
        people = linking.person_words(mine.subject or "") | linking.person_words(theirs.subject or "")
        ended = endings.over(claim.text, best.text) or endings.emptied(mine, theirs, claim.text, best.text)
        revived = endings.revived(claim.text, best.text)
        record = records.compare(claim.text, best.text,     # two readings of one record, field by field
                                 mine.explicit.rsplit(".", 1)[-1] if mine.explicit else None)
        alike = written_alike(claim.text), written_alike(best.text)   # "March 3rd" is "March 3"
        version = versions.compare(claim.text, best.text)      # "node -v -> v20.12.2" after "Node v18.19.0": moved
        replaced = ended or revived or change.readdressed(claim.text, best.text) or bool(version) or (
            record if record is not None else bool(f["value_replaced"]) or change.replaced(*alike))
        same = _same_values(mine, theirs)       # "Zoe is 7 now" after "Daughter Zoe is 7": no change, whatever "now" says
        repeat = record is False or amount and not mine.values - theirs.values - units.ROUGHLY \
            or same or version is False   # the amount, nothing more; or the attribute's own
        # values again; or the program's own version
        change_p = 0.0 if repeat and not replaced else _change(alike, sim, mine, theirs, f, replaced)
        kept_by = cfg.source(best.source)               # the kind of source that wrote the entry
        f.update(base, identity=float(ident), same_subject=float(slots.same_subject(mine, theirs)),
                 same_attribute=float(slots.same_attribute(mine, theirs)),
                 qualified_apart=float(mine.known and theirs.known and mine.attribute != theirs.attribute and (
                     mine.attribute.endswith(" " + theirs.attribute) or theirs.attribute.endswith(" " + mine.attribute))),
                 value_differs=float(change_p >= _CHANGE_AT), link_p=link_p, change_p=change_p,
                 change_sure=float(replaced or change_p >= cfg.change_sure),
                 weaker_source=float(base["source_prior"] < prior(best, cfg) - WEAKER),
                 value_overlap=float(bool(mine.values & theirs.values) or _names_value(claim.text, best.text, people)),
                 same_slot=float(mine.explicit is not None and mine.explicit == theirs.explicit),
                 slot_held=float(any(e.ledger is accepted for *_, e, _, _ in scored if e.id in keyed)),
                 many=float(claim.many if claim.many is not None and mine.explicit is not None
                            and mine.explicit == theirs.explicit else mine.many or theirs.many),   # the put says
                 change_signal=float((any(f.get(k) for k in CHANGE_CUE) or mine.negated) and not same), replaced=float(replaced),
                 ended=float(ended), revived=float(revived), same_call=float(again(best, theirs)),
                 denied=float(endings.denied(claim.text, best.text)), version_moved=float(bool(version)),
                 adds_value=float(bool(theirs.values) and theirs.values < mine.values   # its values and more, beyond the word
                                   and bool(mine.values - theirs.values - slots.cue_words(claim.text))),   # naming them
                 values_apart=float(bool(mine.values) and bool(theirs.values) and not mine.values & theirs.values),
                 enumerated=float((mine.many or theirs.many) and change.enumerated(claim.text, best.text)),
                 state_moved=float(states.moved_state(claim.text, best.text)), record_same=float(record is False),
                 record_moved=float(records.moved_field(claim.text, best.text)),
                 said_unchanged=float(bool(change.unchanged(claim.text))), begun=float(change.begun(claim.text, best.text)),
                 requantified=float(quantities.requantified(claim.text, best.text)), moves_value=float(best.id in moved),
                 named_other=float(bool(linking.person_words(mine.subject or "")) and mine.subject != "user"),
                 id_valued=float(mine.attribute.endswith("_id") and mine.attribute == theirs.attribute),
                 when_apart=float(bool(moments.moments(claim.text)) != bool(moments.moments(best.text))),   # one says
                 # when, the other not: "sessions every other thursday at 6" is not who "my therapist is Joanna Wu" names
                 one_key=float(records.one_key(claim.text, best.text)),
                 tool_reads=float(source == "tool" and kept_by not in ("tool", "system")),
                 tool_rereads=float(source == "tool" and kept_by == "tool"), held_untrusted=float(kept_by in cfg.untrusted),
                 attribute_known=float(_attribute_known(mine, theirs, claim.text, best.text, bool(f["ids_shared"]))))
        f["grown"] = float(lists.grown(claim.text, best.text))
        listed = f["adds_value"] and (f["many"] or "[" in claim.text) or f["grown"]   # a list read again with more values
        # in it is news; a reading of another place (``locators_apart``) confirms nothing
        f["confirms"] = float(source in _READERS and not (listed or base["hedged"] or ended or f["locators_apart"])
                              and (version is False and versions.asked(claim.text)
                                   or _confirms(claim.text, best.text, mine, theirs, people, alike, source in _RECORDERS
                                                and not f.get("cue_stale") and not endings.ended(best.text, claim.text))
                                   or bool(_CONFIRMING.search(claim.text)) and grounding.names_every_value(*alike)))
        f["says_more"] = float(base["source_prior"] >= OWNER_PRIOR and not any(
            f.get(k) for k in ("cue_confirm", "structured", "same_slot", "negation_differs"))
            and _says_more(claim.text, best.text))
        past = tense.dated_past(claim.text), tense.dated_past(best.text)
        f["two_events"] = float(all(past) or tense.reported(claim.text))   # a moment of the talk is an event too
        f["dated_event"] = float(past[0] and not past[1])       # an event beside an undated habit or state
        f["time_cue_only"] = float(grounding.time_cue_only(claim.text) and not mine.negated and not f.get("negation_differs"))
        comparison = compare(claim, best, cfg)
        f["predates"] = float(comparison.stale or order < 0)    # valid from before the entry it meets, or read before it
        f["firm_future"] = float(firm_future(claim, source, f))
        # a record the owner's word may lose to: a tool's or the system's, or an entry the claim predates
        f["against_record"] = float(kept_by in ("tool", "system") or comparison.stale)
        return Grounding(best, sim, f, tuple(neighbours)), comparison
    f = {**claim_features(claim), **base, "change_signal": float(mine.negated)}
    return Grounding(None, max((s for _, s in neighbours), default=0.0), f, tuple(neighbours)), None


def _same_values(mine: slots.Slot, theirs: slots.Slot) -> bool:
    """One subject's one recognised attribute, with the very values the entry holds ("we've got two children" after "I
    have 2 kids": {2}): the value said again, whatever the words around it."""
    return mine.known and bool(mine.values) and mine.values == theirs.values and mine.negated == theirs.negated \
        and slots.same_attribute(mine, theirs) and slots.same_subject(mine, theirs)


def decide(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_entries: Sequence[Entry], policy: Policy,
           config: PolicyConfig | None = None, *, contract: bool = True) -> Outcome:
    """The decision and the executor steps for ``claim`` (see the module docstring). ``contract=False``
    only for external baselines in the benchmark, which are measured as they are."""
    cfg = config or default_config()
    g, c = situate(claim, neighbours, slot_entries, cfg)
    d = policy.decide(claim, g, c)
    if contract and d.decided_by != "judge":      # a judge's answer was checked on its own target (judging)
        d = enforce(d, g)
        if (report := getattr(policy, "report", None)) is not None:
            d = report(claim, d)                    # the confidence reported for what the contract settled
    if g.features.get("content_free") and not g.features.get("identity"):
        return Outcome(d, [Step(d.action, claim, d.target_id, decision=d)], g, c)
    decision, steps = pending.resolve(claim, g, d, trusted=cfg.trusted, slot_entries=slot_entries)
    return Outcome(decision, steps, g, c)

