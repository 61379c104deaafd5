"""Slot inference: a canonical ``subject.attribute`` for a claim that arrives as free text.

Why: agents write free text, and without a slot a claim can only be matched to memory by similarity,
which cannot tell "Order #1000 ships to warehouse 0" from "Order #1049 ships to warehouse 49" (one
thing changing vs two things) nor "I like sushi" from "I like jazz" (a second value vs a changed one).
The contract (``tarl_labels.md``) says revise, reject_conflict and a content-dropping noop need evidence
of identity: the same subject and the same attribute. This module supplies that evidence from the
claim's own words and nothing else, so it generalises to text it never saw:

- the subject: an id-bearing thing ("Order #1000", "item 3", "INV-20931", ``bob_city``), a named person
  or a relation ("Priyanka's daughter", "my manager"), a plain noun phrase ("the keys"), else the
  speaker (first person and "the user" are ``user``); pronouns leave it open (``None``);
- the attribute: a small lexicon of general attribute families (``families``) (residence, employer, diet, likes,
  seat, status, location, credentials, ...), each with its cardinality (likes, allergies, members,
  activities hold several values); words no family knows fall back to the claim's predicate frame;
- the values: the words that remain once subject, attribute cues and filler are removed.
Explicit slots given by the caller are parsed the same way, so a free-text claim meets a slotted entry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import chain

from . import calls, kin
from .cuescan import Prefiltered, has_digit
from .families import MANY, family, scalar_key, shaped
from .grounding import MEASURE, MOVED_TO, STOP, negated, numbers, proposition
from .kin import ACTS, RELATIONS
from .written import numbered


_ACTS = re.compile(rf"\s*{ACTS}\b", re.I)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|i'd|me|my|mine|myself)\b", re.I)
USER = Prefiltered(re.compile(r"\b(?:the\s+)?user(?:'s)?\b", re.I))
_PRONOUN = re.compile(r"^(?:he|she|they|his|her|their|him|them|it|its)\b", re.I)
_ID_NOUN = re.compile(r"\b([a-z]+)\s*(?:number|no\.?|num|id|#)?\s*#?\s*([a-z]*[-_]?\d[\w-]*|(?-i:[A-Z][A-Z\d])\s\d{1,4}"
                      r"(?![\w-]))\b", re.I)   # (a carrier's code apart from its number: "flight UA 882" is flight UA882)
_ID_ATTRIBUTE = Prefiltered(re.compile(r"\b([a-z]+)\s+(?:number|id|code|reference|ref|no\.?)\s+(?:is|was|=|:|is now|now is)\b",
                                       re.I))
_BARE_ID = re.compile(r"(?<![\w-])#?((?=[a-z0-9_-]*\d)(?=[a-z0-9_-]*[a-z])[a-z0-9][a-z0-9_-]{2,})\b|(?<![\w&])#(\d{2,})\b", re.I)
_SNAKE_KEY = Prefiltered(re.compile(r"\b([a-z][a-z0-9]*_[a-z0-9_]+)\b"))
_NOT_ALNUM = re.compile(r"[^a-z0-9]")
_POSSESSIVE = re.compile(r"\b((?:[A-Z][a-z]+\s+){0,2}[A-Z][a-z]+|[a-z]+)['’]s\s+(\w+)")
NOT_OWNERS = frozenset("it that what there here he she who let where how today tonight tomorrow yesterday everyone "
                       "everything nobody somebody someone anyone one this that's name".split())
_MINE = frozenset("my our still now also not just always never finally really already".split())
_MY_IS = re.compile(rf"\b(?:my|our|your)\s+(?!(?:{'|'.join(sorted(RELATIONS))})['’])[a-z]+['’]s\s+\d", re.I)
_DETERMINER_NP = re.compile(r"\b(?:the|my|our|your|this|that)\s+((?:[a-z][\w-]*\s+){0,2}[a-z][\w-]*)", re.I)
_VERBISH = frozenset(
    "is are was were be been has have had will would can does do did ships shipped runs run lives moved got "
    "goes went says said now still just also eat eats ate drink drinks like likes love loves hate hates need needs use uses "
    "want wants prefer prefers take takes play plays work works get gets sleep sleeps".split())
_ADVERBS = frozenset("now still just also".split())
_NOT_VERBS = frozenset("as us always sometimes perhaps thanks yes plus less unless his its hers ours yours theirs this "
                       "thus".split())
"""Words ending like a verb ("-s") that are none: after a capitalised first word they make it no subject."""
_CONNECTIVES = frozenset("and also plus oh but then & +".split())
RANKS = "older|oldest|elder|eldest|younger|youngest|little|middle|baby|big"
_RANK = rf"(?:(?:{RANKS})\s+)?"
"""``my younger son``: a relative ranked among their siblings is still that relative."""
_RANKED = re.compile(rf"(?:{RANKS})\s+(\w+)", re.I)
"""A rank word and the relative it ranks, after an owner's possessive ("Mia's little brother")."""
ID_NOUNS = frozenset(
    "order ticket invoice item fact build flight booking case issue pr file task job bug incident room account "
    "request shipment package parcel run deploy release sprint version table row record project step apartment "
    "unit suite platform desk locker plot flat space bay".split())
