"""What a tool's output answers: the call it reads (``vetapp.get_patient("Luna")``, ``$ vault kv get
secret/stripe``), the function and first argument asked, and the id of the record it is about.

Why: the same call read again is the same record, whatever its answer says, and two calls that ask one function
about different things are two records (``config.get('retries')`` is not ``config.get('timeout')``); slot
inference names a tool's record by its id.
"""

from __future__ import annotations

import re
from functools import lru_cache

_JSON_ID = re.compile(r'"(?!(?:api|secret|access|private|public|ssh|license|licence|publishable|signing|encryption)_?key")'
                      r'(\w*?)_?(?:id|order|ticket|number|ref|sku|key)"\s*:\s*"?#?([\w-]*\d[\w-]*)"?', re.I)
"""A record's id field; a credential's key is its value, not its name ("api_key": "sk_live_...")."""
_TOOL_CALL = re.compile(r"^\s*[\w.]+\s*(?:\((?P<args>[^)]*)\))?\s*->\s*(?P<result>.*)$", re.S)
_ARG_ID = re.compile(r"(?<![\w-])[\"']?((?=[\w-]*\d)[\w-]{2,})[\"']?(?![\w/-])")


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d|$)")

PROMPT = re.compile(r"^\s*\$(?=\s)(?:\s+(?:cat|head|tail|less|more|watch|top|kill|touch|date|time|file)\b)?")
"""A shell prompt before a command: not a dollar sign (the price family's cue), nor a command's name an attribute's word
("$ cat .nvmrc" reads a file, no pet)."""
_CALL = re.compile(r"^\s*\$?\s*((?:[\w.]+\([^)]{0,80}\)|[\w./-]+(?:\s+[\w./=\"'-]+){0,6}))\s*->\s*\S")


def subject(text: str) -> str | None:
    """The id a tool's record is about: in its result, else among its arguments (not the function's name;
    a command's or a request's words after its first, ``GET /orders/A771``)."""
    call = _TOOL_CALL.match(text)
    command = _CALL.match(text) if call is None else None
    if command is not None and not re.search(r"[(./_$]", command.group(1)):
        command = None
    if call is None and command is None and not text.lstrip().startswith(("{", "[")):
        return None
    result = call.group("result") if call else text[command.end(1):].lstrip(" ->") if command else text
    result = re.sub(r"^\s*\d{3}\s+(?=[{\[])", "", result)       # an HTTP status before the body
    if result.lstrip().startswith(("{", "[")) and (j := _JSON_ID.search(result)):
        return j.group(2).lower()
    args = call.group("args") if call else command.group(1).split(None, 1)[1] if command and " " in command.group(1) else ""
    a = _ARG_ID.search((args or "").split(",")[0])      # the first argument names the record; later ones
    # are values (config.set("timeout", 60)); a date says when it was read ("account.get (cached 2025-01-02)")
    return a.group(1).lower() if a and not _DATE.match(a.group(1)) else None


@lru_cache(maxsize=65536)
def call(text: str) -> str | None:
    """The call a tool's output answers (``vetapp.get_patient("Luna")``, ``vault kv get secret/stripe``): the
    same call again reads the same record, so its answer is that record's new state."""
    m = _CALL.match(text)
    if m is None or not re.search(r"[(./_$]", text[:m.end(1)]):      # a command names a path, key or call
        return None
    record = subject(text)        # todo.add -> {"id": 18} and -> {"id": 19}: one call, two records
    return re.sub(r"\s+", " ", m.group(1).lower().replace('"', "'")) + (f"#{record}" if record else "")


_CALL_ARGS = re.compile(r"^([\w.]+)\((.*)\)$", re.S)


@lru_cache(maxsize=65536)
def asked(text: str) -> tuple[str, str] | None:
    """(function, first argument) of the function call a tool's output answers (``config.get('timeout')``
    asks ``config.get`` about ``'timeout'``), spelled as ``call`` spells them; None for anything else."""
    m = _CALL.match(text)
    f = _CALL_ARGS.match(m.group(1)) if m else None
    if f is None:
        return None
    return f.group(1).lower(), f.group(2).split(",")[0].strip().lower().replace('"', "'")


def other(claim: str, entry: str) -> bool:
    """One function asked about something else (``config.get('retries')`` after ``config.get('timeout')``):
    another record, whatever else the two share; ``config.set('timeout', 90)`` after ``config.set('timeout',
    60)`` is the same one (its first argument names the record)."""
    a, b = asked(claim), asked(entry)
    return a is not None and b is not None and a[0] == b[0] and a[1] != b[1]


_ADDING = re.compile(r"(?<![a-z])(?:creat|join|add|install|invit|subscrib|enrol|grant|register)(?:e|es|ed|s|d|ing)?(?![a-z])",
                     re.I)
"""A command that makes or adds a thing ("gh repo create", "slack.conversations.join", "--install-extension")."""
_ADDED = re.compile(r"(?<![\w\"'])(?<!\d )(?:added|created|joined|installed|invited|subscribed|registered)(?![\w\"'])", re.I)
"""Its output saying so ("-> Rule added"); not a field's name ("created": ...) nor a count ("0 added, 1 changed")."""
_NAMED = re.compile(r"[#@]?[\w][\w.@/#-]*[\w]")
_ID_SHAPED = re.compile(r"[-.#@/_]|\d")
_ADDRESS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")


def _command(text: str) -> str | None:
    """The command part of a tool's line (before its output arrow), or None for prose."""
    head, arrow, _ = text.partition("->")
    return head if arrow and (_CALL.match(text) or head.lstrip().startswith("$")) else None


def adds_another(claim: str, entry: str) -> bool:
    """A command that makes or adds a thing named by an id the entry never names ("gh repo create tarl-bench" after
    "gh repo list -> ["dotfiles"]", "code --install-extension ms-python.python" after "extensions: Prettier"): one
    more thing, never a re-read of those held. A thing the entry names ("npm install react@18" after react 17
    installed) is that thing again, changed or not."""
    named = _added(claim)
    if not named:
        return False
    held = entry.lower()
    return not any(w in held or w.rsplit("/", 1)[-1] in held for w in named)


@lru_cache(maxsize=65536)
def _added(claim: str) -> tuple[str, ...]:
    """The ids of what a making command names (``adds_another``), none for anything else: read once per claim, not
    at each of its candidates."""
    command = _command(claim)
    if command is None or not (_ADDING.search(command) or _ADDED.search(claim, len(command))):
        return ()
    named = [w.lower().split("@")[0] for w in _NAMED.findall(claim) if _ID_SHAPED.search(w) and not _ADDING.search(w)]
    return tuple(w.lstrip("#@$-") for w in named if len(w.lstrip("#@$-")) >= 3
                 and (not w.replace(".", "").isdigit() or _ADDRESS.fullmatch(w)))     # an address, no count or version


_OUTPUT_LINES = re.compile(r"\n+|\s{2,}")


@lru_cache(maxsize=65536)
def listed(text: str) -> frozenset[str]:
    """The lines a shell command's output lists ("$ gh api .../collaborators" then "aoifeb", "dkeane"; lines or
    columns two spaces apart), two or more, lower-cased without a trailing dot; none for any other text."""
    if not text.lstrip().startswith("$"):
        return frozenset()
    lines = {line.strip().rstrip(".").lower() for line in _OUTPUT_LINES.split(text.strip())[1:]} - {""}
    return frozenset(lines) if len(lines) >= 2 else frozenset()
