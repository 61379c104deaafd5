"""Linking: the probability that a free-text claim is about an open entry (the same subject and attribute).

Why a learned pair score: the hand-written slot lexicon (``slots.infer``) recognises an attribute only
when one of its words appears, and real messages rarely name the attribute ("signed the lease on a flat
in porto", "gp bumped the sertraline up to 100"). What they do share with the entry they update is a
*specific* word (sertraline, keto, the order id, the person holding the keys) or a JSON key, while the
words they share with unrelated entries are common ones (week, home, now). So the evidence is a handful
of lexical, embedder-agnostic features per pair, plus where the pair ranks among the claim's candidates
(one candidate sharing the rare word is the one; five sharing it are not), combined by a logistic model
fitted on slot-labelled episodes (``training.linking``) and shipped as JSON. The slot lexicon's verdicts
are features too: agreement is evidence, disagreement between two recognised attributes is evidence
against. Explicit slots on both sides are not guessed: they decide.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from . import slots
from .cuescan import Prefiltered, has_digit, needs_digit
from .grounding import PHATIC, STOP, content_tokens, entities, identifiers, numbers, proposition
from .index.embedders import _stem
from .written import plain_number

WEIGHTS = Path(__file__).resolve().parent / "policy" / "weights" / "link.json"

COMMON = frozenset("""
about above after again against all almost along already always among another any anybody anyone anything
anyway anywhere around away back bad be because before behind below best better between big bit both bring
brought call called came can't cause come comes coming couldn't day days did didn't different does doesn't
doing done don't down during each early either else end enough even ever every everyone everything exactly
far few find fine first for found free friday from full gave get gets getting give given go goes going gone
good got gotta great had hadn't half happen happened has hasn't have haven't having hear heard help here
high hold how however i'd i'll i'm i've if im into isn't it'd it'll it's its itself ive just keep kept kind
know known last late later least left less let let's like likely little long look looked looking lot lots
made make makes making many maybe mean meant might mine minute minutes monday month months more morning most
much must near need needed needs never new next nice night none nope nothing now number of off often okay old
once one ones only onto other others otherwise our ours out over own part past people per pick place point
pretty put quite rather re really right said same saturday say says see seem seems set several should
since small some somebody someone something sometimes soon sorry start started starting still stuff such
sunday sure take taken takes taking tell than thanks that's them themselves then there's these thing things
think thinking this those though thought through thursday thx till time times today told tomorrow tonight
too took top total tried true try trying tuesday turn two under until up upon us use used using usual
usually want wanted wants wasn't way ways we'd we'll we're we've wednesday week weekend weeks well went
weren't what's whatever while who's whole why will with within without won't work worked working would
wouldn't yeah year years yes yesterday yet you'd you'll you're you've yours yourself ok lol tbh rn btw
apparently actually basically literally probably definitely honestly totally ago able via etc also again
mentioned said says noted note user user's assistant confirmed confirm confirms update updated updates status
""".split())
"""Words that say nothing about *what* a message is about (time words, fillers, light verbs). Written by
hand from general English, not from any data set; the linker's other features absorb what it misses."""

_KEY = Prefiltered(re.compile(r"[\"']?([A-Za-z_][A-Za-z0-9_]{1,30})[\"']?\s*(?:[:=]|->)\s*"))


@lru_cache(maxsize=65536)
def specific(text: str) -> frozenset[str]:
    """Stems of the words that can name what a message is about: not stop words, fillers or phatic words."""
    out = set()
    for t in content_tokens(proposition(text)):
        t = t.strip("'\"").removesuffix("'s")
        if (len(t) < 3 and not (t.isalpha() and re.search(rf"\b{t.capitalize()}\b", text))) or t in COMMON or t in PHATIC or t in STOP:
            continue
        out.add(_stem(t) if t.isalpha() else t)
        if _COMPOUND.search(t):         # a key path or an id names its parts too: "max retries" is the
            out |= {_stem(w) if w.isalpha() else w for w in _COMPOUND.split(t)   # checkout.max_retries
                    if (len(w) >= 3 and w.isalpha() or len(w) >= 3 and w.isdigit()) and w not in COMMON and w not in STOP}
    if "," in text:                     # "£1,040" is the 1040 of "rent is 1040 a month"
        out |= {plain_number(n) for n in _GROUPED.findall(text)}
    return frozenset(out)


_COMPOUND = re.compile(r"[._/-]")
_GROUPED = re.compile(r"(?<![\d,.])\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)")


@lru_cache(maxsize=65536)
def keys(text: str) -> frozenset[str]:
    """Field names of structured text (JSON, ``key=value``, ``key: value``): a tool's output names its slots."""
    return frozenset(k.lower() for k in _KEY.findall(text) if not k.isdigit())


