"""Settings: the ``key=value`` a config line, a flag or a pinned package states, under whatever label carries it.

Why: a tool or a note writes one setting behind a label that names the file or the command, not the setting
("app.yaml: log_level: info", ".env: REDIS_URL=...", "pip freeze: numpy==1.26.4", "GET /flags -> new_checkout:
enabled"). Read as one field, the label is the key and the setting its value, so two settings of one file look
like one key changing, and one flag read as ``true`` then ``false`` shares no key with the JSON that holds it.
A setting is the innermost field: the label's value read again as a field while it holds exactly one.
"""

from __future__ import annotations

import re
from functools import lru_cache

_FIELD = re.compile(r"^\s*[\"']?(?P<key>[a-z_][\w.-]{0,60}?)[\"']?\s*(?P<op>==|=|:(?=\s)|->|→)\s*(?P<value>\S.*)$", re.S)
_CODE_KEY = re.compile(r"[a-z0-9]+(?:[_.-][a-z0-9]+)+")
"""A key written as code (``log_level``, ``new_checkout``, ``api.example.com``), not a word of prose ("reminder")."""
_TRUE, _FALSE = frozenset("true enabled on yes".split()), frozenset("false disabled off no".split())


@lru_cache(maxsize=65536)
def innermost(key: str, value: str) -> tuple[str, str, bool]:
    """The setting a field holds: its value read as one more field while it is one (``app.yaml`` -> ``log_level:
    info``), with whether its key is code (a pin's ``==`` makes any package name one)."""
    code = bool(_CODE_KEY.fullmatch(key))
    while (m := _FIELD.match(value)) and not m.group("value").lstrip().startswith(("{", "[")):
        key, value, code = m.group("key"), m.group("value").strip().strip("\"'"), \
            m.group("op") == "==" or bool(_CODE_KEY.fullmatch(m.group("key")))
    return key, value, code


def said(key: str, value: str) -> tuple[str, str]:
    """A field's setting as compared: ``flags: new_checkout: enabled`` is ``flags: new_checkout=true``."""
    k, v, _ = innermost(key, value)
    return k, "true" if v in _TRUE else "false" if v in _FALSE else v


def settings(fields: dict[str, str]) -> dict[str, str]:
    """A text's fields (``records._fields``, lower-cased) as the settings they hold, code keys only, a flag's value
    said alike (``enabled`` is ``true``)."""
    out: dict[str, str] = {}
    for key, value in fields.items():
        if innermost(key, value)[2]:
            out.setdefault(*said(key, value))
    return out


def other(a: dict[str, str], b: dict[str, str]) -> bool:
    """Two texts that each state one setting, of two keys ("log_level: info", "max_connections: 200"): two settings,
    neither a change of the other."""
    if len(a) != 1 or len(b) != 1:
        return False
    sa, sb = settings(a), settings(b)
    return len(sa) == len(sb) == 1 and sa.keys() != sb.keys()


def compare(a: dict[str, str], b: dict[str, str]) -> bool | None:
    """True when a setting both hold has moved ("new_checkout=false" against a flags file's ``true``), False when
    all they share agree ("new_checkout: enabled" of ``true``), None when they share none."""
    sa, sb = settings(a), settings(b)
    shared = sa.keys() & sb.keys()
    return any(sa[k] != sb[k] for k in shared) if shared else None
