"""Two things of one kind, told apart by a word in front of the noun that names them.

Why: "the Leeds office opens at 8" and "the York office opens at 9", "my work laptop is a Dell" and "my
personal laptop is a MacBook", "the staging database is on db-02" and "the production database is on
db-07" share their attribute and their frame, and differ only in a value-like word, so every other test
reads them as one office, laptop or database changing: the second revises the first (and the first is
lost from Accepted), or reads as a restatement and is dropped. What tells them apart is where that word
sits: in front of the noun that leads each sentence, a word the other sentence does not hold. Values sit
after the verb ("the Leeds office opens at 9 now" is the same office changing) and are not read here.

A word that says when, not which ("my old number", "the new flat", "the current plan") names one thing
at two moments, so it never tells two apart.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import slots
from .cuescan import Prefiltered
from .grounding import STOP
from .index.embedders import _stem

_LEAD = re.compile(r"^\s*(?:[a-z]+\s+of\s+(?:the\s+)?|(?:the user's|user's|the|my|our|your|his|her|their|this|that)\s+"
                   r"|(?=[a-z]+-[a-z]+\s))(.*)", re.I)
"""A determined noun phrase leading a sentence, the thing a note's label is of ("owner of payments-service: ..."), or
a compound leading one ("billing-service is owned by ...")."""
_CLAUSE = re.compile(r"[,;.!?:]\s|\s[-–]\s|[,;.!?:]$")
_WORD = re.compile(r"[a-z0-9][\w'+-]*")
_VERB = frozenset(
    "is are was were be been has have had will would can could does do did isn't aren't wasn't doesn't don't "
    "now still just also got gets moved opens closes costs leaves starts ends runs lives works sits went uses needs "
    "takes meets lands arrives departs likes loves hates owns plays drives eats drinks speaks attends prefers wants "
    "holds keeps visits belongs live renews expires stays".split())
_WHEN = frozenset(
    "old new current previous former latest next last present recent usual regular actual real original "
    "temporary interim future existing".split())
HEAD = 3
"""Words of a sentence's leading noun phrase read: a modifier or two and the noun ("north car park")."""


@lru_cache(maxsize=65536)
def _lead(text: str) -> tuple[str, ...]:
    """The words of the noun phrase a sentence opens with, after its determiner and up to its verb (or a note's
    colon), a compound's parts apart; empty when the sentence does not open so, or when nothing ends the phrase
    within ``HEAD`` words (then where the noun ends is a guess: "the user's mother-in-law says Teo ...")."""
    clause = _CLAUSE.split(text, maxsplit=1)[0]
    m = _LEAD.match(clause)
    if m is None:
        if (after := _LABEL.match(text)) is not None:       # "Staff handbook: the Manchester office is ...": who wrote
            return _lead(text[after.end():])                # it, then the sentence
        return _bare(clause, _labelled(text, clause))
    words = _parts(m.group(1))
    if (n := _end(words)) is not None:
        return tuple(words[:n])
    return tuple(words) if _labelled(text, clause) and len(words) <= HEAD else ()


def _labelled(text: str, clause: str) -> bool:
    """The clause is a note's label: its noun phrase ends where the colon is."""
    return text[len(clause):].lstrip().startswith(":")


def _parts(phrase: str) -> list[str]:
    """The phrase's words, lower-cased, a compound's parts apart ("billing-service")."""
    return [part for w in _WORD.findall(phrase.lower()) for part in w.split("-") if part]


def _end(words: list[str]) -> int | None:
    """Where a noun phrase ends: its first verb or stop word within ``HEAD`` words and the one after, or a log's "last"
    before what was done ("hallway smoke alarm last tested on ...")."""
    return next((n for n, w in enumerate(words[:HEAD + 1]) if w in _VERB or w in STOP or _last_done(words, n)), None)


def _last_done(words: list[str], n: int) -> bool:
    return words[n] == "last" and n + 1 < len(words) and words[n + 1].endswith("ed")


_LABEL = re.compile(r"^\s*[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}:\s+(?=(?:the|my|our|your|his|her|their)\s)", re.I)
"""A document's or a tool's label before a sentence that opens with a determined noun phrase."""


_PLAIN = re.compile(r"\s*[A-Za-z][A-Za-z' -]*")
"""A label in words alone (no call, key or field: ``smartlock.status() -> {"battery": ...}`` is no label)."""


