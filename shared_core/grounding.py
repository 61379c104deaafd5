"""Target grounding: which open entry, if any, a claim is about, and how the two texts differ.

Pure functions over candidates the caller fetched (nearest neighbours from the index plus exact slot
matches), so the same code serves real writes, the benchmark and counterfactual simulation. Only the
cosine similarity comes from the embedder; every other feature is lexical, so the policy keeps working
when the engine's embedder changes.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .cuescan import Prefiltered, has_digit
from .cues import CUES
from .tense import USED_TO
from .written import unphoned, written_alike
from .schema import Claim, Entry, Ledger
from .tokens import (  # noqa: F401  (read through grounding by the modules that compare texts)
    MEASURE, MOVED_TO, STOP, UNITS, code_names, content_tokens, entities, identifiers, locators, numbers)

_NEGATION = Prefiltered(re.compile(
    r"\b(?:not|no|never|none|nobody|nothing|cannot|without|stopped|quit|no longer|isn't|aren't|wasn't|"
    r"weren't|don't|doesn't|didn't|won't|can't|hasn't|haven't|anymore)\b|n't\b",
    re.I,
))
UPDATE_CUE = Prefiltered(re.compile(
    r"\b(?:now|no longer|anymore|moved|relocated|switched|updated?|new(?!\s+(?:guys?|girls?|grads?|hires?|starters?|joiners?|"
    r"members?|colleagues?|interns?|teammates?|recruits?|baby|babies|puppy|kitten)\b)|instead|as of|"
    r"since(?!\s+(?:you|you're|youre|i|i'm|im|we|we're|he|she|they|they're|it|it's|that|this)\b)|"   # not "since you're in"
    r"(?<!n't )(?<!not )(?<!never )(?<!nothing's )(?<!nothing has )changed|(?:please |pls |can you )?change (?=my |our )|"
    r"currently|recently|became|got promoted|promoted|renamed|replaced|from now on|from here on(?: out| in)?|going forward|"
    r"these days|latest|"
    r"rescheduled|postponed|migrated|transferred|took over|taken over|swapped|upgraded|downgraded|refreshed|actually|"
    r"correction|corrected|scratch that|retrained|requalified|"
    r"turns out|not anymore|reissued|went up|went down|(?:went|gone) with(?!\s+(?:my|his|her|our|their|me|him|us)\b)|"
    r"opted for|settled on|(?-i:PUT|PATCH|DELETE)(?=\s+/)|(?:going|gone|went|switched|changed|moved) back to|"
    r"revert(?:ed|ing)?(?: back)? to|back to (?:normal|the usual|the regular|regular|default|the default|the old))\b",
    re.I,
))
TIME_CUES = frozenset({"recently", "currently", "latest"})
"""Update cues that only date what they say: "Jon recently took his kids to the zoo" is an event, not a change.
"since" is not one of them: it dates the start of the state it names ("eating fish again since last month"); a "since"
that gives a reason ("since you're in Austin, here are ...") is no update cue at all."""


def time_cue_only(text: str) -> bool:
    """Every update cue of ``text`` is a time word (``TIME_CUES``): no sign of change (LoCoMo observations with
    "recently" superseded unrelated facts: revisions 134 -> 114 of 1,487; hand-written choosing sets 0 moves)."""
    found = {m.group(0).lower() for m in UPDATE_CUE.finditer(text)}
    return bool(found) and found <= TIME_CUES


_ADDITIVE_CUE = Prefiltered(re.compile(r"\b(?:also|too(?!\s+(?:much|many|far|late|early|long|expensive|pricey|dear|busy|"
                                       r"hard|big|small|cold|hot|old|young|spicy|salty|noisy|tired|slow|often|well|good|"
                                       r"bad|soon|fast|loud))|as well|"
                                       r"another|additionally|in addition|besides|plus|on top of (?:the|my|our|his|her|their) |"
                                       r"separately|both(?=\s*(?:now|too|as well)?\s*(?:$|[.,;!?]))|one more|"
                                       r"(?:a|an|our|my) (?:third|fourth|fifth|sixth)|"
                                       r"(?:(?<=^)|(?<=: )|(?<=\ba )|(?<=\ban ))new(?= (?!(?:address|number|phone|mobile|"
                                       r"e-?mail|job|role|title|manager|boss|home|house|flat|place|car|name|surname|password|pin|"
                                       r"plan|tariff|provider|supplier|gp|doctor|dentist|school|team|office|desk|landlord|rate|"
                                       r"price|limit|setting|value|version|time|date|schedule|contract|policy|company|employer|"
                                       r"firm|arrangement|routine|setup|sim|baby)\b))|"
                                       r"add(?:ed)? as (?:a|an|my|our) |"
                                       r"(?:\w+n['’]t|cant|dont|wont|doesnt|didnt|isnt|not|never)\s+(?:[\w'’]+\s+){0,6}?"
                                       r"either(?!\s+(?:way|of|one|side|or)\b)|"
                                       r"(?<!every )second(?!\s+(?:\w+day|week|month)s?\b)(?![- ]hand)|(?:a|my|our) 2nd|"
                                       r"add(?:ed|ing|s)?(?=\s(?!to\b).{1,60}?\b(?:to (?:my|the|our|his|her|their) [\w-]|"
                                       r"as (?:a|an|another|my|our)\b))|\w+_added|(?<=:\")added(?=\")|"
                                       r"(?<=: \")added(?=\"))\b", re.I))
"""A further value's cue; not "too" of degree ("too expensive": why it ended), nor a schedule's "second" ("second tuesdays"),
nor a "second hand" car; "add ... to my podcasts", "added prettier to the web monorepo", "add greg as a backup emergency
contact", "a 2nd emergency contact", a record's ``member_added`` or ``"action": "added"``, "film cameras on top of the
records", "can't have shellfish either" (a negated verb's: "no cheese either" ends a value): one more of a kind (not one
"got added to the payments team": the speaker is what moved; nor "on top of all that", which piles up news, not values);
"insured separately", "added as my co-supervisor", "working both now": the one before stays."""
PHATIC = frozenset(
    "hi hello hey hiya morning evening afternoon night good great thanks thank thx ty cheers ok okay k sure yes yep "
    "yeah yup no nope nah cool nice awesome perfect fine right alright haha ha lol hmm hm um uh oh wow sounds plan "
    "like go ahead let check sec second moment one bye goodbye later see soon talk worries problem fair enough lot "
    "much that's thats it's s t m d ll re ve now anyway haha hahaha lmao omg ugh yay brb ttyl np hehe heh aw aww gm gn kk helps helpful useful brilliant lovely excellent wonderful amazing sorry oops indeed exactly totally agreed absolutely welcome please appreciate appreciated got it gotcha".split()
)
"""Words of content-free turns (greetings, thanks, acknowledgements): a claim made only of these carries
no fact, so it is the one kind of untargeted claim that may be dropped (noop) rather than stored."""

MATCH_THRESHOLD = 0.35
"""Cosine similarity above which the nearest entry counts as the claim's target."""
OVERLAP_THRESHOLD = 0.3
"""...or content-word Jaccard above which it does (weak embedders miss lexical paraphrase)."""
NEAR_DUPLICATE = 0.9
FEATURE_NAMES: tuple[str, ...] = (
    "has_target", "similarity", "lexical_overlap", "containment", "novelty", "numbers_differ",
    "entities_differ", "ids_differ", "ids_shared", "negation_differs", "same_slot", "slot_differs",
    "near_duplicate", "exact_duplicate", "target_pending", "runner_up_gap", "update_cue", "additive_cue",
    "claim_length", "is_question", "content_free", "value_replaced",
    "identity", "same_subject", "same_attribute", "value_differs", "value_overlap", "many", "change_signal",
    "untrusted", "slot_known",
    "cue_hearsay", "cue_future", "cue_injection", "cue_recap", "cue_confirm", "cue_stale", "structured", "first_person",
    "link_p", "change_p", "cue_sender", "cue_conditional", "cue_speculative",
)
"""The grounding features every policy may read, in a fixed order (zeros when there is no target)."""


