"""Finding which of many regex cues matches a text first, in lexicon order, without searching the text
once per cue.

Why: the slot lexicon (``families.FAMILIES``) is ~50 ordered cue patterns, and ``families.family`` wants the
first family (in lexicon order, not in text order) whose cue occurs anywhere. Searching each pattern
along the text costs ~50 scans; one combined alternation is no better, because Python's ``re`` tries
its ~200 branches one by one at every word start. Here each cue's possible first characters are read
from its parsed pattern, so at each position only the cues that can start with that character are
tried (one smaller combined pattern per character, whose first matching branch is the first cue
matching there), and the winning cue is matched once more on its own. The result is exactly
``re.search`` of each cue in order: the same cue and an identical ``Match`` (span, groups). The few
alternatives that can start with any character (``\w+ine``) are tried at every position, so a text is
scanned without those whose literals it lacks (the table for each such set is built once).

The same reading of parsed patterns spares whole searches that cannot succeed, for the same reason
(``re`` tries every alternative at every position, where a substring test is one C scan): ``has_digit``
rules out the patterns ``needs_digit`` finds need a digit, and ``Prefiltered`` a pattern whose every
match holds one of a few literals (``needed_literals``) on an ASCII text holding none of them.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # the engine's test of a cased character, as re's compiler reads it
import re
import string
from collections.abc import Callable, Iterator, Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

_ASCII = frozenset(string.printable)


def _first(seq: sre_parse.SubPattern | list) -> tuple[frozenset[str] | None, bool]:
    """(the lower-cased ASCII characters a parsed pattern can start with, or None for any character;
    whether it can match the empty string). Anything this does not recognise answers None: safe."""
    out: set[str] = set()
    for op, av in seq:
        if op is sre.LITERAL:
            return frozenset(out | {chr(av).lower()}), False
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue            # zero width: the next item starts the match
        if op is sre.IN:
            chars: set[str] = set()
            for o, a in av:
                if o is sre.LITERAL:
                    chars.add(chr(a).lower())
                elif o is sre.RANGE and a[1] < 128:
                    chars |= {chr(c).lower() for c in range(a[0], a[1] + 1)}
                elif o is sre.CATEGORY and a is sre.CATEGORY_DIGIT:
                    chars |= set(string.digits)
                else:
                    return None, False
            return frozenset(out | chars), False
        if op is sre.SUBPATTERN:
            first, empty = _first(av[3])
        elif op is sre.BRANCH:
            parts = [_first(b) for b in av[1]]
            if any(f is None for f, _ in parts):
                return None, False
            first, empty = frozenset().union(*(f for f, _ in parts)), any(e for _, e in parts)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            first, empty = _first(av[2])
            empty = empty or av[0] == 0
        else:
            return None, False
        if first is None:
            return None, False
        out |= first
        if not empty:
            return frozenset(out), False
    return frozenset(out), True


def _alternatives(cue: str, flags: int) -> list[str]:
    """The cue's top-level alternatives ("pin|pass(?:word|code)" -> "pin", "pass(?:word|code)"): each goes
    only under the characters it can start with, so a position tries the few alternatives that can begin
    there, not every alternative of every cue sharing one. The cue whole when the split is not certain."""
    alts, depth, start, i, in_class = [], 0, 0, 0, False
    while i < len(cue):
        ch = cue[i]
        if ch == "\\":
            i += 1
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
            i += cue[i + 1:i + 2] == "^"
            i += cue[i + 1:i + 2] == "]"          # a ']' first in a class is literal
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            alts.append(cue[start:i])
            start = i + 1
        i += 1
    alts.append(cue[start:])
    parsed = sre_parse.parse(cue, flags)
    if len(alts) > 1 and not (len(parsed) == 1 and parsed[0][0] is sre.BRANCH and len(parsed[0][1][1]) == len(alts)):
        return [cue]
    return alts


class CueScanner:
    """``first(text)``: ``(i, match)`` for the first of ``cues`` (in order) that ``re.search`` finds in
    ``text``, each cue wrapped as ``before(?:cue)after``; None when none does."""

    def __init__(self, cues: Sequence[str], flags: int = 0, before: str = "", after: str = "") -> None:
        self.patterns = [re.compile(rf"{before}(?:{cue}){after}", flags) for cue in cues]
        self._flags, self._before, self._after = flags, before, after
        self._starts: list[list[tuple[str, frozenset[str] | None]]] = []
        """Per cue, its alternatives with the characters each can start with (None: any)."""
        for cue in cues:
            alts = []
            for alt in _alternatives(cue, flags):
                first, empty = _first(sre_parse.parse(alt, flags))
                alts.append((alt, None if empty else first))
            self._starts.append(alts)
        self._wild = {(i, j): needed_literals(re.compile(alt, flags)) for i, alts in enumerate(self._starts)
                      for j, (alt, first) in enumerate(alts) if first is None}
        """The alternatives that can start with any character (``\\w{3,}pril``), each with the literals one of
        which its every match holds: tried at every position, they cost a scan more than all the others, and
        a text holding none of an alternative's literals is scanned without it (see ``Prefiltered``)."""
        self._tables: dict[frozenset[tuple[int, int]], dict[str, re.Pattern[str] | None]] = {}
        self._slow = re.compile(      # any cue: where the table does not reach (outside ASCII, case folding surprises)
            rf"{before}(?:{'|'.join(f'(?P<cue{i}>{cue})' for i, cue in enumerate(cues))}){after}", flags)
        self._where = re.compile(before, flags)
        """Where a match may start at all (``before`` is zero width, e.g. a lookbehind)."""

    def _table(self, wild: frozenset[tuple[int, int]]) -> dict[str, re.Pattern[str] | None]:
        """Per character, the cues that can start with it, in order, each a named group holding those of
        its alternatives that can (of the wild ones, those in ``wild``): an alternation answers with its
        first branch that matches, so the group named is the first cue matching here. Built on first use."""
        table = self._tables.get(wild)
        if table is None:
            by_char: dict[str, list[str]] = {c: [] for c in _ASCII}
            for i, alts in enumerate(self._starts):
                for c in by_char:
                    if chosen := [alt for j, (alt, first) in enumerate(alts)
                                  if ((i, j) in wild if first is None else c in first or c.lower() in first)]:
                        by_char[c].append(f"(?P<cue{i}>{'|'.join(chosen)})")
            table = self._tables[wild] = {
                c: re.compile(rf"{self._before}(?:{'|'.join(alts)}){self._after}", self._flags) if alts else None
                for c, alts in by_char.items()}
        return table

    def _possible(self, text: str) -> frozenset[tuple[int, int]]:
        """The wild alternatives that may match somewhere in ``text``: every one outside ASCII."""
        low = text.lower() if text.isascii() else None
        return frozenset(k for k, needed in self._wild.items()
                         if needed is None or low is None or any(s in low for s in needed))

    def first(self, text: str) -> tuple[int, re.Match[str]] | None:
        """The first cue (in order) found anywhere: the least of the first cues matching at each position,
        matched again on its own at the leftmost position where it is the first, as ``re.search`` would."""
        at, slow, n = self._table(self._possible(text)), self._slow, len(text)
        best, where = len(self.patterns), -1
        for m in self._where.finditer(text):
            i = m.start()
            rx = at.get(text[i], slow) if i < n else slow
            if rx is not None and (hit := rx.match(text, i)) is not None:
                k = int(hit.lastgroup[3:])      # type: ignore[index]
                if k < best:
                    best, where = k, i
        return None if where < 0 else (best, self.patterns[best].match(text, where))  # type: ignore[return-value]


