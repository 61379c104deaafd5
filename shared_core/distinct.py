"""Distinct things: the candidates a claim cannot be about, whatever its words share with them.

Why before linking: another order, person or record worded alike ("Order #1049 ships to warehouse 49" after "Order #1000
ships to warehouse 0") is the commonest way a memory loses a true fact, by revising it; so what tells two things apart
(their ids, a person each names, a word before one noun, another call or record, a relative's thing) is read first, and
only the candidates left are weighed by the linker. A thing's own id held in the other text ("flight KL1009" of the
booking that lists it) is one thing, told by two of its ids.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import apposition, calls, change, contrast, kin, linking, medicines, records, slots, tense, topics
from .cues import CUES
from .grounding import untagged
from .tokens import NAME, identifiers

_THE = re.compile(r"^\W*the\s+(?:[a-z][\w-]*\s+)?([a-z][\w-]*)\s+(?:is|are|was|were|has|have|had|runs?|uses?|gets?|needs?|"
                  r"costs?|goes|takes)\b", re.I)
"""A text that opens on a definite noun phrase and its verb ("The API service runs on ...", "The monstera gets watered
..."): the thing it is about, its head noun named first."""

_ID_LIKE = re.compile(r"[#_]|[a-z]-?\d|^\d+(?:-\d+)*$")
"""A subject that names one thing by an id (``order#1000``, ``a-88213``, ``sup-4102``, a marketplace's ``113-8820315``); a
dose or a measure the subject guesser picked up ("20mg") is not one."""


@lru_cache(maxsize=65536)
def id_like(subject: str) -> bool:
    """``_ID_LIKE`` of a subject, cached: asked of both sides of every pair, of few subjects."""
    return _ID_LIKE.search(subject) is not None


_MIXED_ID = re.compile(r"(?=[a-z-]*\d)(?=[\d-]*[a-z])[a-z\d-]{4,}")


def _held_id(subject: str, text: str) -> bool:
    """The subject's id, letters and digits both ("kl1009", not "1009": a bare number may be any count), is in ``text``."""
    key = subject.rsplit("#", 1)[-1]
    return _MIXED_ID.fullmatch(key) is not None and re.search(rf"(?<![\w-]){re.escape(key)}(?![\w-])", text.lower()) is not None


def things(mine: slots.Slot, theirs: slots.Slot, claim: str, entry: str) -> bool:
    """Another order, item or person: subjects that both carry an id (digits, ``#``, a key path) or an explicit slot,
    or both name a person ("Ana") the other text does not mention, and differ; or one kind of thing told apart by a
    word before its noun (``contrast``: "the York office"). A guessed subject the other text holds as a value, and stray
    words the subject guesser picked up ("20mg"), are left to the linker as evidence. One explicit slot on both sides is
    one thing, whatever the texts' subjects ("Tom passed away" under the key ``pet``): a key holds one value."""
    if mine.explicit is not None and mine.explicit == theirs.explicit:
        return False
    claim, entry = untagged(claim), untagged(entry)     # "[vet] Mochi (cat) weight": the log's tag names no thing
    if calls.other(claim, entry) or calls.adds_another(claim, entry) or records.other(claim, entry) \
            or _named_apart(claim, entry) or _kinds_apart(claim, entry) or _names_apart(claim, entry) \
            or _siblings(claim, entry) or _asked_apart(claim, entry) or records.created(claim) \
            or contrast.apart(claim, entry) or _envs_apart(claim, entry) or _ids_apart(claim, entry) \
            or apposition.apart(claim, entry) or medicines.apart(claim, entry) \
            or (tense.reported(claim) and tense.reported(entry) and not linking.restated(claim, entry)):
        return True
    if any(s.subject is None and not slots.pronoun(t) and kin.about_relative(o, t) for s, t, o in ((mine, claim, entry),
                                                                                          (theirs, entry, claim))) \
            and not (linking.names_thing(claim, entry) or _one_value(mine, theirs, claim, entry)):  # ("Tesla Model 3
        # still going strong" names the wife's car, "piano got shifted to thursdays" her piano lessons)
        return True         # "my partner is a celtics fan" is not about "warriors fan since the we believe team"
    if (taste := slots.family(claim)) and taste[0] in _TASTES and topics.apart(claim, entry):
        return True         # "beverage preference ..." is not about "Movies I dislike: ..."
    if mine.attribute != theirs.attribute and all(s.attribute.endswith("_id") and s.attribute[:-3] not in slots.STOP
                                                  for s in (mine, theirs)):
        return True         # "garage keypad code is 0921" is not "front gate code is 4417": two codes, each of its lock
    if _reports_of_held(mine, theirs, claim, entry):
        return True         # "hugo reports to ines" after "my line manager is Hugo": Hugo's own manager
    if slots.same_subject(mine, theirs):
        return False
    if ("user" in (mine.subject, theirs.subject) or _users(theirs, entry) or _users(mine, claim)) \
            and (kin.of_relative(claim, entry) or kin.of_relative(entry, claim)) and not kin.named_in(claim, entry):
        return True         # "my son is 5" is not about "I'm 34": the speaker and someone of theirs
    if mine.attribute == theirs.attribute and mine.attribute in change.PERSON_VALUED \
            and (_holds(theirs, mine) and not _gone(mine, claim) or _holds(mine, theirs) and not _gone(theirs, entry)):
        return True         # "Priya's manager is Tom" after "my manager is Priya": the manager's own manager
    if _the_apart(claim, entry):
        return True         # "the data pipeline is still on 3.10" is not "the API service runs on 3.12"
    strong = [s.subject for s in (mine, theirs) if s.subject and (s.explicit or id_like(s.subject))]
    if len(strong) == 2:        # unless one's own id is in the other record ("flight KL1009" of booking RT4WZN's)
        return not any(s.explicit is None and _held_id(s.subject, t) for s, t in ((mine, entry), (theirs, claim)))
    a, b = (linking.person_words(s.subject or "") for s in (mine, theirs))
    a, b = a - b, b - a         # the words that tell them apart: "Project Borealis" is not "Project Atlas"
    return bool(a and b) and not (a & linking.specific(entry) or b & linking.specific(claim))



_NAMER = re.compile(r"(?=[a-z_-]*\d)(?=[\d_-]*[a-z])[a-z\d_-]{2,}|[a-z_]+(?:\.[a-z_]+)+")
"""A word that names one thing of many: letters and digits ("db-1", "a-1001") or a key path ("config.timeout")."""
_OF = frozenset("on of for at in from".split())
"""Words before the name of the thing a sentence is of ("disk usage on db-1")."""


def _named_apart(claim: str, entry: str) -> bool:
    """One sentence, word for word, with the thing it names swapped and a value beside ("disk usage on db-2 is 40%" after
    "... db-1 is 71%", "config.retries = 3" after "config.timeout = 30"): another thing's value. (The name alone swapped
    may be the value: "my locker is L-2" after "L-1"; so may a name the sentence does not say a thing of: "my flight is
    BA119 at 7:30" after "... BA117 at 6:30" is the flight rebooked.)"""
    said = claim.lower()
    a, b = said.split(), entry.lower().split()
    if len(a) != len(b) or not (_NAMER.search(said) or said.startswith("$")):
        return False
    swapped = [(i, x.strip(".,;:!?'\""), y.strip(".,;:!?'\"")) for i, (x, y) in enumerate(zip(a, b)) if x != y]
    if len(swapped) == 1 and _kind_named(said, a, *swapped[0]):
        return True
    named = [i for i, x, y in swapped if _NAMER.fullmatch(x) and _NAMER.fullmatch(y)
             and (a[i - 1] in _OF if i else "." in x)]     # "on db-1", a key path leading ("config.timeout = 30")
    return len(named) == 1 and len(swapped) == 2


_KINDS = slots.ID_NOUNS | {"user", "host", "member"}
"""Nouns an id follows as the name of one thing of that kind ("user asha.k", "order A-1"): the id says which, no value."""


def _kind_named(said: str, words: list[str], i: int, x: str, y: str) -> bool:
    """The one word swapped is an id naming which thing: after its kind's noun ("user ben.w added to group prod-admins"
    after "user asha.k ..."), or an argument of a shell command, on its first line ("$ gh pr view 490 --json state"
    after "... 482 ..."; the lines after it are the output)."""
    ids = all(_NAMER.fullmatch(w) or w.isdigit() and len(w) >= 2 for w in (x, y))
    command = words[0] == "$" and i < len(said.split("\n", 1)[0].split())
    return ids and i > 0 and (words[i - 1] in _KINDS or command)


@lru_cache(maxsize=65536)
def _head(text: str) -> str | None:
    """The head noun a text opens on (``_THE``), lower-cased, cached: asked of the claim once per candidate."""
    return m.group(1).lower() if (m := _THE.match(text)) else None


_ENV = re.compile(r"\b(?:(prod|production|staging)|(?:in|on|to|env[=:]\s*|--env[= ])\s*(?:the\s+)?(dev|qa|uat|sandbox|"
                  r"stage|stg|preprod|pre-prod|canary)|(dev|qa|uat|test|sandbox|preprod|canary)\s+(?:env|environment|cluster|"
                  r"project|workspace|tenant|stack))\b", re.I)
"""A deployment's environment named: production and staging wherever said, the others where a preposition, a flag or
the word environment marks them ("in dev", "--env qa", "test environment"): "dev" alone may be a person, "test" a test."""
_ENV_NAMES = {"production": "prod", "stage": "staging", "stg": "staging", "pre-prod": "preprod"}


@lru_cache(maxsize=65536)
def _envs(text: str) -> frozenset[str]:
    found = (next(filter(None, m.groups())).lower() for m in _ENV.finditer(text))
    return frozenset(_ENV_NAMES.get(e, e) for e in found)


def _envs_apart(claim: str, entry: str) -> bool:
    """Each text says one environment, another one ("checkout_v3 is ON in staging", "... ON in dev"; ``env=prod`` and
    ``env=staging``): one setting in two environments is two settings, each with its own value. A text naming both
    ("promoted from staging to prod") is about both."""
    a, b = _envs(claim), _envs(entry)
    return len(a) == 1 and len(b) == 1 and a != b


def _the_apart(claim: str, entry: str) -> bool:
    """Both texts open on "the <noun>" (one or two words, then "is", "has", "runs", ...) and the nouns differ, neither
    named in the other text: two things (a pipeline and a service, a printer and a scanner), each with its own values,
    however alike the rest reads."""
    a, b = _head(claim), _head(entry)
    if a is None or b is None or a == b:
        return False
    return not re.search(rf"\b{a}\b", entry, re.I) and not re.search(rf"\b{b}\b", claim, re.I)


_DOTTED = re.compile(r"(?<![\w@.:/-])([a-z_][\w-]*(?:\.[\w-]+)+)(?![\w.-]*[@(])", re.I)
"""A dotted name (a host, a file, a resource's address): "api.kestrel.io", "aws_db_instance.main", "requirements.txt";
not a call ("calendar.get(...)") nor an email address's."""
_DIGITS = re.compile(r"\d+")
_VERSION = re.compile(r"v?\d[\w-]*", re.I)
_METHODS = frozenset("get set update read write list create delete remove add cancel complete transfer put post patch "
                     "fetch show view search query rotate sync run send start stop open close status refresh reload describe "
                     "info check inspect current ping health stats poll lookup".split())
"""The verb of a tool's call said without its brackets ("settings.get theme"): another call on one thing."""
_EXTENSIONS = frozenset("yaml yml toml json ini cfg conf txt md py js ts csv env lock xml html log".split())


@lru_cache(maxsize=65536)
def _dotted(text: str) -> str | None:
    """The dotted name a text opens on, among its first three words (a shell prompt and options aside: "$ dig +short
    www.kestrel.io") and before any "=": the thing it is of. Later a name is a value ("the VPN gateway moves to
    vpn-eu2.corp.example.com", ``instance_class = "db.t3.large"``)."""
    words = [w for w in text.split("=", 1)[0].split() if w != "$" and not w.startswith(("-", "+"))][:3]
    m = _DOTTED.search(" ".join(words))
    return m.group(1).lower().rstrip(".-") if m else None


_VERB = re.compile(r"\s(?:is|are|was|were|has|have|lives|runs|holds|works|uses|departs|leaves|opens|closes|costs|meets|starts|"
                   r"serves|points|routes|resolves|forwards|listens|expires|renews|reports|triggers|requires|parses|wears)\s"
                   r"|:\s")
"""Where the words of what a sentence is about end ("Project Falcon launch date | is ...", "Reservation at Lupa | ...")."""
_JOINED = re.compile(r"[a-z][a-z\d]*(?:[-_][a-z\d]+)+")
"""A service's or a job's joined name ("api-gateway", "billing_worker"): no person's, so it may open the sentence alone."""
_CODED = re.compile(r"(?-i:[A-Z]{1,4})\d{1,3}|(?-i:[A-Z]{2,}(?:-[A-Z\d]+)+)|/{0,2}[A-Za-z][\w.-]*(?:/[\w.-]+)+")
"""A code or a path ("P1 tickets", "Q4 revenue", "WS-EAST", "/v2/export rate limit", "//nas01/photos"): a tier's, a
quarter's, a station's, an endpoint's, a share's name, no person's, so it too may open alone."""
_CALLED = re.compile(r"->|→|[{$]")
_RANKS = frozenset(slots.RANKS.split("|"))
_LABEL = re.compile(r"[A-Za-z][\w .-]*:\s")
_QUOTED = re.compile(r"(?<!\w)['\"‘“]([^'\"’”]{2,60})['\"’”](?!\w)")
"""A quoted title ("'Piranesi'", "“The Overstory”"): a book's, a film's, a ship's, no person's, so it too may open alone."""


@lru_cache(maxsize=65536)
def _front(text: str) -> tuple[tuple[str, ...], frozenset[str], tuple[str, ...], frozenset[str], frozenset[str]] | None:
    """The words before the sentence's first verb or label's colon, the same lower-cased, the names among them, the
    value words after it, and the words of quoted titles before it (cached: asked of both texts of every candidate pair,
    and most texts name nothing)."""
    m = _VERB.search(text)
    if m is None:
        return None
    quoted = frozenset(w for q in _QUOTED.findall(text[:m.start()]) for w in q.split())
    words = tuple(w.strip(".,;:!?()'\"‘’“”").removesuffix("'s") for w in text[:m.start()].split())
    said = not _CALLED.search(text[:m.start()])     # (a call's path is the call's: ``calls`` reads those)
    names = tuple(w for i, w in enumerate(words) if (i or w in quoted) and (NAME.fullmatch(w) or w in quoted)   # ('thumbnailer')
                  and w.lower() not in slots.STOP or _JOINED.fullmatch(w) or said and _CODED.fullmatch(w))
    return words, frozenset(w.lower() for w in words), names, \
        frozenset(re.findall(r"[a-z0-9][\w:.-]*[a-z0-9]|[a-z0-9]", text[m.end():].lower())) - slots.FILLER - slots.STOP, quoted


def _shape(code: str) -> str:
    return re.sub(r"\d", "9", re.sub(r"[a-z]", "a", code))


@lru_cache(maxsize=65536)
def _front_ids(text: str) -> frozenset[str]:
    """The shapes of the ids a text says before its first verb (a label's colon names no value), cached: asked of both
    texts of every candidate pair."""
    verb = next((m for m in _VERB.finditer(text) if m.group(0) != ": "), None)
    return frozenset() if verb is None else frozenset(_shape(i) for i in identifiers(text) if i in text[:verb.start()].lower())


def _ids_apart(claim: str, entry: str) -> bool:
    """A thing one text names by an id before its verb ("lot TQ-2291 has 14 vials", "asset tag LT-00918 is assigned
    ...") and the other by another id of the same shape, neither saying the other's ("TQ-2219", "LT-00981"): two lots,
    two laptops, however alike the ids (an id after the verb, "my flight is BA117", may be the value that moved)."""
    mine, theirs = identifiers(claim), identifiers(entry)
    if not mine or not theirs or mine & theirs:
        return False
    return any(_front_ids(text) & {_shape(i) for i in other} for text, other in ((claim, theirs), (entry, mine)))


def _names_apart(claim: str, entry: str) -> bool:
    """One kind of thing, each text naming its own by a name the other never says ("Project Heron launch date is ..."
    after "Project Falcon launch date is ...", "User's friend Ravi lives in Toronto" after "... Sam lives in Glasgow"),
    the words around the names alike but for the relative each is ("User's son Alfie wears ..." after "User's eldest
    daughter Maisie wears ..."): two things, not one renamed; with alike values too where the names are a thing's, not a
    person's ("SQLite db app/cache.db has journal_mode=wal" is not repeated by "... app/analytics.db has ..."). A bare name
    before the verb ("Tom is on call") may be the value a role holds; the kind's word must be said too."""
    if (label := _LABEL.match(claim)) and entry.startswith(label.group(0)):   # a label both lines open with ("crontab on
        claim, entry = claim[label.end():], entry[label.end():]     # host batch01: job rotate_logs runs at ..."): what follows
    a, b = _front(claim), _front(entry)
    if a is None or b is None or not a[2] or not b[2]:
        return False
    na, nb = [w for w in a[2] if w.lower() not in b[1]], [w for w in b[2] if w.lower() not in a[1]]
    rest = [w.lower() for w in a[0] if w not in na and w not in a[4]]
    joined = all(_JOINED.fullmatch(w) or _CODED.fullmatch(w) or w in a[4] | b[4] for w in na + nb)   # (a title, a code)
    theirs = [w.lower() for w in b[0] if w not in nb and w not in b[4]]
    plain = lambda ws: [w for w in ws if w not in kin.RELATIONS and w not in _RANKS]   # ("son Alfie", "eldest daughter Maisie")
    if not na or not nb or not (rest or joined) or plain(rest) != plain(theirs) or a[3] == b[3] and not joined:
        return False    # (alike values after two persons' names: a role given to another, "Dr. Shah is my GP now")
    said = lambda names, text: any(re.search(rf"\b{re.escape(n)}\b", text, re.I) for n in names)
    return not said(na, entry) and not said(nb, claim)


_KIND_NAMED = re.compile(r"(?=\b(repo(?:sitory)?|channel|user|bucket|service|cluster|namespace|queue|sku|flag|site|"
                         r"topic|bot|workspace|vm|instance|container|pod|deployment|warehouse|store)"
                         r"(?:\s+|(?:_id|_no)?\s*[=:]\s*)([#@]?[a-z0-9][\w./-]*[a-z0-9]))"
                         r"|(?<![\w#])([#@][a-z0-9][\w-]*[a-z0-9])\s+(channel)\b"      # (overlapping: "service user x")
                         r"|\b(item|folder|file|doc|sheet|playlist|board|project|album|note|service|job|pipeline|dashboard|queue|"
                         r"topic|bucket|repo|channel|workspace|cluster|database|table|report|campaign|list|calendar|group)"
                         r"\s+['\"‘“]([^'\"’”]{2,60})['\"’”]|^\W*()((?:[\w.-]+/)+[\w.-]+):\s"
                         r"|(?<![\w-])([a-z0-9]+-[a-z0-9-]*[a-z0-9])\s+(on-?call|rota)\b", re.I)
"""A thing named after (or, a channel, before) the noun of its kind, as words or a key ("repo acme/billing-ui", "IAM user
ci-runner", "store_id=2271", "#incidents-archive channel"), the name an identifier (a mark, a digit or a joined word) or
quoted ("folder 'Taxes 2023'", "service 'ledger'"); or a note labelled by a file's path ("api/.nvmrc: Node 18.19.0"); or
a rota by its joined name ("payments-primary on-call")."""


@lru_cache(maxsize=65536)
def _kind_names(text: str) -> dict[str, tuple[str, bool]]:
    """Each kind's first name in ``text``, and whether it was quoted (a plain word after the noun, "user name", names no
    thing). Cached, read only: asked of both sides of every pair, of few texts."""
    names: dict[str, tuple[str, bool]] = {}
    for m in _KIND_NAMED.finditer(text):
        kind, name = next((m.group(i) or "path", m.group(j)) for i, j in ((1, 2), (4, 3), (5, 6), (7, 8), (10, 9))
                          if m.group(i) is not None)
        if m.group(5) or re.search(r"[#@\d./_-]", name):
            names.setdefault(kind.lower().removesuffix("sitory"), (name.lower(), bool(m.group(5))))
    return names


def _kinds_apart(claim: str, entry: str) -> bool:
    """Two things of one kind, each named by its own identifier that the other text never says ("repo acme/billing-ui"
    after "repo acme/billing", "user ci-runner" after "user deploy-bot"), or by another quoted name: two repositories,
    two users, two folders."""
    a, b = _kind_names(claim), _kind_names(entry)
    said = lambda name, text: re.search(rf"(?<![\w/#@-]){re.escape(name)}(?![\w/-])", text, re.I) is not None
    return any(k in b and a[k] != b[k] and (a[k][1] and b[k][1] or not said(a[k][0], entry) and not said(b[k][0], claim))
               for k in a)


def _siblings(claim: str, entry: str) -> bool:
    """Each text is of a dotted name the other never gives, alike but for one worded part ("api.kestrel.io" and
    "www.kestrel.io", "aws_db_instance.main" and "...staging", "requirements.txt" and "requirements-dev.txt"): two hosts,
    resources or files, each with its own values. A part that is a number or a file's extension is a value changing
    ("v1.27" to "v1.29", "settings.yaml" to "settings.toml")."""
    a, b = _dotted(claim), _dotted(entry)
    if a is None or b is None or a == b:
        return False
    x, y = a.split("."), b.split(".")
    apart = [(p, q) for p, q in zip(x, y) if p != q]
    if len(x) != len(y) or len(apart) != 1 or b in claim.lower() or a in entry.lower():
        return False
    p, q = apart[0]
    return not any(_VERSION.fullmatch(w) or w in _EXTENSIONS or w in _METHODS for w in (p, q)) \
        and _DIGITS.sub("", p) != _DIGITS.sub("", q)       # "vpn-eu1" and "vpn-eu2": one host renumbered


_ASKED = re.compile(r"^(.*?)\s*(?:->|→|=>)\s*\S", re.S)
_WRITES = re.compile(r"\b(?:set|update|put|patch|post|change|move|assign|transfer|create|add|enable|disable|edit|write|rename|"
                     r"install|remove|delete)", re.I)
_PART = re.compile(r"[./:_-]+")


def _arrowed(text: str) -> bool:
    return "->" in text or "→" in text or "=>" in text


def _asked_apart(claim: str, entry: str) -> bool:
    """Two readings whose questions differ in one worded part ("dig api.kestrel.io" and "dig cdn.kestrel.io", "vault kv
    get secret/staging/stripe" and ".../prod/stripe", '--schedule "Backend Primary"' and '"Backend Secondary"'): two
    things read, each with its own answer. A write's argument is a value it sets ("set_mode eco"), not read here; a
    number, a version or a file's extension apart is a value moving."""
    if not (_arrowed(claim) and _arrowed(entry)):
        return False            # (most texts: no question and answer to compare)
    a, b = _ASKED.match(claim), _ASKED.match(entry)
    if a is None or b is None or _WRITES.search(a.group(1)) or _WRITES.search(b.group(1)):
        return False
    x, y = a.group(1).split(), b.group(1).split()
    apart = [(p, q) for p, q in zip(x, y) if p != q]
    if len(x) != len(y) or len(apart) != 1:
        return False
    p, q = (w.strip("\"'(),[]{}").lower() for w in apart[0])
    xs, ys = _PART.split(p), _PART.split(q)
    parts = [(s, t) for s, t in zip(xs, ys) if s != t]
    return len(xs) == len(ys) and len(parts) == 1 and all(w.isalpha() and w not in _EXTENSIONS and w not in _METHODS
                                                         for w in parts[0])


def _one_value(mine: slots.Slot, theirs: slots.Slot, claim: str, entry: str) -> bool:
    """Both name one value of one recognised attribute ("piano" of the instrument a daughter plays): the relative's
    thing, said again without naming them."""
    return mine.known and theirs.known and slots.same_attribute(mine, theirs) \
        and bool(mine.values & theirs.values & linking.specific(claim) & linking.specific(entry))


def _users(slot: slots.Slot, text: str) -> bool:
    """A thing the user holds, named by its id ("User rents plot 14B"): the user's, beside a relative's ("my dad's got
    plot 22") as the user's own attribute is."""
    return slot.subject is not None and id_like(slot.subject) and slots.USER.search(text) is not None


_TASTES = frozenset({"likes", "dislikes", "preference", "favourite", "music"})
"""The attribute families of a taste: a claim about one is told apart by its topic (``topics``)."""


def _gone(slot: slots.Slot, text: str) -> bool:
    """The subject's "'s" is "has" or "is" before a participle ("ellery's retired, dr kaur has taken me on"): the
    person held as the value has moved on, not a person whose own manager the text names."""
    return re.search(rf"\b{re.escape(slot.subject or '')}['’]s\s+(?:just\s+|now\s+)?(?:retired|left|gone|moved|quit|"
                     rf"resigned|stepped down|been|off|leaving|retiring)\b", text, re.I) is not None


def _holds(owner: slots.Slot, other: slots.Slot) -> bool:
    """``other``'s subject is a person ``owner`` holds as its value."""
    people = linking.person_words(other.subject or "")
    return bool(people) and people <= owner.values


_REPORTS = re.compile(r"\b([a-z][\w'-]*)(?:\s+([a-z][\w'-]*))?\s+(?:now\s+|will\s+|is\s+going\s+to\s+|to\s+)?"
                      r"(?:reports?|reporting|answers?)\s+(?:in)?to\b", re.I)


def _reports_of_held(mine: slots.Slot, theirs: slots.Slot, claim: str, entry: str) -> bool:
    """The person the entry holds ("my line manager is Hugo Ferreira") reports to someone ("hugo reports to ines", "HR:
    Carla Mendes will report to Annika Lund"), and the claim says nothing of the speaker's: Hugo's own manager, not
    another of the user's (the subject guesser names no subject for such a sentence, so ``same_subject`` cannot tell)."""
    if mine.subject is not None or theirs.attribute not in change.PERSON_VALUED \
            or slots.USER.search(claim) or CUES["first_person"].search(claim):
        return False
    held = linking.person_words(" ".join(theirs.values)) & theirs.values - _reporters(entry)    # (not "carla reports to
    return bool(_reporters(claim) & held)                                                       # pieter": hers again)


@lru_cache(maxsize=65536)
def _reporters(text: str) -> frozenset[str]:
    """The one or two words before "reports to", "will report to", "answers to": whose manager the text names (cached:
    asked of the claim and of each person-valued candidate)."""
    return frozenset(w.lower() for m in _REPORTS.finditer(text) for w in m.groups() if w)