def _bare(clause: str, labelled: bool) -> tuple[str, ...]:
    """A noun phrase of two or three words with no determiner, up to its verb ("home wifi password is ...", "personal
    email is ...") or a note's colon ("Work email: ..."), or in a label up to its preposition ("Outbound flight to
    Lisbon: ..."): read only where one ends it, since a bare sentence may as well open with a verb or a name."""
    words = _parts(clause)
    if labelled and 2 <= len(words) <= HEAD and _PLAIN.fullmatch(clause):
        return tuple(words)
    n = _end(words)
    return tuple(words[:n]) if n is not None and n >= 2 and (words[n] in _VERB or labelled or _last_done(words, n)) else ()


@lru_cache(maxsize=65536)
def _words(text: str) -> frozenset[str]:
    """The text's words and a compound's parts, as ``_lead`` splits them ("front-end" holds "front")."""
    return frozenset(part for w in _WORD.findall(text.lower()) for part in (w, *w.split("-")) if part)


def apart(claim: str, entry: str) -> bool:
    """Both sentences open with a noun phrase on one noun, which words in front of it make two things:
    each phrase holds a word the other sentence does not, that does not say when, and that is no word of an
    attribute family's cue ("the light theme" after "the dark theme" is one theme changing; "living room lights"
    after "kitchen lights" are two, by "living" beside the cue's "room"). Also two ways of travelling, two ends of a
    schedule, two kinds of a closed class (``_kinds_apart``), and "my personal one" after the entry's own one."""
    if _ways_apart(claim, entry) or _ends_apart(claim, entry) or _kinds_apart(claim, entry) or _legs_apart(claim, entry):
        return True
    a, b = _lead(claim), _lead(entry)
    if len(a) >= 2 and a[-1] == "one" and _own(a, entry) and not _SAME.intersection(a):
        return True         # "my personal one is kat@proton.me": another one of the kind the entry holds
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        return False
    return _own(a, entry) and _own(b, claim)


_SAME = frozenset("same right only main usual one's".split())
"""Words before "one" that point at the one held ("the same one", "the usual one"), not at another."""


_WAY = re.compile(r"\b(?:on|for|by|in)\s+(?:the\s+|a\s+|long\s+|short\s+|long-haul\s+)?(flights?|planes?|trains?|buses|bus|"
                  r"coaches|ferries|boats)\b", re.I)
_WAYS = {"fl": "air", "pl": "air", "tr": "rail", "bu": "road", "co": "road", "fe": "sea", "bo": "sea"}


def _ways_apart(claim: str, entry: str) -> bool:
    """Each names another way of travelling as the setting ("window seats on flights", "on trains i like a table seat"):
    a preference for each, two things. Not where the way is itself the value, how one gets to work ("I commute on
    the train" -> "on the bus now")."""
    a, b = _ways(claim), _ways(entry)
    return bool(a and b) and a.isdisjoint(b) and not any(
        (hit := slots.family(text)) is not None and hit[0] == "commute" for text in (claim, entry))


@lru_cache(maxsize=65536)
def _ways(text: str) -> frozenset[str]:
    return frozenset(_WAYS[w[:2].lower()] for w in _WAY.findall(text))


_LEG = re.compile(r"\b(to|from)\s+([a-z][a-z'-]+)", re.I)


def _legs_apart(claim: str, entry: str) -> bool:
    """One place gone to in one text and come from in the other ("return flight from rome leaves 16:05" after "User's
    flight to Rome departs at 10:20"): the two legs of a trip. A text naming both ways ("moved from Leeds to York")
    says where something went, and is not read here."""
    a, b = _legs(claim), _legs(entry)
    return len({d for d, _, _ in a}) == 1 and len({d for d, _, _ in b}) == 1 and any(
        p == q and d != e and (c or n) for d, p, c in a for e, q, n in b)


@lru_cache(maxsize=65536)
def _legs(text: str) -> frozenset[tuple[str, str, bool]]:
    """(to or from, the place, written with a capital: a name, not a group or a list one is added to or removed from)."""
    return frozenset((d.lower(), p.lower(), p[0].isupper()) for d, p in _LEG.findall(text) if p.lower() not in STOP)