_DIGIT = re.compile(r"\d")


def has_digit(text: str) -> bool:
    """Whether ``text`` holds a digit: one fast scan that rules out every pattern ``needs_digit``
    (ids, numbers, times, phones) on the many texts without one, instead of each slower search."""
    return _DIGIT.search(text) is not None


def needs_digit(rx: re.Pattern[str]) -> bool:
    """Whether every match of ``rx`` holds (or looks ahead at) a digit, so it cannot match a text
    ``has_digit`` rejects. Anything this does not recognise answers False: safe."""
    return _needs(sre_parse.parse(rx.pattern, rx.flags))


def _needs(seq: sre_parse.SubPattern | list) -> bool:
    for op, av in seq:
        if op is sre.LITERAL and chr(av).isdecimal():
            return True
        if op is sre.IN and av and all(o is sre.CATEGORY and a is sre.CATEGORY_DIGIT or o is sre.LITERAL and chr(a).isdecimal()
                                       or o is sre.RANGE and "0" <= chr(a[0]) and chr(a[1]) <= "9" for o, a in av):
            return True
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1 and _needs(av[2]):
            return True
        if op is sre.SUBPATTERN and _needs(av[3]) or op is sre.ASSERT and _needs(av[1]):
            return True
        if op is sre.BRANCH and all(_needs(b) for b in av[1]):
            return True
    return False