def _values(text: str) -> set[str]:
    """The value-bearing tokens of a text: numbers, identifiers and names (possessive 's dropped)."""
    return numbers(text) | identifiers(text) | ({e.removesuffix("'s") for e in entities(text)} - _SPEAKER)


_SPEAKER = frozenset("i'm i've".split())
"""Capitalised by rule mid-sentence ("Osei's lovely, I'm staying with her"), and no value."""


def _words(text: str) -> set[str]:
    """Words of ``text`` a value may be: tokens, their parts ("SHA256:Zp1c" names sha256, "arn:aws:eu-west-1" eu-west-1)."""
    words = {t.removesuffix("'s") for t in content_tokens(text)}
    ends = {e for w in words if _SPAN.fullmatch(w) for e in w.split("-")}      # "4:00-5:00" names 4:00 and 5:00
    parts = {p for w in words if _LETTER.search(w) for rx in (_PARTS, _PATH) for p in rx.split(w) if p}
    return words | ends | parts | numbers(text)


_SPAN = re.compile(r"\d{1,2}:\d{2}-\d{1,2}:\d{2}")
_HOURS = re.compile(r"\d{1,2}-\d{1,2}")
"""A span of whole hours ("8-12", "10-6"): "8:00-12:00" said short."""


_PARTS, _PATH = re.compile(r"[:/_@-]+|\.{2,}"), re.compile(r"[:/@]+")
_LETTER = re.compile(r"[a-z]")


