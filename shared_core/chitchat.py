"""Is this turn a remark with nothing to remember ("anyway enough meds talk", "phew")?

The contract keeps every new fact a trusted source states (``policy.contract``), so a remark that reads
like a statement would be stored. ``grounding.content_free`` catches turns made only of phatic words;
this logistic model (``linking.PairModel``) catches the rest from what a remark lacks (names, numbers,
ids, attribute words, content) and what it has (interjections and discourse markers), never from the
words of any episode. Fitted on the hand-written training episodes only
(``python -m shared_core.training.chitchat``), threshold chosen on dev with precision weighted over
recall: dropping a real fact costs more than storing a remark.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import slots
from .cuescan import Prefiltered
from .grounding import PHATIC, STOP, content_free, identifiers, numbers
from .linking import COMMON, PairModel

WEIGHTS = Path(__file__).resolve().parent / "policy" / "weights" / "chitchat.json"

MARKERS = frozenset(
    "lol lmao rofl haha hahaha hehe heh ugh argh omg phew ffs anyway anyways whatever meh oof welp hmm yay woo "
    "wow nice fine cool ok okay k thx ty cheers grim sigh damn dang gosh jeez yikes lmk idk tbh ngl smh fr "
    "thanks thank appreciate cute lovely funny hilarious".split())
"""Interjections and discourse markers of chat: general English, not any episode's words."""

_ACT = Prefiltered(re.compile(
    r"\b(?:thanks?|thx|ty|cheers|ta|sorry|apologies|hi|hiya|hello|hey|bye|brb|gtg|g2g|ttyl|bbl|afk|off to|gotta go|"
    r"got to go|talk (?:later|soon)|speak soon|good (?:morning|night|evening))\b|^\W*(?:mornin[g']?|evening|night|nite)\b", re.I))
"""A conversational act rather than a report: thanking, apologising, greeting, leaving."""
_GREETING = Prefiltered(re.compile(
    r"^\W*(?:(?:h+i+|he+y+|yo+|hiya|hello+|sup|oi|morning|evening|afternoon)\b\W*(?:there|all|mate|man|dude|guys|you)?\W*)?"
    r"(?:how(?:'?s| is| are| have)? (?:it going|things|(?:you|u|ya)(?: been| doing)?|"
    r"(?:your|ur) (?:day|week|weekend)(?: been| going)?)|"
    r"what'?s (?:up|new|good)(?: with (?:you|u))?|wh?a+ss+u+p|sup|how (?:you|u|ya) doing|you (?:ok|good|alright))"
    r"\W*(?:lol|mate|man|dude|today|then)?\W*$", re.I))
"""A greeting that asks after the other ("hiii how's it going", "yo what's up"): a conversational act, nothing to keep."""
_EMOTE = re.compile(r"[\U0001F300-\U0001FAFF\u2600-\u27BF]|(?<!\w)[:;]-?[()DPp]|!!|\b\w*([a-z])\1{2,}\b", re.I)
"""An emoji, an emoticon, a double exclamation or a stretched word ("yayyy"): how chat sounds, not what it says."""
_FEELING = Prefiltered(re.compile(
    r"\b(?:gutted|brill|brilliant|terrible|awful|worst|best|freezing|boiling|chaos|chaotic|insane|grim|cursed|lovely|"
    r"amazing|hilarious|ridiculous|annoying|exhausting|exhausted|knackered|tired|dead|cute|weird|wild|mad|crazy|"
    r"obsessed|stressed|bored|boring|gross|ugh|yikes|phew|yay|finally|literally|honestly|so much|pure)\b", re.I))
"""How a remark feels (general English): chat says how things are going, a fact says what holds."""
_TOKEN = re.compile(r"[a-z0-9']+")
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'll|my|mine|we|we're|our|me|us)\b", re.I)

NAMES = ("log_tokens", "log_content", "marker_share", "has_number", "has_identifier", "has_name", "attribute_word",
         "first_person", "question", "starts_with_marker", "from_user", "phatic_only", "chat_act", "emote",
         "feeling")


@lru_cache(maxsize=16384)
def features(text: str, source: str) -> tuple[float, ...]:
    toks = _TOKEN.findall(text.lower())
    content = [t for t in toks if t not in STOP and t not in PHATIC and t not in MARKERS]
    names = [w for w in text.split()[1:] if w[:1].isupper()]
    return (math.log1p(len(toks)), math.log1p(len(content)),
            sum(t in MARKERS for t in toks) / max(1, len(toks)),
            float(bool(numbers(text))), float(bool(identifiers(text))), float(bool(names)),
            float(slots.family(text) is not None), float(bool(_FIRST_PERSON.search(text))), float("?" in text),
            float(bool(toks) and toks[0] in MARKERS), float(source == "user"), float(content_free(text)),
            float(bool(_ACT.search(text))), float(bool(_EMOTE.search(text))),
            float(bool(_FEELING.search(text))))


@lru_cache(maxsize=1)
def default() -> PairModel | None:
    """The shipped model, or None before one was fitted (only phatic-word turns count as remarks then)."""
    return PairModel.load(WEIGHTS, NAMES) if WEIGHTS.exists() else None


_NEWS = frozenset({"now", "anymore", "instead", "too"})
"""Words that, after a content word, say a value changed or one more holds ("teams now, ugh", "no sugar anymore",
"arket too tbh"): no remark, however chatty the rest ("now" or "too" after a marker, a feeling or a word that names nothing:
"ok now what", "so tired now lol", "same too lol", says nothing of the kind)."""


def _names_news(text: str) -> bool:
    toks = _TOKEN.findall(text.lower())
    return any(t in _NEWS and w not in STOP and w not in PHATIC and w not in MARKERS and not _FEELING.search(w)
               and not (t == "too" and w in COMMON) for w, t in zip(toks, toks[1:]))


def remark(text: str, source: str) -> bool:
    """Nothing to remember: phatic words only, or a remark by the shipped model. A tool's or a document's
    structured output is never a remark, nor is a value said to have changed or added (``_names_news``)."""
    if content_free(text) or _GREETING.search(text):
        return True
    model = default()
    if model is None or text.lstrip().startswith(("{", "[")) or _names_news(text):
        return False
    return bool(model.probabilities(np.asarray([features(text, source)]))[0] >= model.threshold)
