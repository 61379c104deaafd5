"""Versions: which release of a program a text says runs ("Node v18.19.0", "$ node -v -> v20.12.2", "PostgreSQL 15.4",
"react@18.2.0", "redis:7.2").

Why its own reading: an agent's tools read versions back all the time, in words no entry uses ("buildbox-02 $ node -v
v20.12.2" after "Build server runs Node v18.19.0", "SELECT version(); -> PostgreSQL 15.4" after "Aurora team uses
Postgres 15"). The two texts share one word and a number, so neither the linker nor the change model sees one program
read twice: a new version was appended beside the old one and the same version stored again. The program's name next
to its version is the attribute, the version its value: the same version again (or its head, "15" of "15.4") is a
repeat, another one is the version moving.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .cuescan import has_digit

_VERSION = re.compile(r"(?<![\w.$£€¥/:@-])(v?)(\d+(?:\.\d+)+)((?:-[\w.+~]+)?)(?![\w.]*[\w%])", re.I)
"""A version as written: dotted numbers, perhaps "v" before and a build after ("v1.29.4-eks-036c24b"); not an amount
("4.19%", "3.4kg", "£12.50"), a path or an address's part."""
_ATTACHED = re.compile(r"(?<![\w/.-])([a-z][\w.-]*?)[@:]v?(\d+(?:\.\d+)*)(?![\w.]*\w)", re.I)
"""A package or an image with its version attached ("react@18.2.0", "postgres:16")."""
_BARE = re.compile(r"(?<![\w.$£€¥/:@-])(\d+)(?![\w%,:/-]|\.\w)")
"""A major version alone ("Postgres 15"): read only beside a program another text gives a dotted version."""
_WORD = re.compile(r"(?!v\d)[a-z][\w.+-]*[\w+]|[a-z]", re.I)
_PASS = frozenset("v -v -V --version version ver release is was on at runs running uses using of -> → = : now currently "
                  "the a an resolved installed setup set up default alias to".lower().split())
"""Words between a program's name and its version ("node -v -> v20", "Node version on build box: v20")."""
_NOT_PROGRAMS = frozenset("productversion buildversion build box server client team we i my our it its and or with".split())
"""Words near a version that name no program ("Node version on build box: v20")."""
_SAME = {"postgresql": "postgres", "psql": "postgres", "nodejs": "node", "k8s": "kubernetes", "kubectl": "kubernetes",
         "python3": "python", "golang": "go"}
"""One program's other names."""
_IPV4 = re.compile(r"\d+\.\d+\.\d+\.\d+$")
_SAID = re.compile(r"version|release(?!\s+notes?\b)|(?<!\w)lts\b|(?<!\w)-v\b|(?<!\w)-V\b", re.I)
"""A text that speaks of versions: a word for one ("lsb_release", "24.04 LTS"), a flag asking for one; not a release's
notes, which tell what is in it ("Python 3.12 release notes: ...")."""


def _program(word: str) -> str:
    word = word.lower().rstrip(".:")
    return _SAME.get(word, word)


def _named_before(text: str, at: int) -> set[str]:
    """The program names before position ``at``: the nearest word past the small words between ("node -v ->"), and the
    word right before it where nothing parts them ("macOS Ventura 13.6")."""
    words = [(m.group(), m.end(), m.start()) for m in _WORD.finditer(text, 0, at)]
    out: set[str] = set()
    for i in range(len(words) - 1, max(-1, len(words) - 8), -1):
        word = words[i][0].lower().strip(".")
        if word in _PASS or word in _NOT_PROGRAMS or word.startswith("-") and len(word) <= 10 or "version" in word:
            continue
        out.add(_program(word))
        if i and text[words[i - 1][1]:words[i][2]].strip() == "" and (prev := words[i - 1][0].lower()) not in _PASS \
                and prev not in _NOT_PROGRAMS and "version" not in prev:
            out.add(_program(prev))
        break
    return out