_WORD = re.compile(r"[a-z0-9][a-z0-9@./:_-]*")


@lru_cache(maxsize=65536)
def lower_words(text: str) -> frozenset[str]:
    """Every word of ``text`` and its stem, lower-cased, with digits-only variants of numbers ("9037")."""
    out, low = set(), text.lower()
    digits = has_digit(low)        # (without one, every digits-only variant is empty)
    for w in _WORD.findall(low):
        w = w.strip(".:-/")
        out |= {w, _stem(w), _NOT_DIGIT.sub("", w) if digits else ""} - {""}
    return frozenset(out)


_NOT_DIGIT = re.compile(r"\D")


@lru_cache(maxsize=65536)
def values(text: str) -> frozenset[str]:
    """What an entry's value is likely to be: its numbers, ids and names, and failing those its specific words."""
    v = {n.replace(",", "") for n in numbers(text)} | set(identifiers(text)) | {e.removesuffix("'s") for e in entities(text)}
    return frozenset({x.lower() for x in v} or specific(text))


TYPES: dict[str, re.Pattern[str]] = {name: re.compile(rx, re.I) for name, rx in {
    "phone": r"(?:\+\d{1,3}[ -]?)?(?:\(\d{2,4}\)[ -]?)?\d{3,4}[ -]\d{3,4}(?:[ -]\d{2,4})?\b",
    "email": r"\b[\w.+-]+@[\w-]+\.[\w.]+\b",
    "iban": r"\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}\b",
    "money": r"(?:[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds?|quid|k)\b)",
    "hours": r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)?\s?(?:-|–|till|til|to|until)\s?\d{1,2}(?::\d{2})?\s?(?:am|pm)?\b",
    "clock": r"\b\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|\b\d{1,2}:\d{2}\b",
    "weekday": r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)(?:day)?s?\b",
    "date": r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|"
            r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
            r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b",
    "version": r"\bv?\d+\.\d+(?:\.\d+)+\b|\bv\d+(?:\.\d+)?\b",
    "dose": r"\b\d+(?:\.\d+)?\s?(?:mg|mcg|ml|g|kg|lbs?|iu|units?)\b",
    "percent": r"\b\d+(?:\.\d+)?\s?%",
    "url": r"\bhttps?://\S+|\b[\w-]+\.(?:com|org|net|io|dev|co|app)\b",
    "address": r"\b\d{1,4}\s+[A-Za-z]+\s+(?:st|street|rd|road|ave|avenue|lane|ln|way|drive|dr|close|court|place)\b",
    "postcode": r"\b[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}\b|\b\d{5}(?:-\d{4})?\b",
}.items()}
"""Shapes of values (a phone number, a weekday, a dose): two messages whose values have the same shape
tend to be about the same attribute even when they share no word ("cell is (512) 555-0143" and "new
number 737-555-0199")."""


_DIGITAL = frozenset(name for name, rx in TYPES.items() if needs_digit(rx))
"""The shapes written with a digit: none to search for in a text without one."""


_TYPE_SCANS = {name: Prefiltered(rx) for name, rx in TYPES.items()}
"""Each shape's search, spared on a text holding none of the literals it needs ("@", a weekday's stem)."""


@lru_cache(maxsize=65536)
def types(text: str) -> frozenset[str]:
    digits = has_digit(text)
    return frozenset(name for name, rx in _TYPE_SCANS.items() if (digits or name not in _DIGITAL) and rx.search(text))


def prepare(text: str) -> None:
    """Fill the per-text caches ``pair`` reads (see ``decision.prepare``)."""
    specific(text), keys(text), types(text), values(text), lower_words(text)
    entities(text), identifiers(text), numbers(text)
    _view(text)


_OPENING = re.compile(r"[a-z][\w-]*")
"""A text's first word (``_view``'s last set): an entry that opens with the claim's subject is about it, so that word
is the subject both share, no evidence of their link."""


@lru_cache(maxsize=65536)
def _view(text: str) -> tuple[frozenset[str], ...]:
    """Every per-text set ``pair`` reads, in one cache lookup (a claim meets ~16 candidates a write)."""
    return (specific(text), identifiers(text), keys(text), types(text), entities(text), numbers(text),
            values(text), lower_words(text), frozenset(_OPENING.findall(text.lower(), 0, 40)[:1]))


PAIR_NAMES: tuple[str, ...] = (
    "shared_specific", "containment_claim", "containment_entry", "ids_shared", "ids_conflict", "names_shared",
    "numbers_shared", "keys_shared", "family_same", "family_conflict", "subject_same", "subject_conflict",
    "lexicon_identity", "cosine", "claim_specific", "entry_specific", "entry_values_named",
    "types_shared", "types_conflict", "shared_beyond_subject",
)
POOL_NAMES: tuple[str, ...] = ("best_shared", "shared_gap", "best_cosine", "cosine_gap", "pool_size", "sharers")
NAMES = PAIR_NAMES + POOL_NAMES