_LETTER_ID = Prefiltered(re.compile(rf"\b((?i:{'|'.join(sorted(ID_NOUNS))}))\s+([A-HJ-Z])(?![\w'’-])(?!\.\w)"))
"""``Room C``, ``Booking B``: a thing the list names by one capital letter ("I" is the speaker). Built from
``ID_NOUNS``, so a text naming none of them is not scanned."""
GENERIC = frozenset(
    "seat seats mode theme diet kids kid children child city lives live living moved move based manager boss "
    "works work working job school schools status phone email address password likes like love loves enjoy "
    "enjoys favourite favorite name called named appointment meeting flight price costs cost team members "
    "member allergic allergy allergies drives drive plays play speaks speak shift shifts prefer prefers "
    "preferred always usually book books booked use uses using have has got get go goes going changed change "
    "switched switch started start picked up too of is was i'm im i've we we're us our it's that's he's she's "
    "they're am fan fans support supports supporter ships ship stored store remind attends attend happens "
    "located kept".split())
"""Words that name an attribute or carry it (verbs, copulas): never a value."""
FILLER = frozenset(
    "now still yep yes yeah yup ok okay actually update updated news big just btw fyi heads quick note again "
    "currently anymore longer new old these days today lately recently nowadays officially finally turns out so well "
    "anyway confirm confirmed confirming correct right indeed definitely really totally same obviously basically "
    "literally honestly seriously tbh ngl lol haha tho though kinda sorta thing things stuff "
    "i've we've you've they've i'd we'd they'd i'll we'll they'll".split())
_COMMON_INITIAL = FILLER | STOP | frozenset(
    "perhaps maybe apparently some starting from since got please remember remind reminder hey hi hello big "
    "switched changed moved started stopped went finally booked".split())


@dataclass(frozen=True)
class Slot:
    subject: str | None
    """``user``, ``order#1000``, ``priyanka.daughter``, ``the keys`` (a thing named by a noun phrase);
    None when only a pronoun names it."""
    attribute: str
    """An attribute family, or ``frame:<words>`` when no family matched."""
    many: bool
    values: frozenset[str]
    negated: bool = False
    explicit: str | None = None
    """The caller's slot, when given: between two explicit slots, the keys alone decide identity."""
    known: bool = field(init=False, repr=False, compare=False)
    """The attribute is a family (not a ``frame:``). Set when made: read ~200 times a decision, on ~50
    candidates' slots (a cached_property's first read, once per candidate, took a lock)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "known", not self.attribute.startswith("frame:"))

    @property
    def key(self) -> str:
        return f"{self.subject or '?'}.{self.attribute}"


def cue_words(text: str) -> frozenset[str]:
    """The words of ``text``'s family cue that name the attribute, not a value ("prescription" in "5503's repeat
    prescription is due on the 20th"); a cue that holds a number holds a value ("50mg", "turned 8")."""
    fam = family(text)
    return frozenset() if fam is None or any(c.isdigit() for c in fam[2].group(0)) else frozenset(_words(fam[2].group(0)))