def _named(value: str, words: set[str]) -> bool:
    """The other text mentions ``value``: as a word, a number as the tail of a longer one ("412" of 07700 900412), a
    version's head ("3.11" of "3.11.4", "v20" of "v20.11.1"), an id's tail ("4-alpine" of "postgres:15.4-alpine"), a
    word in its plural ("Tuesday" of "Tuesdays"), an id's letters written apart ("BA" of "BA2490"), a span by its two
    ends or in whole hours ("8-12" of "08:00-12:00")."""
    return value in words or (value.isdigit() and len(value) >= 3 and any(w.isdigit() and w.endswith(value) for w in words)) \
        or (("." in value or not value.isdigit() and has_digit(value)) and any(w.startswith(value + ".") for w in words)) \
        or (not value.isdigit() and has_digit(value) and any(w.endswith(("." + value, ":" + value)) for w in words)) \
        or (len(value) > 3 and value.isalpha() and (value + "s" in words or value[-1] == "s" and value[:-1] in words)) \
        or (value.isalpha() and any(w.startswith(value) and w[len(value):].isdigit() for w in words)) \
        or (_SPAN.fullmatch(value) is not None
            and (all(e in words for e in value.split("-")) or value.replace(":00", "") in words)) \
        or (_HOURS.fullmatch(value) is not None and all(f"{e}:00" in words for e in value.split("-")))


_MASKED = re.compile(r"[\w-]+(?:\.{3}|…)[\w-]+")
"""A secret shown by its two ends ("sk_test_51HxT...9ZK"): one value, whose hidden middle tells it from another."""


def _masked(text: str) -> set[str]:
    return {m.lower() for m in _MASKED.findall(text)} if "…" in text or "..." in text else set()


