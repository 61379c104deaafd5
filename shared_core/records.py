"""Structured records (a tool's JSON, ``key=value`` lines): compared field by field, not word by word.

Why: a tool that reads a record again rarely returns the same fields. An order read once with its
tracking number and once with its ETA, or an appointment read once with its clinician and once with its
reminder flag, shares no words beyond the record's own. So a bag-of-values comparison takes each
re-read for a new value. A record changes when a field both readings hold has another value. A field
only one of them holds is more detail about the same state.
"""

from __future__ import annotations

import re
from functools import lru_cache

from . import calls, lists, settings, slots, spoken, units
from .cuescan import Prefiltered, has_digit
from .grounding import names_every_value
from .written import plain_number

_FIELD = Prefiltered(re.compile(
    r"[\"']?(?P<key>[A-Za-z_][A-Za-z0-9_.]{0,40})[\"']?\s*(?::\s*(?![A-Za-z_][\w.]*=(?!=))|(?:=|->|→)\s*)"
    r"(?P<value>\"(?:[^\"\\]|\\.)*\"|'[^']*'|\[[^\]]*\]|[^,;{}\[\]\s\"')]+(?: (?!->|→)[^,;{}\[\]\s\"'=:)]+)*?)"
    r"(?=\s*(?:[,;})\]]|$|->|→|\s+[\"']?[A-Za-z_][\w.]*[\"']?\s*(?:[:=]|->|→))|\s*$|\s+#\s|\s+\()"))
"""One ``key: value`` / ``key=value`` / ``"key": "value"`` field; a bare value runs to the next field, the call's
closing parenthesis, its output arrow ("setpoint_c=19 -> ok" holds 19), a code comment or a note in parentheses
("checkout_v2 = true  # enabled by ops", "checkout_v2 = false (flags.toml)" hold true and false). A label's colon before
a field ("ledger_sync: invoice_id=INV-30418 ...") holds no value: the tool's name, the field its record's first."""
_SPACES = re.compile(r"\s+")

_READ_AT = re.compile(r"(?:^|[._])(?:updated|synced|cached|fetched|retrieved|checked|read|seen|ts|timestamp|as_of|"
                      r"request_id|trace_id|etag|snapshot)(?:_at|_on)?$")
"""When the reading was taken, not what it says: two readings of one state differ there."""

SAME_AT = 2
"""Shared fields, all equal, from which two readings are one state: one shared field is usually the id."""


def fields(text: str) -> dict[str, str]:
    """The record's fields, keys and values lower-cased, values unquoted and spaced alike (``1250.00``
    stays as written; ``120.0`` is ``120``). Empty for prose with fewer than two fields."""
    out = _fields(text)
    return out if len(out) >= 2 else {}


