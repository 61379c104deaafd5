"""Medicines: a medicine named by its international name ("ramipril", "sertraline", "adalimumab"), known by the stem
the WHO gives each class of them (-pril, -olol, -statin, -mab ...). A person takes several at once, so a second one
named with its own dose ("Dad takes ramipril 2.5 mg once daily" beside "Dad takes metformin 500 mg twice daily") is
another medicine, not the first one's dose changed; unless the text says it replaces one ("switched to fluoxetine",
"on citalopram now") or names the one held."""

from __future__ import annotations

import re
from functools import lru_cache

from .families import family
from .grounding import UPDATE_CUE

_NAMED = re.compile(
    r"\b[a-z]{3,}(?:pril|sartan|olol|dipine|statin|formin|oxetine|pram|prazole|azole|cillin|mycin|cycline|floxacin|lukast|"
    r"solone|isone|tidine|triptan|gliptin|gliflozin|parin|xaban|zepam|azolam|thyroxine|tiapine|peridone|ipramine|triptyline|"
    r"fenac|profen|setron|semide|thiazide|gabalin|pentin|terol|dronate|glutide|zumab|ximab|tinib|ciclovir|navir)\b"
    r"|\b(?:aspirin|paracetamol|acetaminophen|warfarin|insulin|metformin|codeine|morphine|tramadol|lithium|sertraline|"
    r"melatonin|naproxen|salbutamol|albuterol|allopurinol|digoxin|methotrexate|tamoxifen|clopidogrel)\b", re.I)


@lru_cache(maxsize=65536)
def named(text: str) -> frozenset[str]:
    """The medicines a text names, lower-cased; cached (asked of both texts of every candidate pair)."""
    return frozenset(m.lower() for m in _NAMED.findall(text))


def apart(claim: str, entry: str) -> bool:
    """Each text names its own medicine and not the other's, and the claim says no change: two medicines. Not where
    either is about an allergy ("no drug allergies, so amoxicillin is fine" answers "allergic to penicillin")."""
    a, b = named(claim), named(entry)
    return bool(a and b) and not a & b and not UPDATE_CUE.search(claim) and not any(
        (fam := family(text)) and fam[0] == "allergy" for text in (claim, entry))