_ENDS = (
    (r"\bopen(?:s|ing)\b", r"\b(?:clos(?:es|ing)|shuts|shutting)\b"),      # hours, not a ticket's state ("close it")
    (r"\b(?:depart(?:s|ure|ing)?|leav(?:e|es|ing)|takes? off)\b", r"\b(?:arriv(?:e|es|al|ing)|lands?|landing)\b"),
    (r"\bcheck(?:ing)?[ -]?in\b", r"\bcheck(?:ing)?[ -]?out\b"),
    (r"\b(?:outbound|outward)\b", r"\b(?:return|inbound)\b"),
    (r"\b(?:start(?:s|ing)?|begin(?:s|ning)?|kicks? off)\b", r"\b(?:ends?|ending|finish(?:es|ing)?|wraps? up)\b"),
    (r"\bpick(?:ing)?[ -]?up\b", r"\bdrop(?:ping)?[ -]?off\b"),
    (r"\bmin(?:imum)?\b", r"\bmax(?:imum)?\b"))
"""The two ends of one schedule or range (general usage): opening and closing, departing and arriving, check-in and
check-out, the way out and back, start and end, pick-up and drop-off, a minimum and a maximum."""
_ANY_END = Prefiltered(re.compile("|".join(f"(?P<e{i}_{side}>{rx})" for i, pair in enumerate(_ENDS)
                                           for side, rx in enumerate(pair, 1)), re.I))


def _ends_apart(claim: str, entry: str) -> bool:
    """Each text names another end of one pair and not the other's ("checkout there is noon" after "check-in: from
    15:00", "pharmacy closes at 6" after "opens at 8:00"): two attributes of one thing, however alike their values.
    A text naming both ends ("open 8 till close at 6") may restate either, and is not read here."""
    a, b = _ends(claim), _ends(entry)
    return any(b[pair] != side for pair, side in a.items() if pair in b)


@lru_cache(maxsize=65536)
def _ends(text: str) -> dict[int, int]:
    """Pair of ``_ENDS`` -> the one end the text names (1 or 2), pairs with both ends left out; one scan per text (a
    claim meets ~16 candidates, an entry many claims)."""
    named: dict[int, set[int]] = {}
    for m in _ANY_END.finditer(text):
        pair, side = m.lastgroup[1:].split("_")
        named.setdefault(int(pair), set()).add(int(side))
    return {pair: next(iter(sides)) for pair, sides in named.items() if len(sides) == 1}


_CLASSES = (
    "work=work office=work business=work personal=personal private=personal home=home",
    "checking=checking cheque=checking savings=savings saving=savings joint=joint isa=isa credit=credit debit=debit",
    "home=home car=car motor=car auto=car travel=travel pet=pet life=life health=health dental=dental contents=contents "
    "buildings=buildings bike=bike renters=renters",
    "prod=prod production=prod staging=staging stage=staging stg=staging dev=dev development=dev test=test qa=test "
    "uat=test sandbox=sandbox",
    "passport=passport licence=licence license=licence visa=visa permit=permit",
    "q1=q1 q2=q2 q3=q3 q4=q4 h1=h1 h2=h2",
    "standup=standup retro=retro retrospective=retro crit=crit demo=demo huddle=huddle scrum=standup kickoff=kickoff "
    "grooming=refinement refinement=refinement allhands=allhands",
    "mobile=mobile cell=mobile cellphone=mobile landline=landline fax=fax pager=pager",
    "dentist=dentist dental=dentist orthodontist=orthodontist optician=eye optometrist=eye eye=eye gp=gp physio=physio "
    "dermatologist=skin cardiologist=heart vet=vet",
    "recycling=recycling general=general rubbish=general refuse=general landfill=general garden=garden green=garden "
    "food=food compost=food glass=glass",
    "domain=domain certificate=certificate cert=certificate ssl=certificate tls=certificate")
"""Closed classes of kinds of one thing (general usage): a work and a personal email, a checking and a savings account,
home and car insurance, the staging and the production database, a passport and a driving licence, the Q1 and the Q2
target, the team's standup and its design crit, a mobile and a landline, the dentist and the optician, the recycling
and the general waste collection, a domain and its certificate. One word may be a kind in two classes ("home")."""
_KIND_OF: dict[str, tuple[tuple[int, str], ...]] = {}
for _group, _line in enumerate(_CLASSES):
    for _word, _kind in (pair.split("=") for pair in _line.split()):
        _KIND_OF[_word] = (*_KIND_OF.get(_word, ()), (_group, _kind))
