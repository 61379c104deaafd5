"""Change: does a claim say something different about the entry it is about, or the same thing again?

Why learned: "a changed value is never noop" is the rule that protects "light mode now" after "prefers
dark mode", but restatements are rarely word for word ("yeah still at larch rd" after "home is 14
Larch Rd"; a tool's JSON confirming what the user said). The old test (each side names a value the
other does not) fired on any new word of a chatty restatement. The evidence of a change is what the
claim *adds* that the entry lacks (a new number, id, name or specific word), a field whose value
differs, a negation the entry lacks, a change cue ("now", "switched", "quit"); the evidence of a
restatement is a confirmation cue ("still", "yep", "nothing changed") and words mostly shared.
A logistic model over those features, fitted on the slot-labelled hand-written episodes
(``training.linking``), gives P(change); ``value_differs`` is that probability over its threshold.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import members, moments, records, slots
from .cuescan import Prefiltered
from .grounding import UPDATE_CUE, STOP, entities, identifiers, negated, numbers, said_last
from .index.embedders import _stem
from .linking import COMMON, PairModel, lower_words, specific, values
from .endings import ends
from .quantities import nudges, requantified
from .stamps import stamp
from .tokens import NAME
from .states import held_state, moved_state, switched

WEIGHTS = Path(__file__).resolve().parent / "policy" / "weights" / "change.json"

_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_FIELD = Prefiltered(re.compile(r"[\"']?([A-Za-z_][A-Za-z0-9_]{1,30})[\"']?\s*(?:[:=]|->)\s*[\"']?([^,\"'}\]\n]{1,60})"))
_CONFIRM = Prefiltered(re.compile(
    r"\b(?:still|yep|yup|yeah|same|as usual|as before|as always|confirm\w*|indeed|correct|right|nothing changed|"
    r"no change|unchanged|again|already|so yes|that's it|exactly)\b", re.I))
_STOP_CUE = Prefiltered(re.compile(
    r"\b(?:quit|stopped|no longer|anymore|not any ?more|dropped|gave up|came off|cancel\w*|ended|left|"
    r"moved|switched|swapped|changed|replaced|instead|now|new|from now on|these days|since)\b", re.I))


def prepare(text: str) -> None:
    """Fill the per-text caches a pair reads here (see ``decision.prepare``)."""
    fields(text), ends(text), stamp(text), held_state(text)


@lru_cache(maxsize=65536)
def fields(text: str) -> dict[str, str]:
    """``key -> value`` of structured text (JSON, ``key=value``, ``key: value``), lower-cased."""
    return {k.lower(): v.strip().lower() for k, v in _FIELD.findall(text)}


NAMES: tuple[str, ...] = (
    "new_specific", "lost_specific", "new_share", "lost_share", "new_numbers", "numbers_differ", "ids_differ",
    "new_names", "fields_differ", "fields_same", "negation_differs", "change_cue", "stop_cue", "confirm_cue",
    "cosine", "claim_structured", "entry_structured", "entry_values_kept", "entry_values_lost", "near_copy",
)


def pair(claim: str, entry: str, cosine: float) -> list[float]:
    """Features of one (claim, entry) pair, in ``NAMES`` order."""
    a, b = specific(claim), specific(entry)
    na, nb = numbers(claim), numbers(entry)
    ia, ib = identifiers(claim), identifiers(entry)
    fa, fb = fields(claim), fields(entry)
    shared = set(fa) & set(fb)
    vb = values(entry)
    words = lower_words(claim)
    return [
        min(len(a - b), 4) / 4, min(len(b - a), 4) / 4, len(a - b) / max(1, len(a)), len(b - a) / max(1, len(b)),
        float(bool(na - nb)), float(bool(na and nb and na != nb)), float(bool(ia and ib and ia != ib)),
        float(bool(entities(claim) - entities(entry) - b)),
        float(any(fa[k] != fb[k] for k in shared)), float(bool(shared) and all(fa[k] == fb[k] for k in shared)),
        float(negated(claim) != negated(entry)), float(bool(UPDATE_CUE.search(claim))),
        float(bool(_STOP_CUE.search(claim))), float(bool(_CONFIRM.search(claim))),
        float(cosine), float(bool(fa)), float(bool(fb)),
        len(vb & words) / max(1, len(vb)), float(bool(vb - words)), float(len(a ^ b) <= 1),
    ]


def matrix(rows: list[tuple[str, str, float]]) -> np.ndarray:
    return np.asarray([pair(c, e, s) for c, e, s in rows], dtype=np.float64).reshape(len(rows), len(NAMES))


def replaced(claim: str, entry: str) -> bool:
    """The same sentence with one or two words swapped ("Ana drives a blue car" after "Ana drives a red
    car"), or negated: a change whatever the model says. Only word-for-word frames count, so a
    restatement in other words never does."""
    if (value := set(records.note(claim).values())) and value == set(records.note(entry).values()):
        return False                # "Model: BT Smart Hub 2" after "Router: BT Smart Hub 2": the label, not the value
    if _same_output(claim, entry):
        return False                # "$ node --version -> v20.11.1" after "nvm current -> v20.11.1": another call, one answer
    a, b = _WORD.findall(claim.lower()), _WORD.findall(entry.lower())
    dated = moments.other_day(a, b) and not begun(claim, entry)     # "started piano on tuesdays": its own day
    if _negated_copy(a, b) or _negated_copy(b, a) or _moved_on(claim, entry) or dated or _set_to(claim, b) \
            or members.other(claim, entry) or members.swapped(claim, entry) or _written(claim, entry) \
            or _other_person(claim, entry) or _aged(claim, entry) or _relocated(claim, entry) or moved_state(claim, entry) \
            or requantified(claim, entry) or nudges(claim, entry) or switched(claim, entry) or _remodified(claim, entry):
        return True
    if _swapped_at_one(a, b):
        return True
    a, b = [w for w in a if w not in _ASIDE], [w for w in b if w not in _ASIDE]   # "still in sheffield yeah" for "Lives
    new, lost = set(a) - set(b), set(b) - set(a)                                 # in Sheffield" swaps no value
    if forms := {_form(w) for w in new} & {_form(w) for w in lost}:      # "opening time" for "opens at": one word in
        a, b = [w for w in a if w not in new or _form(w) not in forms], [w for w in b if w not in lost or _form(w) not in forms]
        new, lost = set(a) - set(b), set(b) - set(a)                     # two forms is no swapped value
    light = _LIGHT if new & _LIGHT and lost & _LIGHT else frozenset()     # "drinks dairy milk" for "takes oat milk", and
    said, gone = new - _CARRIED - light, lost - _CARRIED - light    # "plays striker" for "plays in goal": the preposition went
    set_aside = (said, gone) != (new, lost)
    if not (1 <= len(said) <= 2 and 1 <= len(gone) <= 2 and len(new) <= 3 and len(lost) <= 3) \
            or not (_valued(said) and _valued(gone)):
        return False
    if said | gone <= slots.GENERIC:
        return False            # "kids" for "children": another word for the attribute, not another value
    if not (_at(a, new) == _at(b, lost) or not set_aside and _at(a[::-1], new) == _at(b[::-1], lost)):
        return False            # "oat milk in coffee" for "drinks oat milk": detail added at one end, a verb gone at the
        # other ("BA117 scheduled departure 6:30" for "Flight BA117 departs 6:30"): a swap sits in the word it replaces
    skip = new | lost | (_CARRIED if set_aside else frozenset())
    return [w for w in a if w not in skip] == [w for w in b if w not in skip] and len(a) - len(new) >= 2


_NOUN_ENDING = re.compile(r"(?<=\w{4})(?:ure|ion|ment)s?$")


def _form(word: str) -> str:
    """A word's stem, a noun made of a verb read as the verb ("departure" is "depart", "payment" "pay"); a record's
    "status" is its "state"."""
    return "stat" if word == "status" else _stem(_NOUN_ENDING.sub("", word)).removesuffix("e")


def _at(words: list[str], some: set[str]) -> int:
    """Where the first of ``some`` sits in ``words``."""
    return next(i for i, w in enumerate(words) if w in some)


_ENUMERATORS = frozenset({"number", "no", "num", "nr", "item"})


def enumerated(claim: str, entry: str) -> bool:
    """The same sentence with only an enumerated number swapped ("Ana visited city number 1" after "... city
    number 0", "item 4" after "item 3"): another item of the list, not the entry's value changed."""
    a, b = _WORD.findall(claim.lower()), _WORD.findall(entry.lower())
    if len(a) != len(b):
        return False
    swaps = [(i, x, y) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return bool(swaps) and all(x.isdigit() and y.isdigit() and i and a[i - 1] in _ENUMERATORS for i, x, y in swaps)


_FROM_TO = Prefiltered(re.compile(
    r"\b(?:chang|mov|switch|updat|increas|decreas|rais|lower|bump|upgrad|downgrad|promot|shift|went)"
    r"[a-z]*\b[^.;]{0,60}?\bfrom\s+['\"]?([^'\",;.]{1,40}?)['\"]?\s+(?:to|into)\s+['\"]?([^'\",;.]{1,40}?)['\"]?(?=[\s.,;]|$)",
    re.I))


_BECAME = Prefiltered(re.compile(r"(?<![\w.-])((?:[a-z]+ )?[\w.]+)\s*(?:->|→|=>)\s*((?:[a-z]+ )?[\w.]+)(?![\w.-])", re.I))
"""A value and the one it became, side by side ("basal edited 0.85 -> 0.80 U/hr", "zone K -> zone M")."""
_AMOUNT = re.compile(r"\d+(?:\.\d+)?")


def _moved_on(claim: str, entry: str) -> bool:
    """"status changed from 'Normal' to 'Improved'" about an entry that holds Normal and not Improved:
    the entry holds the old value, so the claim changes it however many words the two share. So does an arrow between
    two amounts or two values of one word ("zone K -> zone M"); not a call and its output ("dig api.x -> 198.51.100.24")."""
    pairs = [(m.group(1), m.group(2)) for m in _FROM_TO.finditer(claim)]
    for a, b in _BECAME.findall(claim):
        (*x, a_), (*y, b_) = a.split(), b.split()
        if _AMOUNT.fullmatch(a_) and _AMOUNT.fullmatch(b_):
            pairs.append((a_, b_))      # "edited 0.85 -> 0.80": the amounts
        elif x and [w.lower() for w in x] == [w.lower() for w in y]:
            pairs.append((a, b))        # "zone K -> zone M": the values with their word
    entry = entry.lower()
    for old, new in pairs:
        old, new = old.strip().lower(), new.strip().lower()
        held = {v for v in (old, new) if re.search(rf"(?<!\w){re.escape(v)}(?!\w)", entry)}
        if old != new and held == {old}:
            return True
    return False


_SET_TO = Prefiltered(re.compile(
    r"\b(?:bump(?:ed)?|rais(?:e|ed)|lower(?:ed)?|cut|increas(?:e|ed)|decreas(?:e|ed)|reduc(?:e|ed)|set|chang(?:e|ed)|"
    r"mov(?:e|ed)|push(?:ed)?|pull(?:ed)?|upp(?:ed)?|drop(?:ped)?|turn(?:ed)?|put)\b(?:\s+[\w'.-]+){0,4}?\s+(?:up |down |back )?to\s+"
    r"([£$€]?[\w:.]*\d[\w:.,]*|[a-z]+\b)", re.I))
"""A verb that sets something, and the value it is set to ("bumped max retries to 5", "cut dining to 120",
"push standup to 10:30")."""


def _set_to(claim: str, entry_words: list[str]) -> bool:
    """The claim sets its thing to a value the entry does not hold: the entry's value is replaced."""
    m = _SET_TO.search(claim)
    return m is not None and m.group(1).lower() not in entry_words and m.group(1).lower() not in STOP


_WRITE_CALL = Prefiltered(re.compile(
    r"(?:^|[\s.])(?:\w+[._])?(?P<verb>set|update|patch|put|assign|transfer|rename|move|complete|close|resolve|cancel|"
    r"enable|disable|archive|delete|remove|mark)\w*\s*\((?P<args>[^)]*)\)", re.I))
_DONE = frozenset("complete close resolve cancel enable disable archive delete remove mark".split())


def _written(claim: str, entry: str) -> bool:
    """A tool's write call ("config.set("model", "claude-haiku") -> ok", "todo.complete(18)") changes its
    record: to a value the entry does not hold, or to the state its verb names (done, closed, ...)
    unless the entry already says it."""
    m = _WRITE_CALL.search(claim)
    if m is None:
        return False
    held = entry.lower()
    verb = m.group("verb").lower()
    if verb in _DONE:
        return verb not in held
    values = [v.strip(" '\"").lower() for v in re.split(r",", m.group("args"))]
    values = [v.split("=", 1)[-1].strip(" '\"") for v in values]
    return any(v and v not in held for v in values)


_UNCHANGED = Prefiltered(re.compile(r"\b(?:(?:has|have|had|is|was)n'?t changed|(?:has|have) not changed|nothing(?:'s| has)? "
                                    r"changed|unchanged|no change|same as (?:ever|always|usual)|stay(?:s|ed)? the same|"
                                    r"still the same|didn'?t (?:touch|change) (?:that|it)|same \w+ (?:though|still)|"
                                    r"(?:(?:isn'?t|aren'?t|not) (?:ever )?changing|never changes|won'?t (?:ever )?change)"
                                    r"(?=\s*(?:$|[,.!;)]|any ?time|soon|lol|tho|though|either))|staying put|not going anywhere|"
                                    r"no plans to (?:sell|move|change|leave|switch))\b", re.I))
"""Said in so many words ("haven't changed", "levo stays the same", "same number though"; not "same as before"): a repeat."""


def unchanged(text: str) -> bool:
    """Said unchanged, not only before a contrast that tells the news (``grounding.said_last``)."""
    return said_last(_UNCHANGED, text)


_BEGUN = Prefiltered(re.compile(r"\b(?:start(?:ed|ing)|beg[au]n|beginning|t(?:ook|aking|aken) up|pick(?:ed|ing) up|"
                                r"took to|taken to|got into|getting into|"
                                r"first (?:day|week|month|shift|term)s? (?:at|in|on|with))\b", re.I))
"""A state or habit said to have begun ("started taking milk in my coffee", "took up climbing", "first week at revolut")."""
_STARTS = re.compile(r"\b(?:starts?|joins|joining)\b", re.I)
"""An entry that says a start is coming ("I start at Fennick on the 3rd"): the first week there is no news."""


def begun(claim: str, entry: str) -> bool:
    """The claim says something began that the entry does not, with a word the entry lacks: news, never a repeat
    of the entry ("started taking milk in my coffee" about "I drink my coffee black")."""
    return bool(_BEGUN.search(claim)) and not _BEGUN.search(entry) and not _STARTS.search(entry) \
        and bool(specific(claim) - specific(entry))


_ADDRESS = re.compile(r"(?<![\w@])[\w.+-]*@[\w-]+(?:\.[\w-]+)*")
"""An email address or an @handle ("d.v@fastmail.com", "@sana.q"): one account, however the sentence is worded. Wider
than ``families._EMAIL`` on purpose: a handle, and an address cut short ("lily.h@gmail"), name an account too."""


def readdressed(claim: str, entry: str) -> bool:
    """Each text names an address the other lacks ("recovery email is d.v@fastmail.com" about "... is
    dmitri.alt@proton.me"): another account, never a restatement, however alike the sentences are."""
    if "@" not in claim or "@" not in entry:
        return False
    a, b = ({_account(m) for m in _ADDRESS.findall(t) if "*" not in t} for t in (claim, entry))
    return bool(a - b) and bool(b - a)


def _account(address: str) -> str:
    """The address up to its domain's first label: "lily.h@gmail" is "lily.h@gmail.com" said short."""
    local, _, domain = address.lower().partition("@")
    return f"{local}@{domain.split('.')[0]}"


PERSON_VALUED = frozenset("manager on_call doctor dentist optician vet partner emergency_contact".split())
"""Single-valued attributes whose value is a person: another person named is another value."""


def _other_person(claim: str, entry: str) -> bool:
    """"current on-call: Tobias Brandt" about "on-call this week is me (lena)": both name one person-valued
    attribute, and the claim names someone the entry does not (a note's value is a name however it is written:
    "on call: jess")."""
    fc, fe = slots.family(claim), slots.family(entry)
    if fc is None or fe is None or fc[0] != fe[0] or fc[0] not in PERSON_VALUED:
        return False
    held = lower_words(entry)
    named = {m.group(1).lower() for m in _PUT_AS.finditer(claim)} - STOP - COMMON   # "put marta down as my ...", "@sam",
    named |= {(m.group(1) or m.group(2)).lower() for m in _HANDLE.finditer(claim)}   # {"primary": "sam"}: named for it
    named |= set(_LOGIN.findall(claim.lower()))                                        # "primary s.ito"
    first = claim.split()[0].strip(".,!?;:'\"()") if claim.split() else ""
    lead = {first.lower().removesuffix("'s")} if first[:1].isupper() and first.lower() not in COMMON | STOP else set()
    noted = {w for v in records.note(claim).values() for w in v.split() if w not in STOP}   # "on call: jess"
    names = named or ({n.removesuffix("'s") for n in entities(claim)} | lead | noted) - {fc[2].group(0).lower()}
    return bool(names) and not any(n in held or _stem(n) in held for n in names)


_PUT_AS = re.compile(r"\b(?:put|list|have|make|set)\s+(\w+)\s+(?:down\s+)?as\b", re.I)
_LOGIN = re.compile(r"(?<![\w.@])[a-z]{1,2}\.[a-z]{2,}(?![\w.@])")
"""An initial and a surname, a login's shape ("s.ito", "jb.okafor"): one person, where no capital says so."""
_HANDLE = re.compile(r"(?<![\w.])@(\w+)|[\"'](?:primary|secondary|on_?call|assignee|owner|engineer|user|login)[\"']\s*:"
                     r"\s*[\"']@?(\w+)", re.I)


def _relocated(claim: str, entry: str) -> bool:
    """"The keys are in the drawer" after "Dana has the keys": both say where one thing is (they share a word
    for it), and each names a holder or place the other lacks."""
    fc, fe = slots.family(claim), slots.family(entry)
    if fc is None or fe is None or fc[0] != "location" or fe[0] != "location":
        return False
    a, b = specific(claim), specific(entry)
    named = {_stem(n) for n in entities(claim) | entities(entry)}      # a holder both name: the same place
    return bool(a & b) and not a & b & named and bool(a - b - _BACK) and bool(b - a)


_BACK = frozenset({"back", "now"})


def _aged(claim: str, entry: str) -> bool:
    """"Leo turned 7 yesterday" after "Son Leo is 6": both give an age, and no number of one is in the other (an
    age is one small number, which the general value test skips as too short to be a value)."""
    fc, fe = slots.family(claim), slots.family(entry)
    if fc is None or fc[0] != "age" or not (fe and fe[0] == "age" or fe is None and slots.AGED.search(entry)):
        return False        # ("tank is 4": a bare small number said of someone is their age)
    a, b = numbers(claim), numbers(entry)
    return bool(a) and bool(b) and not a & b


def _negated_copy(a: list[str], b: list[str]) -> bool:
    """``a`` is ``b`` with a negation added ("Maya is not allergic to peanuts" after "Maya is allergic to
    peanuts"): the opposite fact, never a restatement."""
    kept = [w for w in a if w not in _NEGATION]
    return len(kept) < len(a) and kept == b and len(b) >= 2


_NEGATION = frozenset("not no never isn't aren't wasn't weren't doesn't don't didn't can't won't".split())


_ARROW = re.compile(r"\s(?:->|→|=>)\s")


def _same_output(claim: str, entry: str) -> bool:
    """A call whose output, after its last arrow, is the entry's: word for word the other call's output, or, where the
    entry is no call, words it states ("SHOW max_connections; -> 250" after "Postgres max_connections = 250"). The words
    swapped are the calls', the value is the one held."""
    a, b = _ARROW.split(claim), _ARROW.split(entry)
    said = _WORD.findall(a[-1].lower()) if len(a) > 1 else []
    if len(b) > 1:
        return said == _WORD.findall(b[-1].lower()) != []
    return bool(said) and set(said) <= set(_WORD.findall(entry.lower()))


_PLACED = re.compile(r"\b(?:at|in|to|from|on|for|with)\s+(?:the|a|an|my|our|his|her|their)\s+([A-Za-z][\w-]+)\s+([a-z]{3,})\b")


def _remodified(claim: str, entry: str) -> bool:
    """One place or thing said with another name before its noun ("teaching at the Riverside campus" after "I teach
    at the main campus"): the value swapped, however the rest is reworded. The new word must be a name: a summary's
    other adjective ("the trans community" beside "the LGBTQ community", "a dog-friendly place" beside "a pet-friendly
    place") tells another fact or the same one."""
    claim_mods = {h: m for m, h in _PLACED.findall(claim)}
    a = {h: m.lower() for h, m in claim_mods.items()}
    b = {h: m.lower() for m, h in _PLACED.findall(entry)}
    low_a, low_b = claim.lower(), entry.lower()
    return any(h not in STOP and a[h] != b[h] and NAME.fullmatch(claim_mods[h]) and _valued({a[h], b[h]})
               and not {a[h], b[h]} & slots.GENERIC
               and not re.search(rf"\b{re.escape(a[h])}\b", low_b) and not re.search(rf"\b{re.escape(b[h])}\b", low_a)
               for h in a.keys() & b.keys())


def _swapped_at_one(a: list[str], b: list[str]) -> bool:
    """Word for word the same but one word in one place, that word found elsewhere in the other text ("systemctl
    is-active nginx -> failed" after "... -> active": "active" is also the command's): a swap the word sets miss."""
    if len(a) != len(b) or len(a) < 3:
        return False
    diff = [(x, y) for x, y in zip(a, b) if x != y]
    return len(diff) == 1 and _valued(set(diff[0])) and not set(diff[0]) <= slots.GENERIC \
        and (diff[0][0] in b or diff[0][1] in a)


def _valued(words: set[str]) -> bool:
    """Swapped words that can be a value: not a pronoun or someone's name in the possessive ("my
    manager" vs "Ana's manager" is the same fact told by another voice)."""
    return all(w not in STOP and w not in _VOICE and not w.endswith("'s") for w in words)


_CARRIED = frozenset("in on at to for as with by from into onto a an the".split())
"""Words a value brings with it ("on a Kindle", "an oat cortado"): set aside when judging what was swapped."""
_LIGHT = frozenset("take takes taking drink drinks drinking have has having use uses using eat eats eating get gets".split())
"""Verbs that say only that one has or consumes the value: one swapped for another is no value swapped."""
_ASIDE = frozenset("still yeah yep yup lol haha tbh ngl honestly basically literally actually anyway tho though kinda "
                   "sorta".split())
"""Words that say how a thing is said, never what it is: no swapped value ("ok" and "yes" may be a tool's values)."""
_VOICE = frozenset("i i'm im me my mine we our us you your he him his she her they them their user user's".split())


@lru_cache(maxsize=1)
def default() -> PairModel | None:
    """The shipped change model, or None before one was trained (the slot comparison then decides)."""
    return PairModel.load(WEIGHTS, NAMES) if WEIGHTS.exists() else None


def probability(claim: str, entry: str, cosine: float) -> float | None:
    model = default()
    return None if model is None else float(model.probabilities(matrix([(claim, entry, cosine)]))[0])
