"""``cuescan.CueScanner`` must answer exactly what searching each cue in order answers: the slot
lexicon's family (and the very match object's span) decides slots, so a faster scan may change nothing."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core import families, linking, slots, tokens, written
from shared_core.cuescan import CueScanner, Prefiltered, has_digit, needed_literals, needs_digit

FRAGMENTS = ["my ", "I ", "the ", "new ", "password ", "pin", "-", "_", " ", ", ", "20mg ", "10 mg", "sertraline ",
             "lives in ", "moved to ", "Porto", "£40 ", "$", "€", "K", "\u212a", "\u017f", "ß", "İ", "٣", "dark mode ",
             "likes ", "kids ", "order #1000 ", "api_key=", "to-do ", "remind me ", "team ", "a Spurs fan ", "\n",
             "lisinopril ", "atorvastatin ", "online ", "Line ", "Eastern Standard Time ", " standard time", "PRIL"]


def _reference(text: str) -> tuple[str, bool, tuple[int, int]] | None:
    for (name, cue, many) in families.FAMILIES:
        m = re.search(rf"(?<![\w-])(?:{cue})(?![\w-])", text, re.I)
        if m:
            return name, many, m.span()
    return None


def _fast(text: str) -> tuple[str, bool, tuple[int, int]] | None:
    hit = families.family.__wrapped__(text)
    return None if hit is None else (hit[0], hit[1], hit[2].span())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=6), max_size=12).map("".join))
def test_family_is_the_ordered_search(text: str) -> None:
    assert _fast(text) == _reference(text)


def test_family_on_written_text() -> None:
    for text in ["Remind me to call mom", "I'm allergic to penicillin", "Switched to light mode", "my pin is 4471",
                 "Nothing to see here", "doc upped the citalopram to 30", "re-pin", "pin-code", "-pin"]:
        assert _fast(text) == _reference(text), text


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["ab", "a", "b+", "[xy]z", r"\d+", "c?d", "(?:e|f)g", "h*",
                                "ab|c?d", "[|x]z|b+", r"\|a|(?:e|f)g", "h*|kz", "a|b", r"\w+yz", r"a|\w{2,}kz"]), min_size=1, max_size=5),
       st.text(alphabet="abcdefghxyz0123 -_|ABK\u212a", max_size=20))
def test_scanner_on_any_cues(cues: list[str], text: str) -> None:
    """Empty-matching cues, classes, repeats, case folding, top-level alternatives (split per first
    character) and alternatives that start anywhere (left out of texts without their literals): still the
    first cue ``re.search`` finds."""
    scan = CueScanner(cues, re.I, before=r"(?<![\w-])", after=r"(?![\w-])")
    want = next(((i, m.span()) for i, rx in enumerate(scan.patterns) if (m := rx.search(text))), None)
    got = scan.first(text)
    assert (None if got is None else (got[0], got[1].span())) == want


def test_patterns_skipped_without_a_digit_need_one() -> None:
    """The searches ``has_digit`` spares are exactly those that cannot match without a digit."""
    for rx in (slots._ID_NOUN, slots._BARE_ID, written._CLOCK, written._PHONE, written._HTTP_STATUS, tokens._IDENT):
        assert needs_digit(rx), rx.pattern
    assert linking._DIGITAL == set(linking.TYPES) - {"email", "weekday", "url"}


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([r"\d", "a|1", r"[^0-9]x", r"\d?", r"(?=\w*\d)x", r"(?!\d)a", "[0-9a]", r"\D", "(?:1|2)b", "1{0,3}",
                        r"x\d{2}|y", r"(?:a\d|\db)+"]),
       st.text(alphabet="ab1x y٣", max_size=12))
def test_needs_digit_is_safe(pattern: str, text: str) -> None:
    rx = re.compile(pattern)
    if needs_digit(rx) and not has_digit(text):
        assert rx.search(text) is None


PREFILTERED = [r"\b(?:says?|said|told (?:me|us))\b", r"^\s*(?:the )?user\b|\brecap\b", r"\b(?:ab|a[bc]d|x+y)\b",
               r"\w+\s*(?:[:=]|->)\s*\S", r"\b(\w+)\s+(?:has |just )?(?:died|passed on)", r"[^\w]*(?:a|b)\s+k:",
               r"(?:k|s)it|(?-i:Ki)t", r"n't\b|\bno(?:pe)?\b", r"[ks]i|ab", r"\bi\b|\bme\b", "(?:a|b)(?:c|d)e|f",
               r"\w+\s*(?:[:=]|->|→)\s*\S", "ét|→k"]


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(PREFILTERED), st.sampled_from([0, re.I]),
       st.lists(st.sampled_from(["Said ", "SAYS", "told Us", "user", " recap", "ABd", "xxy", "Kit", "kit", "\u212ait",
                                 "\u017fit", "\u0131", "sIt", "don't", "Nope", " I ", "me", "ace", "bde", "f", "-",
                                 "x: 1", "a=b", "b->", " died", "has passed on", "A  K:", "a → b", "Ét", "ét"])
                | st.text(alphabet="abcdeiknostuyx KS':=->\u212a\u017f\u0131", max_size=5), max_size=6).map("".join))
def test_prefiltered_is_the_search(pattern: str, flags: int, text: str) -> None:
    """Ruling a text out by the literals its matches need answers exactly what ``re.search`` answers."""
    rx = re.compile(pattern, flags)
    want = rx.search(text)
    got = Prefiltered(rx).search(text)
    assert (None if got is None else got.span()) == (None if want is None else want.span())
    assert [m.span() for m in Prefiltered(rx).finditer(text)] == [m.span() for m in rx.finditer(text)]
    assert Prefiltered(rx).findall(text) == rx.findall(text)
    assert Prefiltered(rx).sub(" ", text) == rx.sub(" ", text)


def test_needed_literals() -> None:
    assert needed_literals(re.compile(r"\b(?:says?|said|told (?:me|us))\b", re.I)) == ("said", "say", "told me", "told us")
    assert needed_literals(re.compile(r"^\s*user")) == ("user",)
    assert needed_literals(re.compile(r"\w+\s*(?:[:=]|->)")) == ("->", ":", "=")
    assert needed_literals(re.compile("\u017fit|x", re.I)) == ("it", "x")   # a long s matches ASCII "s" under re.I
    assert needed_literals(re.compile(r"\w+|x")) is None
    assert needed_literals(re.compile(r"\w+\s*(?:[:=]|->|→)", re.I)) == ("->", ":", "=", "→")   # uncased: as it is
    assert needed_literals(re.compile("ét|x", re.I)) == ("t", "x")     # cased "é" (also "É"): only its "t"