def _subject_words(slot: slots.Slot) -> frozenset[str]:
    return person_words(slot.subject or "")


@lru_cache(maxsize=65536)
def person_words(subject: str) -> frozenset[str]:
    """The name of the person a text is about ("alice" in "Alice keeps bees"): shared, it says the same
    person, not the same attribute, so it is no evidence of one slot. A thing ("the keys") or an id is
    left in: there the subject is what the attribute belongs to and naming it again is evidence."""
    subject = subject.lower()
    if not subject or subject == "user" or subject.startswith("the ") or not re.fullmatch(r"[a-z' -]+", subject):
        return frozenset()
    words = frozenset(re.findall(r"[a-z]+", subject))
    return frozenset() if any(slots.family(w) for w in words) else words    # "pager's mine": a thing


def pair(claim_text: str, mine: slots.Slot, entry_text: str, theirs: slots.Slot, cosine: float) -> list[float]:
    """Features of one (claim, entry) pair, in ``PAIR_NAMES`` order."""
    return _pair(_view(claim_text), mine, _subject_words(mine), _view(entry_text), theirs, cosine)


def _pair(claim: tuple[frozenset[str], ...], mine: slots.Slot, mine_people: frozenset[str],
          entry: tuple[frozenset[str], ...], theirs: slots.Slot, cosine: float) -> list[float]:
    """``pair`` from the two texts' ``_view``s: the claim's side is looked up once per candidate list."""
    a, ia, ka, ta, ea, na, _, claim_words, _ = claim
    b, ib, kb, tb, eb, nb, entry_values, entry_words, opening = entry
    shared = a & b
    held = bool(mine_people) and not _subject_words(theirs) and mine_people <= entry_words and not mine_people & opening \
        and (theirs.subject is not None or mine_people <= {e.removesuffix("'s") for e in eb})
    beyond = shared - (frozenset() if held else mine_people) - _subject_words(theirs)
    ids, kinds, known = ia & ib, ta & tb, mine.known and theirs.known
    return [
        min(len(shared), 3) / 3, len(shared) / max(1, len(a)), len(shared) / max(1, len(b)),
        float(bool(ids)), float(bool(ia and ib and not ids)),
        float(bool(ea & eb)),
        float(bool(na & nb)),
        len(ka & kb) / max(1, len(ka | kb)),
        float(known and mine.attribute == theirs.attribute),
        float(known and mine.attribute != theirs.attribute),
        float(mine.subject is not None and mine.subject == theirs.subject),
        float(not held and not slots.same_subject(mine, theirs)),
        float(slots.identity(mine, theirs)),
        float(cosine), min(len(a), 12) / 12, min(len(b), 12) / 12,
        len(entry_values & claim_words) / max(1, len(entry_values)),
        float(bool(kinds)), float(bool(ta and tb and not kinds)), min(len(beyond), 3) / 3,
    ]


def _best_other(v: list[float]) -> list[float]:
    """For each position, the largest value among the others (0 when there are none)."""
    if len(v) < 2:
        return [0.0] * len(v)
    top = max(v)
    first = v.index(top)            # (the first of equal maxima, as a stable sort puts it first)
    out = [top] * len(v)
    out[first] = max(v[:first] + v[first + 1:])
    return out


_COSINE = PAIR_NAMES.index("cosine")


def pool(rows: list[list[float]]) -> list[list[float]]:
    """Each pair's place among the claim's candidates, appended as ``POOL_NAMES`` columns."""
    return [[*r, *p] for r, p in zip(rows, _places([r[0] for r in rows], [r[_COSINE] for r in rows]))]


def _places(shared: list[float], cos: list[float], wanted: Sequence[bool] | None = None) -> list[tuple[float, ...]]:
    """The ``POOL_NAMES`` columns of each candidate (of those ``wanted``) from every candidate's ``shared_specific``
    and ``cosine``. On Python lists: one decision's ~16 candidates cost numpy more in calls than in arithmetic,
    and the comparisons and differences are the same IEEE doubles either way. Only the rows wanted are built:
    a slotted write's ~80 candidates its explicit slot decides count in the others' places but get none."""
    n = len(shared)
    so, co = _best_other(shared), _best_other(cos)
    size, sharers = min(n, 10) / 10, float(sum(s > 0 for s in shared)) / max(1, n)
    return [(float(s > 0 and s >= o), s - o, float(c >= d), c - d, size, sharers)
            for s, o, c, d, w in zip(shared, so, cos, co, wanted or [True] * n) if w]