class Prefiltered:
    """A compiled pattern whose searches answer "none" at once for an ASCII text holding none of the
    literals one of which every match holds (``needed_literals``): a few substring tests instead of the
    regex trying each of its alternatives at every position. Otherwise, the pattern's own answer."""

    def __init__(self, rx: re.Pattern[str]) -> None:
        self.rx, self.needed = rx, needed_literals(rx)

    def _may_match(self, text: str) -> bool:
        if self.needed is None or not text.isascii():
            return True
        low = text.lower()
        for s in self.needed:       # (a loop, not any() over a generator: ~30 calls a decision)
            if s in low:
                return True
        return False

    def search(self, text: str) -> re.Match[str] | None:
        return self.rx.search(text) if self._may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.rx.finditer(text) if self._may_match(text) else iter(())

    def findall(self, text: str) -> list:
        return self.rx.findall(text) if self._may_match(text) else []

    def sub(self, repl: str | Callable[[re.Match[str]], str], text: str) -> str:
        return self.rx.sub(repl, text) if self._may_match(text) else text


def needed_literals(rx: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-cased ASCII strings one of which every match of ``rx`` holds: an ASCII text whose lower
    case holds none of them has no match, whatever the case flags. None when no such set is known
    (classes and repeats everywhere, or a cased non-ASCII character that may fold to an ASCII one)."""
    found = _needed(list(sre_parse.parse(rx.pattern, rx.flags)))
    return None if found is None else tuple(sorted(found))


def _needed(seq: list) -> set[str] | None:
    """The best-known set of literals one of which every match of ``seq`` holds: the literal starts of
    the part from some item on, or what a group, a branch (each alternative) or a repeat needs."""
    options = [_starts(seq[j:])[0] for j in range(len(seq))]
    for op, av in seq:
        if op is sre.SUBPATTERN:
            options.append(_needed(list(av[3])))
        elif op is sre.BRANCH:
            parts = [_needed(list(b)) for b in av[1]]
            options.append(None if None in parts else set().union(*parts))  # type: ignore[arg-type]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1:
            options.append(_needed(list(av[2])))
    valid = [o for o in options if o and "" not in o and all(map(_exact, o))]
    return max(valid, key=lambda o: (min(map(len, o)), -len(o)), default=None)   # longest, then fewest


def _exact(literal: str) -> bool:
    """A literal an ASCII text's lower case holds whenever a match does, whatever the case flags: ASCII
    (lower-cased on both sides), or with non-ASCII characters only of those ``re`` matches as they are
    (uncased: "→" in a record's ``key → value``), which an ASCII text never holds."""
    return literal.isascii() or not any(_sre.unicode_iscased(ord(c)) for c in literal if not c.isascii())


def _starts(seq: sre_parse.SubPattern | list) -> tuple[set[str], bool]:
    """(the literal prefixes of every match of ``seq``, whether each is a whole match)."""
    out = {""}
    for op, av in seq:
        if op is sre.AT:
            continue
        if op is sre.LITERAL:
            part, whole = {chr(av).lower()}, True
        elif op is sre.IN and all(o is sre.LITERAL for o, _ in av):
            part, whole = {chr(a).lower() for _, a in av}, True
        elif op is sre.SUBPATTERN:
            part, whole = _starts(av[3])
        elif op is sre.BRANCH:
            parts = [_starts(b) for b in av[1]]
            part, whole = set().union(*(p for p, _ in parts)), all(w for _, w in parts)
        else:
            return out, False
        longer = {a + b for a in out for b in part}
        if len(longer) > 256:           # (a shorter prefix is as true, and cheaper to test)
            return out, False
        out = longer
        if not whole:
            return out, False
    return out, True