@lru_cache(maxsize=65536)
def _fields(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _FIELD.finditer(text):
        out.setdefault(m.group("key").lower(), _value(m.group("value")))
    return out


def _value(raw: str) -> str:
    """A field's value as compared: unquoted, lower-cased, spaced alike, a number written plainly."""
    return plain_number(_SPACES.sub(" ", raw.strip().strip("\"'").strip().lower()))


_RELABELLED = frozenset("updated changed amended corrected revised new now current latest".split())
"""Words a label ends with to say its value moved ("delivery address updated: 4 Canal St"): no key of its own."""
_NOTE = re.compile(r"^\s*(?:(?:[A-Za-z]|#\w)[\w-]*\s+){0,3}?([A-Za-z][\w-]{1,30})"
                   rf"(?:\s+(?:{'|'.join(_RELABELLED)}))?:\s*([^:;\n]{{1,60}}?)[.!]?\s*$", re.I)


@lru_cache(maxsize=65536)
def note(text: str) -> dict[str, str]:
    """An agent's one-field note ("Default branch: master."): its label's last word and its value, compared with
    a record holding that field ("HEAD branch: main"); empty for anything else."""
    m = _NOTE.match(text)
    return {m.group(1).lower(): _value(m.group(2))} if m else {}


_SAID = re.compile(r"^\s*(?:(?:my|our|the|your|his|her|their)\s+)?(?:[\w-]+\s+){0,2}?([A-Za-z][\w-]{1,30})\s+(?:is|are)\s+"
                   r"(?:now\s+)?([^:;,()\n]{1,60}?)[.!]?\s*$", re.I)


@lru_cache(maxsize=65536)
def said(text: str) -> dict[str, str]:
    """A one-clause copula sentence as the field a note would write ("Our plumber is Dave" is "Plumber: Dave"):
    compared with an agent's note on that label, so a note naming another value changes it and one naming the
    same value restates it, however each is worded; empty for anything else."""
    m = _SAID.match(text)
    return {m.group(1).lower(): _value(m.group(2))} if m else {}


_LISTS = re.compile(r"notes?|reminders?|to-?dos?|tasks?|ideas?|tips?|fyi|updates?|info|memo|facts?|remember|ps|nb|lists?|items?|"
                    r"important|also|edit|re|subject|question|answer|summary|context|comment|reply|message", re.I)
"""Labels of a note that holds any text ("Reminder: buy milk", "Note: call mum"), not one field's value."""


def _keyed(claim: str, entry: str) -> str | None:
    """The label two one-field notes share when it is a key's name ("timezone: UTC" and "timezone: CET"), not a
    list's heading whose notes hold any text ("Reminder: buy milk", "Note: call mum")."""
    a, b = note(claim), note(entry)
    label = next(iter(a), None)
    return label if label is not None and a.keys() == b.keys() and not _LISTS.fullmatch(label) else None


def one_state(claim: str, entry: str) -> bool:
    """Two notes on one key whose attribute holds a single value ("Status: open" and "Status: closed"): a
    key-value caller's two values of one key, so one thing, however little else they share. A key of several
    values ("Pet: dog", "Pet: cat", or a plural no attribute family names: "Groceries: eggs") is two items."""
    label = _keyed(claim, entry)
    if label is None:
        return False
    hit = slots.family(label)
    return not hit[1] if hit is not None else not (label.endswith("s") and not label.endswith(("ss", "us", "is")))


_WORDS = re.compile(r"[a-z0-9]+")


_MOVED = re.compile(r"→|->\s*\S+\s*$|^[-+]|\b(?:changed?s?|amended|rescheduled|replaced|moved|transferred|removed|deleted|"
                    r"retimed|updated|cancell?ed|closed|merged|paid|completed?|added|created|assigned|new_\w+|old_\w+|"
                    r"previous(?:ly)?|was|(?-i:POST|PUT|PATCH|DELETE))\b", re.I | re.M)
"""A record that reports a move ("status changed: open -> resolved", a diff's "+" line, "todo.complete(18)", a request
that writes), not a state."""
_CALL = re.compile(r"^\S+\(.*?\)\s*->|^\s*(?:[\w.@~:/-]+\s*)?[$>]\s+[^\n]*?\s(?:->|→)|^\s*(?:GET|HEAD)\s+/\S*\s*(?:->|→)",
                   re.S)
"""A call and the arrow to what it returned: ``get_user(42) ->``, a shell's ``ci-2 $ nvm current ->`` or a read
request's ``GET /orders/66120 ->`` (the arrow is the output's, no move)."""
_OUTPUT = re.compile(r"^\s*(?:[${\[]|[\w.@~:-]+\s*[$>#]\s)")
"""A record, or a shell's or client's prompt ("psql> SHOW ...", "web-2 $ uptime"): output, read for what it holds."""


def confirms(claim: str, entry: str, keys: frozenset[str], people: frozenset[str] = frozenset(),
             recap: bool = False) -> bool:
    """A tool's reading, or a recorder's recap, that holds the entry's value again (the labelling notes: a tool call
    that confirms a stored value is a repeat, however many fields it adds; so is a recap). Two records: the fields both
    hold agree (``compare``). Else it names every value the entry names (its thing's key aside,
    ``grounding.names_every_value``) and reports no move (a call's own arrow aside); a sentence ("Calendar shows ...",
    "search is running r-2210 in prod.") names no value the entry lacks either, or it tells more than it confirms; a
    recorder's ``recap`` (``decision._RECORDERS``) need only name no value the entry lacks. The name of the person both
    are about (``people``) is no value the entry holds ("Martin Mark ..." and "Martin Mark ...")."""
    if fields(claim) and fields(entry):
        return compare(claim, entry) is False       # (None: no field both hold says, the claim's are news)
    if fields(claim) and note(entry) and (moved := compare(claim, entry)) is not None:
        return not moved                            # a record against a one-field note: the field both hold decides
    call = _CALL.match(claim)
    if _MOVED.search(_unstamped(claim[:call.end() - 2] + claim[call.end():] if call else claim)):
        return False
    record = bool(call or _OUTPUT.match(claim) or fields(claim))
    if recap and not record:
        return names_every_value(entry, claim, keys | people)
    return names_every_value(claim, entry, keys | people) and (record or names_every_value(entry, claim, keys))


def _unstamped(text: str) -> str:
    """The text without the keys of its fields that say when it was read (``_READ_AT``: "updated": "day 1",
    last_updated=...): no move. Only a quoted or joined key is a field's; a label's own word ("address updated: 4 Canal
    St") still reports one."""
    cuts = [m.span("key") for m in _FIELD.finditer(text) if _READ_AT.search(key := m.group("key").lower())
            and ("_" in key or "." in key or text[m.start("key") - 1:m.start("key")] in ("'", '"'))]
    for start, end in reversed(cuts):
        text = text[:start] + text[end:]
    return text


def one_key(claim: str, entry: str) -> bool:
    """``one_state`` with the whole label alike ("thermostat: 21C" after "thermostat: 19C"), not only its last word
    ("thermostat bedroom setpoint" is no "thermostat living_room setpoint"): a caller's one key, its value moved."""
    return one_state(claim, entry) and _label(claim) == _label(entry)


def _label(text: str) -> tuple[str, ...]:
    """The words before a text's first colon: a note's label, where the text is a note."""
    return tuple(_WORDS.findall(text.split(":", 1)[0].lower()))


def _names(attribute: str, key: str) -> bool:
    """The slot's attribute names the field: ``tier`` for ``ba_tier``, ``mot_expiry`` for ``expiry``."""
    return key == attribute or attribute.endswith("_" + key) or key.endswith("_" + attribute)


_BRACKETED = re.compile(r"\s*\([^)]*\)?\s*$")


def _suffixed(noted: dict[str, str], record: dict[str, str]) -> dict[str, str]:
    """A one-field note's label read as the one key of the record it ends ("Default branch: master" names
    ``default_branch``, the note keeping only its label's last word)."""
    if len(noted) != 1 or (label := next(iter(noted))) in record:
        return noted
    keys = [k for k in record if k.endswith(("_" + label, "." + label))]     # (its note in brackets no part of it)
    return {keys[0]: _BRACKETED.sub("", noted[label])} if len(keys) == 1 else noted


def compare(claim: str, entry: str, about: str | None = None) -> bool | None:
    """True when a field both records hold has another value (the record moved on), False when at least
    ``SAME_AT`` shared fields all agree (the same state read again, whatever else either adds), None when
    the two are not comparable as records. ``about``: the caller's attribute (a slot ``reservation.time``):
    when both records hold that field, it alone decides (the reservation's status may move; its time
    is what the slot holds)."""
    if lists.relisted(claim, entry):
        return False                # one list read again, however each labels it ("User's languages: ...")
    a, b = fields(claim), fields(entry)
    # a one-field note against a record, whose one field then decides; two notes only on one key's label
    # ("Reminder: buy milk" is no record that "Reminder: call mum" changes; "Pet: cat" changes "Pet: dog")
    noted = bool(note(claim)) != bool(note(entry)) and not (a and b)
    if not (a or b) and _keyed(claim, entry):
        a, b, noted = note(claim), note(entry), True
    elif noted:
        a, b = a or note(claim) or _fields(claim) or said(claim), b or note(entry) or _fields(entry) or said(entry)
        a, b = _suffixed(a, b), _suffixed(b, a)
    if bool(a) != bool(b):          # a record against a sentence: "story_points=5" against "3 story points"
        a, b = a or spoken.read(claim, entry, b, _IDENTITY), b or spoken.read(entry, claim, a, _IDENTITY)
        a, b, noted = spoken.leading(a, b), spoken.leading(b, a), True
    shared = {k for k in a.keys() & b.keys() if not _READ_AT.search(k)}
    if not shared:
        return settings.compare(_fields(claim), _fields(entry))     # a flag read behind its file's or call's label
    named = [k for k in shared if about is not None and _names(about.lower(), k)]
    if len(named) == 1:
        return settings.said(named[0], a[named[0]]) != settings.said(named[0], b[named[0]])
    if any(settings.said(k, a[k]) != settings.said(k, b[k]) for k in shared):
        return True
    return False if len(shared) >= (1 if noted else SAME_AT) else None


def moved_field(claim: str, entry: str) -> bool:
    """A tool's record and a text naming one of its fields by all its key's words, two or more ("default branch is
    master", "Keyboard layout: UK English"), with another value: that field read again, moved. Stricter than ``compare``,
    whose counted numbers and one-word labels may name another thing ("8 tables" beside a booking's ``table``)."""
    a, b = fields(claim), fields(entry)
    if bool(a) == bool(b):
        return False
    record, text, read = (a, entry, claim) if a else (b, claim, entry)
    said = spoken.stated(text, read, record)
    if not said and (noted := note(text)):
        label = set(_label(text))
        keys = [k for k in record if len(words := _WORDS.findall(k)) > 1 and set(words) <= label]
        said = {keys[0]: _BRACKETED.sub("", next(iter(noted.values())))} if len(keys) == 1 else {}
    return any(settings.said(k, v) != settings.said(k, record[k]) for k, v in said.items())


_OWN_ID = r"(?:^|[._])(?:id|uuid|ref)$"
"""A field that is the record's own id (``order_id``, ``uuid``, ``booking.ref``), not its owner's (a repo, a customer)."""
_IDENTITY = re.compile(_OWN_ID + r"|(?:^|[._])sku$|^(?:host|hostname|flag|device|order|ticket|invoice|reservation|"
                       r"booking|confirmation|pnr|issue|workspace|tenant|repo|repository|project|customer|client|added|member)$")
"""A field that names which thing a record is (its id, host, flag), not a state of that thing."""


_CREATED = Prefiltered(re.compile(r"^\W*(?:[A-Za-z][\w-]*\s+){0,3}?(?:created|added|set up)\s*:", re.I))
"""A tool's note of a thing it just made ("Alarm created: Sat/Sun 08:00"); not "new number: ..." (a user's new value),
nor "booked" or "scheduled" (a booking moved is booked again)."""


@lru_cache(maxsize=65536)
def created(text: str) -> bool:
    """The text reports a thing made: another thing than any held before it, never one of them changing. Cached: asked
    of one claim against each of its candidates."""
    return bool(_CREATED.search(text))


def other(claim: str, entry: str) -> bool:
    """Two records of different things: a field naming the thing (``_IDENTITY``) that both hold differs
    ("host": "pg-replica" is not the record of "host": "pg-main", whatever else they share), or that a sentence names
    ("repo acme/api", ``spoken``); two notes whose labels name two keys of one kind (``_other_labels``); two settings."""
    a, b = fields(claim), fields(entry)
    return bool(a and b) and (any(_name(a[k]) != _name(b[k]) for k in a.keys() & b.keys() if _IDENTITY.search(k))
                              or _led_apart(a, b)) or spoken.apart(claim, entry, a, b, _IDENTITY) \
        or _other_labels(claim, entry) or _other_keys(claim, entry) or _unheld_key(claim, entry, b) \
        or settings.other(_fields(claim), _fields(entry))


_LEADER = re.compile(r"(?:^|_)(?:no|num|number|tag|code)$|^(?:pr|mr|pull_request|card|line|patient|employee|emp|student|"
                     r"asset|rx|prescription|subscription|listing|shipment|parcel|package|item|product|case|claim|job|build|"
                     r"pipeline|vm|instance|server|node|pod|vehicle|unit|plot|kiln|room|locker)$")
"""A record's first field naming a thing of many (``{"pr": 4471, ...}``): as a first field it says which record it is,
where further down it may be a value that moves (a booking's room, a payment's card)."""
_MEASURED = re.compile(r"\d{4}-\d\d-\d\d|\d:\d\d|\d\.\d")
"""A date, a time or an amount: a value that moves, never an id."""


def _led_apart(a: dict[str, str], b: dict[str, str]) -> bool:
    """Both records open with one such field (``_LEADER``), naming two ids ({"pr": 4471} and {"pr": 4480}; digits in
    both, no date, time or amount), and no id field is shared alike (a repo or a customer both share is their owner's):
    two things' records."""
    key = next(iter(a))
    if key != next(iter(b)) or not _LEADER.search(key) or _name(a[key]) == _name(b[key]):
        return False
    if not all(has_digit(v) and not _MEASURED.search(v) for v in (a[key], b[key])):
        return False
    return not any(a[k] == b[k] for k in a.keys() & b.keys() if re.search(_OWN_ID, k))


def _unheld_key(claim: str, entry: str, held: dict[str, str]) -> bool:
    """A sentence setting a key ("db host is 10.0.3.14") that no variable of an environment listing names
    (``API_BASE_URL=...``, ``LOG_LEVEL=...``): another variable of that file, none of those it lists."""
    if len(held) < 2 or not _ENV.search(entry) or not (key := said(claim)):
        return False
    return {w for k in held for w in _KEY_PARTS.findall(k)}.isdisjoint(_KEY_PARTS.findall(next(iter(key))))


_ENV = re.compile(r"^[A-Z][A-Z0-9]*_[A-Z0-9_]+=", re.M)
_KEY_PARTS = re.compile(r"[a-z0-9]+")


def _other_keys(claim: str, entry: str) -> bool:
    """One command writing other keys ("settings.update {"notifications": "email"}" after "settings.update {"theme":
    "dark"}"): other settings, none of them changed."""
    a, b = claim.split(None, 1), entry.split(None, 1)
    if not (len(a) == len(b) == 2 and a[0] == b[0] and "{" in a[1] and "{" in b[1]):
        return False
    written, held = _fields(a[1]), _fields(b[1])
    return bool(written) and bool(held) and written.keys().isdisjoint(held)


_KEYED = re.compile(r"^\s*[A-Za-z][\w /'.-]{2,60}?\s*:\s+\S")
"""A text that opens with a label: a few words, then a colon and a value."""


@lru_cache(maxsize=65536)
def _key_words(text: str) -> tuple[str, ...]:
    """The words of a note's label ("printer toner black: 15%"), or none for text that opens with no label."""
    words = _label(text) if _KEYED.match(text) else ()
    while words and words[-1] in _RELABELLED:
        words = words[:-1]
    return words if len(words) <= 6 else ()


_ENDS = {frozenset(p.split("/")) for p in "in/out start/end from/to open/close opening/closing arrival/departure min/max "
         "pickup/dropoff upload/download inbound/outbound first/last".split()}
"""Two words that name the two ends of one thing: labels that differ in them are two keys."""


def _other_labels(claim: str, entry: str) -> bool:
    """Two notes whose labels of three words or more differ in one word ("printer toner black" and "... cyan", "disk
    usage /dev/sda1" and "... /dev/sdb1"), or where one label runs on past the other ("GitHub API rate limit" and
    "... remaining"): two keys of one kind, unless both state one amount ("Parcel 55-KX: 2500 g" is the weight of
    "Parcel 55-KX weight: 2.5 kg"). Two words may be one key said two ways ("notification preference" and
    "notification settings"), so shorter labels are not read."""
    a, b = _key_words(claim), _key_words(entry)
    if 1 <= len(a) == len(b) <= 2 and sum(x != y for x, y in zip(a, b)) == 1 and frozenset(a) ^ frozenset(b) in _ENDS:
        return True             # "check in" and "check out", "arrival" and "departure": two ends of one thing, two keys
    if len(a) < 3 or len(b) < 3:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = sorted((a, b), key=len)
    if len(short) <= 3 and has_digit(short[-1]):
        return False            # "order A-55812: address updated -> ..." is of the order its "ship-to" label names
    return long[:len(short)] == short and not units.same_amount(claim, entry)   # "Parcel 55-KX: 2500 g" is the weight


def _name(value: str) -> str:
    """An identity field's value without what a call's output appends ("hallway ->" is "hallway")."""
    return value.split(" ->")[0].split(" →")[0].strip()