def value_replaced(claim: str, entry: str) -> bool:
    """The claim names a value the entry never mentions AND the entry names one the claim never mentions
    ("lives in Porto" vs "lives in Lisbon", "reassigned to Bruno" vs "assigned to Ana"). Mentions are
    checked against all words of the other text, so a restatement that adds or drops a name or a
    surname ("Confirming Martin's city is Lisbon") is not a replacement; times and phone numbers are
    compared as written alike, and initials ("Dr S. Brennan") are no value. A replacement is new
    information, never a restatement."""
    claim, entry = written_alike(claim), written_alike(entry)
    wa, wb = _words(claim), _words(entry)
    va, vb = _values(claim) | _masked(claim), _values(entry) | _masked(entry)     # ("v20" of v20.11.1 is in both:
    a, b = {v for v in va - vb if not _named(v, wb)}, {v for v in vb - va if not _named(v, wa)}    # no value swapped)
    return bool({v for v in a if len(v) > 1} and {v for v in b if len(v) > 1})


def names_every_value(claim: str, entry: str, keys: frozenset[str] = frozenset()) -> bool:
    """The claim names every value (number, id, name) the entry names, its thing's key aside, and there is one; as
    written alike and as typed ("09:30" of a timestamp), a phone number only alike ("415-555-0188", "+14155550188")."""
    values = {v for v in _values(written_alike(entry)) | {n for n in numbers(unphoned(entry)) if sum(c.isdigit() for c in n) < 7}
              if (len(v) > 1 or v.isdigit()) and not any(v in k or k in v for k in keys)}
    words = _words(written_alike(claim)) | _words(claim) | numbers(claim)
    return bool(values) and all(_named(v, words) for v in values)


@lru_cache(maxsize=65536)
def negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


@lru_cache(maxsize=65536)
def normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def prepare(text: str) -> None:
    """Fill the per-text caches ``features``, ``value_replaced`` and ``match_score`` read (see
    ``decision.prepare``)."""
    for t in {text, written_alike(text), proposition(text)}:
        content_tokens(t), numbers(t), identifiers(t), entities(t)
    negated(text), normalised(text), match_side(text)


@dataclass(frozen=True)
class Grounding:
    target: Entry | None
    similarity: float
    features: dict[str, float] = field(default_factory=dict)
    candidates: tuple[tuple[Entry, float], ...] = ()


_FIELD = Prefiltered(re.compile(r"\b\w+\s*[=:]\s*\S"))
"""``key: value`` or ``key=value``: structured text."""


def claim_features(claim: Claim) -> dict[str, float]:
    """Features of the claim alone (they matter with or without a target)."""
    return dict(_text_features(claim.text))


@lru_cache(maxsize=65536)
def _text_features(text: str) -> dict[str, float]:
    """``claim_features`` of one text, computed once per text: a decision reads them twice (with a
    target and in the policy's view). Callers get a copy, so this cached dict is never changed."""
    cues = {name: float(bool(rx.search(text))) for name, rx in CUES.items()}
    if cues["cue_confirm"]:     # (found anywhere: whether it is in what the claim says last)
        cues["cue_confirm"] = float(said_last(CUES["cue_confirm"], text))
    return {
        **cues,
        "structured": float(text.lstrip().startswith(("{", "[")) or bool(_FIELD.search(text))),
        "update_cue": float(bool(UPDATE_CUE.search(text))),
        "additive_cue": float(bool(_ADDITIVE_CUE.search(text))),
        "claim_length": math.log1p(len(content_tokens(text))),
        "is_question": float(text.rstrip().endswith("?")),
        "content_free": float(content_free(text)),
        "stale_dated_only": float(bool(cues["cue_stale"]) and _dated_only(text)),
        "past_habit": float(bool(USED_TO.search(text))),
    }


_BUT = re.compile(r".*\b(?:but|though|whereas|while)\b", re.I | re.S)


def said_last(pattern: Prefiltered, text: str) -> bool:
    """``pattern`` in what the claim says after its last contrast, where that is a statement of its own (four words or
    more), else in all of it: what it says unchanged before the contrast ("mia's swimming is unchanged but sam's piano got
    bumped to wednesdays") is not what it confirms; "nothing's changed but thanks for checking" still confirms."""
    if not pattern.search(text):
        return False            # (most texts: the contrast is read only where the pattern is there to move past)
    but = _BUT.match(text)
    rest = text[but.end():] if but else ""
    return bool(pattern.search(rest if len(rest.split()) >= 4 else text))