_SUBJECT = 6
"""Words read before a sentence's verb: a kind said there names the thing the sentence is about."""
_HAS_A = re.compile(r"\b(?:has|have|had) an?\b")
"""What one "has a" is the thing ("User has a dentist appointment ..."): read past, as no verb."""


@lru_cache(maxsize=65536)
def _kinds(text: str) -> frozenset[tuple[int, str]]:
    """The kinds (``_CLASSES``) named before the text's first verb or colon ("my chase savings ends 9930", "car
    insurance, policy MT-7781, renews"): what the thing is, not what it holds. Structured output is not read (a
    field's value, ``"env": "staging"``, is what changes there)."""
    if "{" in text or "=" in text or "->" in text:
        return frozenset()
    found: list[tuple[int, str]] = []
    for w in _WORD.findall(_HAS_A.sub(" ", text.lower().split(":", 1)[0]))[:_SUBJECT]:
        if w in _VERB:
            break
        found += [kind for part in w.removesuffix("'s").split("-") for kind in _KIND_OF.get(part, ())]
    found += [kind for w in _TOPIC.findall(text) for kind in _KIND_OF.get(w.lower(), ())]
    return frozenset(found)


_TOPIC = re.compile(r"\b(?:for|on) (?:the |my |our |your )?([a-z]+) [a-z]+", re.I)
"""A kind said as what a sentence is for or on ("went with aviva for the home insurance"): the thing, not a value."""


def _kinds_apart(claim: str, entry: str) -> bool:
    """Each names, before its verb, another kind of one class ("my chase savings ends 9930" after "Chase checking
    account ends in 4821"), and neither text names the other's anywhere: two things of one kind."""
    a, b = _kinds(claim), _kinds(entry)
    if not (a and b):
        return False
    return any(g == h and k != m and (g, m) not in _all_kinds(claim) and (g, k) not in _all_kinds(entry)
               for g, k in a for h, m in b)


@lru_cache(maxsize=65536)
def _all_kinds(text: str) -> frozenset[tuple[int, str]]:
    """Every kind the text names, wherever it says it: read only for a pair whose subjects name two kinds of one class."""
    return frozenset(kind for w in _words(text) for kind in _KIND_OF.get(w.removesuffix("'s"), ()))


def _own(lead: tuple[str, ...], other: str) -> bool:
    """The phrase has a word of its own in front of its noun: one ``other`` lacks that says which, not when."""
    words = {w for w in map(_owner, lead[:-1]) if w not in _WHEN and w not in _owners(other)}
    cue = slots.cue_words(" ".join(lead))
    return bool(words - cue if lead[-1] in cue else words)  # "car insurance": "car" cues the car, not the insurance


def _owner(word: str) -> str:
    """A word without its possessive: "the boat's mooring" and "boat mooring" name one mooring, "hive 3's queen" and
    "hive 3 queen" one queen."""
    return word.removesuffix("'s").removesuffix("’s")


@lru_cache(maxsize=65536)
def _owners(text: str) -> frozenset[str]:
    return frozenset(map(_owner, _words(text)))


def prepare(text: str) -> None:
    """Compute (and cache) the text's leading phrase and the ends it names at its own write (``decision.prepare``):
    every later claim that meets the entry reads them."""
    _lead(text), _ends(text), _kinds(text)


def other_leads(claim: str, entry: str) -> bool:
    """Both sentences open with a noun the other never names ("the cat gets fed once a day" after "the dog gets fed
    twice a day"): whatever number moved, it is another thing's. (Not a test of two things on its own: two nouns may
    name one thing, "the lease" and "the rent", and only a number said again makes the pair worth reading so.)"""
    a, b = _lead(claim), _lead(entry)
    return bool(a and b) and not ({_noun(a[-1])} & _nouns(entry) or {_noun(b[-1])} & _nouns(claim))


def _noun(word: str) -> str:
    """A noun as either sentence may spell it: no possessive, no plural ("the bins", "the bin's lid")."""
    return _stem(_owner(word))


@lru_cache(maxsize=65536)
def _nouns(text: str) -> frozenset[str]:
    return frozenset(_noun(w) for w in _words(text))