@lru_cache(maxsize=65536)
def read(text: str) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]], bool]:
    """Program -> versions written dotted (or attached) in ``text``; program -> major versions written alone; and whether
    the text reads as one about versions (a word or a flag for one, "v" before a number, three parts, a build)."""
    dotted: dict[str, set[str]] = {}
    bare: dict[str, set[str]] = {}
    if not has_digit(text):
        return {}, {}, False
    strong = bool(_SAID.search(text))
    for m in _VERSION.finditer(text):
        if _IPV4.match(m.group(2)):
            continue
        strong = strong or bool(m.group(1) or m.group(2).count(".") >= 2 or m.group(3))
        for name in _named_before(text, m.start()):
            dotted.setdefault(name, set()).add(m.group(2))
    for m in _ATTACHED.finditer(text):
        dotted.setdefault(_program(m.group(1)), set()).add(m.group(2))
        strong = True
    for m in _BARE.finditer(text):
        for name in _named_before(text, m.start()):
            bare.setdefault(name, set()).add(m.group(1))
    return ({k: frozenset(v) for k, v in dotted.items()}, {k: frozenset(v) for k, v in bare.items()}, strong)


_WHERE = re.compile(r"^\s*\(([\w .-]+)\)|(?:[\w.-]+@)?([\w.-]+)(?::[~\w/.-]*)?\s?\$(?=\s)")
"""Where a reading was taken: a shell prompt's host ("ci-runner-03:~$", "ci@build-01:~$") or a tag before the text
("(etl) $ python -V")."""


def _elsewhere(claim: str, entry: str) -> bool:
    """Both texts say where they were read, and not at one place: two machines' versions, not one moving."""
    here, there = ({m.group(1) or m.group(2) for m in _WHERE.finditer(t)} - {None} for t in (claim, entry))
    return bool(here) and bool(there) and not here & there


def _head(a: str, b: str) -> bool:
    """One version is the other or its head ("15" of "15.4", "3.11" of "3.11.8")."""
    x, y = a.split("."), b.split(".")
    n = min(len(x), len(y))
    return x[:n] == y[:n]


def _pairs(claim: str, entry: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Versions of each program both texts name, one of them dotted."""
    (cd, cb, cs), (ed, eb, es) = read(claim), read(entry)
    if not (cd or ed) or not (cs or es) or _elsewhere(claim, entry):
        return []
    out = []
    for name in (cd.keys() | ed.keys()):
        mine = cd.get(name) or cb.get(name)
        theirs = ed.get(name) or eb.get(name)
        if mine and theirs and (name in cd or name in ed) and len(name) >= 2:
            out.append((mine, theirs))
    return out


def compare(claim: str, entry: str) -> bool | None:
    """Both texts give versions of programs they both name: True where each is another version (the version moved),
    False where the claim's are the entry's again (or their heads), None otherwise (no such program, or a diff's old and
    new version beside each other)."""
    pairs = _pairs(claim, entry)
    if not pairs:
        return None
    if all(all(any(_head(a, b) for b in theirs) for a in mine) for mine, theirs in pairs):
        return False
    if all(not any(_head(a, b) for a in mine for b in theirs) for mine, theirs in pairs):
        return True
    return None


def pairs_from(claim: str) -> bool:
    """The claim may give a version another text pairs with: one dotted, or a major alone in a text about versions
    ("-v", "version") (read before each candidate is asked, ~55 a write)."""
    dotted, bare, strong = read(claim)
    return bool(dotted or bare and strong)


def shared(claim: str, entry: str) -> bool:
    """Both texts give a version of one program: they are about it."""
    return bool(_pairs(claim, entry))


def asked(text: str) -> bool:
    """The text reads a version out ("node -v", "SELECT version();", "Resolved version 20.11.1"): all it says may be
    the version."""
    return bool(_SAID.search(text))