_STALE_DATES = re.compile(r"(?:last year|years ago|months ago|weeks ago|last (?:summer|winter|spring|autumn|term|season)|used to|"
                          r"back in)$", re.I)


def _dated_only(text: str) -> bool:
    """Of a text ``cue_stale`` matches: the cue says no more than when something happened ("went to a pride parade a few
    weeks ago", "quit smoking 3 years ago", "used to spend every evening gaming"): a dated event or a past habit of the
    speaker's, not a snapshot that may be out of date."""
    return all(_STALE_DATES.match(m.group(0)) for m in CUES["cue_stale"].finditer(text))


def content_free(text: str) -> bool:
    """A question or a turn made only of phatic words: nothing to remember (see ``PHATIC``)."""
    return text.rstrip().endswith("?") or content_tokens(text) <= PHATIC


def features(claim: Claim, entry: Entry, similarity: float, runner_up: float = 0.0) -> dict[str, float]:
    a, b = content_tokens(claim.text), content_tokens(entry.text)
    overlap = len(a & b) / max(1, len(a | b))
    na, nb = numbers(written_alike(claim.text)), numbers(written_alike(entry.text))   # "+44 7700 900412" is "07700 900 412"
    ea, eb = entities(claim.text), entities(entry.text)
    ia, ib = identifiers(claim.text), identifiers(entry.text)
    la, lb = locators(claim.text), locators(entry.text)
    exact = normalised(claim.text) == normalised(entry.text)
    return {
        "has_target": 1.0,
        "similarity": similarity,
        "lexical_overlap": overlap,
        "containment": len(a & b) / max(1, len(a)),
        "novelty": len(a - b) / max(1, len(a)),
        "numbers_differ": float(bool(na and nb and na != nb)),
        "entities_differ": float(bool(ea and eb and ea != eb)),
        "ids_differ": float(bool(ia and ib and not ia & ib)),
        "ids_shared": float(bool(ia & ib)),
        "locators_apart": float(_apart(la, lb) or _apart(code_names(claim.text), code_names(entry.text))),
        "negation_differs": float(negated(claim.text) != negated(entry.text)),
        "same_slot": float(claim.slot is not None and claim.slot == entry.slot),
        "slot_differs": float(claim.slot is not None and entry.slot is not None and claim.slot != entry.slot),
        "near_duplicate": float(exact or similarity >= NEAR_DUPLICATE or (overlap >= 0.85 and na == nb)),
        "exact_duplicate": float(exact),
        "target_pending": float(entry.ledger is Ledger.PENDING),
        "runner_up_gap": similarity - runner_up,
        **claim_features(claim),
        "value_replaced": float(value_replaced(claim.text, entry.text)),
    }


def _apart(a: frozenset[str], b: frozenset[str]) -> bool:
    """Each text names some place (or setting), and none the other names: two things, however alike the words."""
    return bool(a and b and not a & b)


def vector(grounding_features: dict[str, float]) -> list[float]:
    return [float(grounding_features.get(name, 0.0)) for name in FEATURE_NAMES]


_ATTRIBUTION = re.compile(
    r"^\s*(?:according to [^,]{1,40},|(?:(?:my|a|an|the|his|her|their|our|some)\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:says|said|thinks|claims|claimed|mentioned|told me|reckons|believes|reports(?!\s+(?:to|into)\b)|heard|"
    r"(?<!user )(?<!i )(?<!we )(?:shows|lists|displays|indicates))(?:\s+that)?|"
    r"(?:remember|note|memory|fyi|fact about the user|user said|saving for later)\s*:?)\s*",
    re.I,
)