def _words(text: str) -> list[str]:
    return [w.strip(".,!?;:'\"()[]{}").lower().removesuffix("'s") for w in _PACKED.sub(" ", text).split()]


_PACKED = re.compile(r'(?<=")[:,](?=\S)|,(?=")')
"""Where JSON written without spaces (``{"repo":"acme/web","visibility":"public"}``) parts its words."""


def _subject(text: str) -> tuple[str | None, str]:
    """(subject, the text with the subject's words removed)."""
    if (m := _SNAKE_KEY.search(text)) and m.start() <= 2:      # a key leading the text: "bob_city: Paris"
        return m.group(1).lower(), text.replace(m.group(0), " ")
    candidates: list[tuple[int, str, str]] = []      # (position, subject, matched text)
    digits = has_digit(text)        # (both id patterns need one: a text without is spared their slow scans)
    for m in chain(_ID_NOUN.finditer(text) if digits else (), _LETTER_ID.finditer(text)):
        if m.group(1).lower() in ID_NOUNS and not MOVED_TO.search(text, 0, m.start()):   # "moved to desk 4": a value
            candidates.append((m.start(), f"{m.group(1).lower()}#{m.group(2).lower().replace(' ', '')}", m.group(0)))
    if not candidates and digits:
        for m in _BARE_ID.finditer(text):       # (or a number after "#": "Zendesk #48213")
            if not MEASURE.match(found := m.group(1) or m.group(2)):    # "82kg", "3pm", "14th": a quantity, no id
                candidates.append((m.start(), found.lower(), m.group(0)))
    if candidates:
        pos, subj, seen = min(candidates)
        named = text.lstrip().startswith(("{", "[")) and subj.split("#")[0] in ID_NOUNS   # a record's "Invoice INV-0932"
        labelled = 0 < text.find(": ") > pos and ":" not in text[:pos]   # "disk usage /dev/sda1: 91%": a label's id
        if pos <= max(12, len(text) // 3) or named or labelled:   # an id near the front names the thing; later a value
            return subj, text.replace(seen, " ", 1)
    if (where := kin.whereabouts(text)) and where.group(1).lower() in RELATIONS and family(where.group(1)) is None:
        return where.group(1).lower(), text[where.end():]   # "grandad's still at home"; not "my boss is on holiday"
    first = re.split(r"[,;.!?]\s|\s[-–]\s", text, maxsplit=1)[0]   # an owner names the subject in the first clause:
    owned = sorted(chain(_POSSESSIVE.finditer(first), kin.UNMARKED.finditer(first)), key=lambda m: m.start())
    m = next((m for m in owned if m.group(1).lower() not in NOT_OWNERS   # not "..., the camera's unreal"
              and m.group(1).lower() not in STOP and m.group(1).lower() not in FILLER and m.group(2).lower() not in _MINE
              and not _MY_IS.search(first, 0, m.end())), None)   # "dan's my boss", "priya's still", "my birthday's 14": is
    if m is not None:
        owner, what = m.group(1).lower(), m.group(2).lower()
        rest = text[m.end():]
        if (ranked := _RANKED.match(f"{what} {rest}")) and ranked.group(1).lower() in RELATIONS:
            what, rest = ranked.group(1).lower(), rest[ranked.end() - len(what) - 1:]   # "Mia's little brother"
        if what in RELATIONS and (_other_family(what, rest) or not rest.strip() or _ACTS.match(rest)) and not _copula_value(rest):
            return f"{owner}.{what}", text[:m.start()] + " " + rest
        return owner, text[:m.start()] + " " + what + " " + rest
    if USER.search(text[:30]) or _FIRST_PERSON.search(text):
        rel = re.search(rf"\b(?:my|the user's|user's)\s+{_RANK}(\w+)(?:'s)?\s+(.*)", text, re.I)
        if rel and rel.group(1).lower() in RELATIONS and not _copula_value(rel.group(2)) \
                and (_other_family(rel.group(1), rel.group(2)) or _ACTS.match(rel.group(2))):
            return rel.group(1).lower(), rel.group(2)
        return "user", USER.sub(" ", text)
    if _PRONOUN.match(text.strip()):
        return None, text
    tokens = text.split()
    while tokens and tokens[0].lower() in _CONNECTIVES:     # "and Zosia started nursery": Zosia
        tokens = tokens[1:]
    if len(tokens) > 2 and tokens[0].lower() in RELATIONS and tokens[1].istitle() and tokens[2] in _VERBISH:
        return " ".join(tokens[:2]).lower(), " ".join(tokens[2:])     # "sister Ola lives in Gdansk", as "Son Theo is 9"
    name = []
    for t in tokens[:3]:
        if not t[:1].isupper() or t.endswith(":") or (not name and t.strip(".,!?;:'\"").lower() in _COMMON_INITIAL):
            break       # ("Plan: Premium": a label, then its value; no one's name)
        name.append(t.strip(".,!?;:'\""))
    after = [t.lower() for t in tokens[len(name):len(name) + 2]] if name else []
    if name and family(" ".join(name)) is None and any(
            (v in _VERBISH and v not in _ADVERBS) or (v.endswith(("s", "ed")) and v not in _NOT_VERBS) or v.startswith("(")
            or v in ("doesn't", "isn't", "hasn't", "didn't") for v in after):
        return " ".join(name).lower(), " ".join(tokens[len(name):])
    if len(name) >= 2 and name[0].lower() in RELATIONS and tokens[len(name) - 1].endswith(","):
        return " ".join(name).lower(), " ".join(tokens[len(name):])     # "Son Finn, 11, at St Brendan's": Finn
    if (m := _DETERMINER_NP.search(text)) and m.start() <= 12:      # a thing named at the front: "the keys are ..."
        cut = []
        for w in m.group(1).lower().split():
            if w in _VERBISH:
                break       # ("our cat is called Pudding": the cat, not what it is called)
            if w not in STOP:
                cut.append(w)
        plain = [w for w in cut if family(w) is None] or cut
        if plain:
            return "the " + " ".join(plain[-1:]), text.replace(m.group(0), " " + " ".join(w for w in cut if w not in plain[-1:]), 1)
    return None, text


AGED = re.compile(r"\s*(?:(?<!\w)is|'s|=)\s+\d{1,2}\s*(?:now|today|already)?\s*[.!]*$", re.I)
"""A bare small number said of someone, ending the text ("my son is 5", "tank is 4"): their age."""


def _other_family(relation: str, rest: str) -> bool:
    """The words after a relation name an attribute of that relative ("my daughter changed schools"),
    not the relation itself ("my dentist is Dr Okoye": the dentist is the user's attribute). A bare
    number is a relative's age ("my son is 5", as "my son turned 6" says)."""
    if AGED.match(rest):
        return True
    fam, own = family(rest), family(relation)
    return fam is not None and (own is None or fam[0] != own[0])


_NAMED = r"(?i:is|was|=|:|now is|is now)\s+(?:(?i:called|named)\s+\w|[A-Z])"
"""``is Priya`` / ``= Daniel`` / ``is called rui``: a name given as the value."""
_RELATIVE_IS = Prefiltered(re.compile(rf"\b(?i:my|the user's|user's)\s+(\w+)\s+{_NAMED}"))
_COPULA_VALUE = re.compile(rf"\s*{_NAMED}")


def _copula_value(rest: str) -> bool:
    """``is Priya`` / ``= Daniel``: the relation word is the attribute and a name is its value."""
    return bool(_COPULA_VALUE.match(rest))


def _relative(prop: str) -> str | None:
    """``my sister is called Ana``: the relative named (not the user's name); None for a family's own (``my manager``)."""
    m = _RELATIVE_IS.search(prop)
    word = m.group(1).lower() if m else ""
    return word if word in RELATIONS and family(word) is None else None


_SO = re.compile(r",?\s+so\s+(?:i|we|i'll|we'll|i've|i'd|that|you can)\b|,\s+which\s|,\s+because\s", re.I)
"""Where a clause of what follows from the fact, or why, begins: past it the words are no value of the attribute."""


@lru_cache(maxsize=65536)
def infer(text: str) -> Slot:
    """The slot a free-text claim is about (pure; cached by text)."""
    prop = proposition(text)
    tool = calls.subject(prop)          # a tool's record: its id names it
    subject, rest = (tool, re.sub(re.escape(tool), " ", prop, count=1, flags=re.I)) if tool else _subject(prop)
    rest = rest.replace("_", " ")
    fam = family(calls.PROMPT.sub("", rest)) or family(calls.PROMPT.sub("", prop)) or shaped(rest)   # a shell's "$ " is no price
    relative = _relative(prop) if (subject == "user" and fam is None) or (fam and fam[0] == "name") else None
    if tool:
        name, many, attribute = "record", False, "record"       # a tool's record of one thing: one current state
    elif relative is not None:
        name, many, attribute = relative, False, relative       # "my sister is called Ana": who the sister is
    elif (ida := _ID_ATTRIBUTE.search(prop)) and not (fam and fam[0] == "phone") \
            and (subject in (None, "user") or subject.removeprefix("the ") in _words(ida.group(0))):   # (mobile number: a phone)
        subject, rest = "user" if _FIRST_PERSON.search(prop) or USER.search(prop) else None, prop[ida.end():]
        name = attribute = f"{ida.group(1).lower()}_id"
        many = False
    elif fam is not None:
        name, many, m = fam
        attribute = _qualified(name, m)
        many = many and not scalar_key(m)
    else:
        name, many = "", False
        frame = sorted({w for w in _words(rest) if w and w not in STOP and w not in FILLER and not any(c.isdigit() for c in w)
                        and not _capitalised(w, prop)})
        attribute = "frame:" + " ".join(frame[:6])
    subject_words = set((subject or "").replace("#", " ").replace(".", " ").split())
    rest = _SO.split(rest, maxsplit=1)[0]     # "you're allergic to penicillin, so I'll flag ...": what follows is no value
    values = {w for w in _words(numbered(rest)) if w and w not in STOP and w not in FILLER and w not in GENERIC
              and w not in subject_words and w not in _NEGATORS}
    values |= numbers(rest)
    if fam is not None and name == "kids":
        values -= {"kids", "kid", "children", "child", *_words(m.group(0))}     # "2 little ones": {2}
    return Slot(subject, attribute, many, frozenset(values), negated(prop))


_QUALIFIER = re.compile(r"([a-z]+)\s+$")
_CHANNELS = frozenset("work office business personal private home school uni".split())


def _qualified(name: str, cue: re.Match[str]) -> str:
    """A preference named by what it is of ("his sports preference", "music preferences") is that preference: a sports
    preference and a beverage preference are two attributes, not one changing; so are a work and a home phone or email."""
    q = _QUALIFIER.search(cue.string.lower(), 0, cue.start()) if name in ("preference", "phone", "email") else None
    word = q.group(1) if q else ""
    if name != "preference":
        return f"{word} {name}" if word in _CHANNELS else name
    return name if not word or word in STOP or word in FILLER or word in _NEGATORS else f"{word} {name}"


_NEGATORS = frozenset("not no never don't doesn't didn't isn't aren't won't can't anymore longer".split())


def _capitalised(word: str, text: str) -> bool:
    return bool(_capital_re(word).search(text)) and not text.lower().startswith(word)


_capital_re = lru_cache(maxsize=8192)(lambda word: re.compile(rf"\b{re.escape(word.capitalize())}\b"))   # compiled once


@lru_cache(maxsize=65536)
def parse(slot: str, many: bool | None = None) -> Slot:
    """An explicit slot (``user.city``, ``order:1001``, ``office``) read like an inferred one."""
    parts = re.split(r"[.:/]", slot.strip().lower())
    subject = ".".join(parts[:-1]) or None
    fam = family(parts[-1].replace("_", " "))
    attribute = fam[0] if fam else parts[-1]
    return Slot(subject, attribute if fam else "frame:" + parts[-1].replace("_", " "),
                bool(many if many is not None else (fam and fam[1])), frozenset())


@lru_cache(maxsize=65536)
def of(text: str, slot: str | None = None, many: bool | None = None) -> Slot:
    """The claim's slot: inferred from its words; an explicit ``slot`` fixes subject and attribute."""
    guess = infer(text)
    if slot is None:
        return guess if many is None else Slot(guess.subject, guess.attribute, many, guess.values, guess.negated)
    given = parse(slot, many)
    known = not given.attribute.startswith("frame:") and family(given.attribute) is not None or given.attribute in MANY
    return Slot(given.subject if given.subject is not None else guess.subject,
                given.attribute if known else guess.attribute,
                many if many is not None else (given.many or guess.many), guess.values, guess.negated,
                explicit=slot.strip().lower())


def pronoun(text: str) -> bool:
    """The text opens with a pronoun ("she's at big school now"): about whoever was last named, not nobody."""
    return bool(_PRONOUN.match(text.strip()))


def same_subject(a: Slot, b: Slot) -> bool:
    """Equal subjects, or an open one, or one person's name contained in the other's ("Martin" and
    "Martin Mark"); ids, relations and keys must match exactly."""
    return a.subject is None or b.subject is None or a.subject == b.subject or _same_subjects(a.subject, b.subject)


@lru_cache(maxsize=65536)
def _same_subjects(a: str, b: str) -> bool:
    """``same_subject`` of two different subjects, cached: asked ~40 times a decision, of few subjects."""
    if a.endswith("#" + b) or b.endswith("#" + a):
        return True                     # "Ticket SUP-1" and a bare "SUP-1": one id, its noun said once
    if _NOT_ALNUM.sub("", a.lower()) == _NOT_ALNUM.sub("", b.lower()) and any(c.isdigit() for c in a):
        return True                     # "order#a-1001" inferred, "order_a1001" the caller's key: one id
    if kin.one(a, b):
        return True                     # "sis" and "sister", "user.mum" and "user.mother": one relative
    wa, wb = a.split(), b.split()
    if len(wa) < 2 and len(wb) < 2:     # (the common case, answered before the costlier tests)
        return False
    plain = not any(c in a + b for c in "#._") and min(len(wa), len(wb)) >= 1
    return plain and (set(wa) <= set(wb) or set(wb) <= set(wa))


def same_attribute(a: Slot, b: Slot) -> bool:
    if a.known and b.known:
        return a.attribute == b.attribute
    if a.known or b.known:
        return False
    fa, fb = set(a.attribute[6:].split()), set(b.attribute[6:].split())
    return bool(fa & fb) and len(fa & fb) / len(fa | fb) >= 0.5


def identity(a: Slot, b: Slot) -> bool:
    """Evidence that two claims are about one thing: the same subject and the same attribute. An id or
    a thing named by both with no recognisable attribute on either side also counts ("Build #5120 on
    main: failed" and "Build #5120: passed" are about one build); a person does not: two sentences about
    Martin are not about one attribute of his."""
    if a.explicit is not None and b.explicit is not None:
        return a.explicit == b.explicit
    if not same_subject(a, b):
        return False
    if same_attribute(a, b):
        return True
    thing = a.subject is not None and a.subject == b.subject and (any(c.isdigit() or c in "#_" for c in a.subject)
                                                                  or a.subject.startswith("the "))
    return thing and (not a.known or not b.known)


SHORT = 3
"""Most value words a text may leave for ``differs`` to compare them word by word."""


def compatible(a: Slot, b: Slot) -> bool:
    """Nothing says the two are about different things: the subjects agree and the attributes do not
    disagree (an unrecognised attribute on either side disagrees with nothing)."""
    if a.explicit is not None and b.explicit is not None:
        return a.explicit == b.explicit
    return same_subject(a, b) and (not (a.known and b.known) or a.attribute == b.attribute)


def differs(a: Slot, b: Slot) -> bool:
    """The two say something different about their slot: each names a value the other does not, or
    one negates what the other affirms."""
    if a.negated != b.negated:
        return True
    if (na := {v for v in a.values if any(c.isdigit() for c in v)}) and (nb := {v for v in b.values if any(c.isdigit() for c in v)}):
        return na != nb
    # short values only: in a long, chatty text most leftover words are not the value, and a restatement
    # in other words would look like a change
    return len(a.values) <= SHORT and len(b.values) <= SHORT and bool(a.values - b.values) and bool(b.values - a.values)