def matrix(claim_text: str, mine: slots.Slot, entries: Sequence[tuple[str, slots.Slot, float]],
           scored: Sequence[bool] | None = None) -> np.ndarray:
    """``NAMES`` features for a claim against each of its candidates ``(text, slot, cosine)``; with
    ``scored``, only the rows of the candidates marked True. The others still count in each row's place
    among the candidates, which reads only their shared words and cosine: the decision skips the pair
    features of the candidates whose explicit slots decide (at the scale benchmark's pools, ~80% of them)."""
    if not entries:
        return np.zeros((0, len(NAMES)))
    claim, people = _view(claim_text), _subject_words(mine)
    if scored is None or all(scored):
        return np.asarray(pool([_pair(claim, mine, people, _view(t), s, c) for t, s, c in entries]), dtype=np.float64)
    rows = [_pair(claim, mine, people, _view(t), s, c) if w else None for (t, s, c), w in zip(entries, scored)]
    shared = [r[0] if r is not None else min(len(claim[0] & _view(t)[0]), 3) / 3 for r, (t, _, _) in zip(rows, entries)]
    cos = [r[_COSINE] if r is not None else float(c) for r, (_, _, c) in zip(rows, entries)]
    kept = [r for r in rows if r is not None]
    return np.asarray([[*r, *p] for r, p in zip(kept, _places(shared, cos, scored))], dtype=np.float64).reshape(-1, len(NAMES))


EVIDENCE = ("shared_beyond_subject", "ids_shared", "keys_shared", "family_same", "lexicon_identity", "types_shared")
"""A link needs one of these: two texts that share no specific word, id, field name or recognised
attribute are never taken for one thing, however the rest of the pair scores (wrongly superseding a
true fact costs more than keeping a near-duplicate)."""


_EVIDENCE_AT = [NAMES.index(n) for n in EVIDENCE]


def evidence(x: np.ndarray) -> np.ndarray:
    """1.0 for the rows of ``matrix`` with some evidence of identity, else 0.0."""
    return (x[:, _EVIDENCE_AT] > 0).any(axis=1).astype(float) if len(x) else np.zeros(0)


def gated(model: PairModel, x: np.ndarray) -> np.ndarray:
    """The model's probabilities, zeroed where a pair has no evidence of identity: however the pair ranks
    (a lone candidate in a young namespace scores high), two texts sharing nothing are not one thing."""
    return model.probabilities(x) * evidence(x)


@dataclass(frozen=True)
class PairModel:
    """Logistic model over pair features: ``p = sigmoid(w . (x - mean) / std + b)``; ``threshold``
    chosen on the hand-written dev split. Shipped as JSON beside the policy's weights (no pickle)."""

    names: tuple[str, ...]
    w: np.ndarray
    b: float
    mean: np.ndarray
    std: np.ndarray
    threshold: float
    meta: dict

    @classmethod
    def load(cls, path: str | Path, names: tuple[str, ...]) -> PairModel:
        raw = json.loads(Path(path).read_text())
        if tuple(raw["names"]) != names:
            raise ValueError(f"weights={path}: feature names do not match this version; retrain")
        return cls(names, np.asarray(raw["w"]), float(raw["b"]), np.asarray(raw["mean"]), np.asarray(raw["std"]),
                   float(raw["threshold"]), raw.get("meta", {}))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps({
            "names": list(self.names), "w": np.round(self.w, 6).tolist(), "b": round(self.b, 6),
            "mean": np.round(self.mean, 6).tolist(), "std": np.round(self.std, 6).tolist(),
            "threshold": self.threshold, "meta": self.meta}, separators=(",", ":")))

    @cached_property
    def _scale(self) -> np.ndarray:
        """``std`` with the constant features' zeros as 1: read at every call (~3 a decision), made once."""
        return np.where(self.std > 1e-9, self.std, 1.0)

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        if len(x) == 0:
            return np.zeros(0)
        z = ((x - self.mean) / self._scale) @ self.w + self.b
        return 1.0 / (1.0 + np.exp(-np.minimum(np.maximum(z, -30), 30)))     # (np.clip's wrapper costs more)


@lru_cache(maxsize=1)
def default() -> PairModel | None:
    """The shipped linker, or None before one was trained (the lexicon's identity then decides alone)."""
    return PairModel.load(WEIGHTS, NAMES) if WEIGHTS.exists() else None


def names_thing(claim: str, entry: str) -> bool:
    """Both texts name one thing by a name or a number ("Deloitte", "Model 3"), not only by a common word ("fan")."""
    return bool(specific(claim) & specific(entry) & (entities(claim) | entities(entry) | numbers(claim)))


RESTATES = 0.6
"""Content-word Jaccard from which a claim repeats an entry: the same words are the same slot."""


def restated(claim: str, entry: str) -> bool:
    a, b = content_tokens(proposition(claim)), content_tokens(proposition(entry))
    return bool(a) and len(a & b) / len(a | b) >= RESTATES