@lru_cache(maxsize=65536)
def proposition(text: str) -> str:
    """The claim without its attribution frame ("My cousin says ...", "According to X, ...", "Note: ..."):
    hearsay and relayed notes wrap a proposition, and it is the proposition that must match memory."""
    return _ATTRIBUTION.sub("", untagged(text), count=1) or text


_TAG = re.compile(r"^\s*\[[\w.:/-]{1,30}\]\s*(?=\S)")
"""A log's or a tool's one-word tag before its text ("[vet] Biscuit (dog) weight: 12 kg"); a sender's ("[from Jen]")
is words, and says who is speaking."""


def untagged(text: str) -> str:
    """The text without its leading tag: which log wrote it, not what it is about."""
    return _TAG.sub("", text, count=1)


SHARED_ID_SCORE = 0.6
"""Match score of an entry that names the same identifier (order, ticket, flight) as the claim."""


def match_score(claim: Claim, entry: Entry, similarity: float) -> float:
    return matched(match_side(claim.text), entry.text, similarity)


def matched(side: tuple[frozenset[str], frozenset[str]], entry: str, similarity: float) -> float:
    """``match_score`` from the claim's ``match_side``, looked up once for all the candidates of a decision
    (a slotted claim meets ~40 at the scale benchmark's 10k entries)."""
    (a, ia), (b, ib) = side, match_side(entry)
    shared = len(a & b)
    score = max(similarity, shared / max(1, len(a) + len(b) - shared) * MATCH_THRESHOLD / OVERLAP_THRESHOLD)
    if ia & ib:
        score = max(score, SHARED_ID_SCORE + 0.1 * similarity)
    return score


@lru_cache(maxsize=65536)
def match_side(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """What ``match_score`` reads of one text, in one cache lookup: a slotted claim is scored against
    every open entry of its slot (~40 at the scale benchmark's 10k entries)."""
    return content_tokens(proposition(text)), identifiers(text)


def ground(claim: Claim, neighbours: Sequence[tuple[Entry, float]], slot_matches: Sequence[Entry] = ()) -> Grounding:
    """Pick the target: a same-slot open entry wins (best matching among them), else the best matching
    neighbour whose cosine clears ``MATCH_THRESHOLD`` or whose word overlap clears ``OVERLAP_THRESHOLD``.
    Accepted entries are preferred over Pending ones at equal score, since only they can be revised."""
    sims = {e.id: s for e, s in neighbours}
    slot_open = [e for e in slot_matches if e.ledger is not Ledger.HISTORY]
    pool = slot_open or [e for e, _ in neighbours]
    scored = sorted(
        ((match_score(claim, e, sims.get(e.id, 0.0)), e.ledger is Ledger.ACCEPTED, e) for e in pool),
        key=lambda t: (t[0], t[1]), reverse=True,
    )
    if scored and (slot_open or scored[0][0] >= MATCH_THRESHOLD):
        best = scored[0][2]
        runner = scored[1][0] if len(scored) > 1 else 0.0
        sim = sims.get(best.id, 0.0)
        return Grounding(best, sim, features(claim, best, sim, runner), tuple(neighbours))
    return Grounding(None, max((s for _, s in neighbours), default=0.0), claim_features(claim), tuple(neighbours))


def rank(query: np.ndarray, entries: Sequence[Entry], vectors: np.ndarray, k: int) -> list[tuple[Entry, float]]:
    """The ``k`` entries most cosine-similar to ``query`` (rows of ``vectors`` are L2-normalised): the
    brute-force twin of the index query, for simulation over a ``MemoryState``."""
    if not entries or k <= 0:
        return []
    sims = vectors @ query
    top = np.argpartition(-sims, min(k, len(entries)) - 1)[:k] if len(entries) > k else np.arange(len(entries))
    top = sorted(top, key=lambda i: -sims[i])
    return [(entries[i], float(sims[i])) for i in top]
