"""LangGraph store values <-> TARL claims and entries.

The rule, in one place so that the store, the tools and the docs agree:

- The value must be a JSON object (a ``dict`` with string keys and JSON-serialisable values).
- Its text, the claim TARL decides on, is ``value["text"]`` if that is a non-blank string, else
  ``value["content"]`` if that is one (langmem's shape), else the value's JSON (sorted keys), so
  structured memories (and ``{}``) still ground and search on their content.
- ``source``, ``confidence``, ``valid_from``, ``valid_to``, ``observed_at`` (ISO strings or datetimes),
  ``many`` (the key holds several values at once, e.g. liked foods; a key holds one value unless it
  says so, whatever its words: a second ``put`` on a key never leaves two current values beside each other) and ``metadata`` (a dict) ride in the value and become the claim's fields; the store key, exactly
  as given, becomes the claim's ``slot``, so a second ``put`` on the same key is weighed against the
  first. The whole value is in the claim's metadata, so any change of any field is a change.
- The whole value is kept in the entry's metadata under :data:`VALUE_KEY` and handed back unchanged
  by ``get``/``search``, except that a ``datetime``/``date`` anywhere in it comes back as its ISO 8601
  string (the ledger holds JSON); entries written straight through the engine come back as ``{"text": ...}``.
- LangGraph's ``index`` choices: with field paths (the store's ``IndexConfig["fields"]`` or a put's
  ``index=[...]``, e.g. ``"summary"``, ``"a.b"``, ``"tags[*]"``) the text is what those paths hold, joined
  by newlines (``"$"`` stands for the rule above). A put with ``index=False``, or whose paths hold
  nothing, is still a claim with a text (TARL weighs every write) but is marked :data:`UNINDEXED_KEY`:
  ``search(query=...)`` gives it no score and lists it after the scored items, as LangGraph does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import date, datetime
from typing import Any

from pydantic import ValidationError
from shared_core import Claim, Entry, TarlError

VALUE_KEY = "langgraph_value"
UNINDEXED_KEY = "langgraph_unindexed"
CLAIM_FIELDS = ("source", "confidence", "valid_from", "valid_to", "observed_at", "many")


def claim_from_value(namespace: str, key: str | None, value: Any, *, default_source: str,
                     paths: Sequence[str] | None = None, indexed: bool = True) -> Claim:
    """The claim a ``put`` offers to memory (``key`` None: a free-text memory with no key, see
    ``TarlStore.add``); ``paths``: the index field paths whose text is the claim's (None: the text rule);
    ``indexed`` False: ``index=False``. Raises :class:`TarlError` naming the bad field."""
    if not isinstance(value, Mapping):
        raise TarlError("value", value, "must be a dict (a JSON object), e.g. {'text': 'Alice lives in Lisbon'}")
    value = dict(value)
    if not all(isinstance(k, str) for k in value):
        raise TarlError("value", value, "keys must be strings")
    dated: list[Any] = []           # the datetimes met: only a value holding one is stored converted
    try:
        encoded = json.dumps(value, sort_keys=True, ensure_ascii=False, default=lambda o: dated.append(o) or _iso(o))
    except (TypeError, ValueError) as exc:
        raise TarlError("value", value, f"must be JSON-serialisable: {exc}") from None
    stored = json.loads(json.dumps(value, ensure_ascii=False, default=_iso)) if dated else value   # as the ledger holds it
    if key is not None and (not isinstance(key, str) or not key):
        raise TarlError("key", key, "must be a non-empty string")
    metadata = value.get("metadata", {})
    if not isinstance(metadata, Mapping):
        raise TarlError("value.metadata", metadata, "must be a dict")
    fields: dict[str, Any] = {f: value[f] for f in CLAIM_FIELDS if value.get(f) is not None}
    fields.setdefault("source", default_source)
    if key is not None:     # a store key holds one value, as in every BaseStore, unless the value says "many"
        fields.setdefault("many", False)
    text = text_of(value, encoded)
    if paths is not None:
        found = list(dict.fromkeys(t for path in paths for t in _texts_at(value, path, text) if t.strip()))
        text, indexed = ("\n".join(found), indexed) if found else (text, False)
    marks = {} if indexed else {UNINDEXED_KEY: True}
    try:
        return Claim(
            text=text,
            namespace=namespace,
            slot=key,
            metadata={**metadata, VALUE_KEY: stored, **marks},
            **fields,
        )
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err.get("loc", ())) or "text"
        name = "key" if field == "slot" else f"value.{field}"
        raise TarlError(name, err.get("input"), err.get("msg", "invalid")) from None


def _iso(obj: Any) -> str:
    """A ``datetime`` or ``date`` in a value as its ISO 8601 string. Why: the claim fields are documented
    as "ISO strings or datetimes", and ``{"valid_to": datetime.now(utc) + ...}`` (the README's answer to
    TTL) was refused as not JSON-serialisable; the ledger holds JSON, so ``get`` returns the string."""
    if isinstance(obj, (datetime, date)):
        return obj.isoformat()
    raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def index_fields(index: Any) -> list[str] | None:
    """A put's or an ``IndexConfig``'s field paths (None: the text rule); refuses what is not a list of
    path strings, naming it."""
    if index is None:
        return None
    if isinstance(index, str):
        index = [index]
    if not isinstance(index, (list, tuple)) or not all(isinstance(p, str) and p for p in index):
        raise TarlError("index", index, "must be None, False or a list of field paths such as ['text', 'a.b', 'tags[*]']")
    return list(index)


def _texts_at(value: Mapping[str, Any], path: str, text: str) -> list[str]:
    from langgraph.store.base.embed import get_text_at_path

    return [text] if path == "$" else get_text_at_path(value, path)


def is_indexed(entry: Entry) -> bool:
    """False for a value put with ``index=False`` or whose index paths held no text."""
    return not entry.metadata.get(UNINDEXED_KEY)


def text_of(value: Mapping[str, Any], encoded: str | None = None) -> str:
    for field in ("text", "content"):
        if isinstance(value.get(field), str) and value[field].strip():
            return value[field]
    return encoded if encoded is not None else json.dumps(value, sort_keys=True, ensure_ascii=False)


def value_of(entry: Entry) -> dict[str, Any]:
    """The value as it was put (a copy, so callers cannot alter what later reads see)."""
    stored = entry.metadata.get(VALUE_KEY)
    if isinstance(stored, dict):
        return json.loads(json.dumps(stored))
    return {"text": entry.text}


def key_of(entry: Entry) -> str:
    """The store key: the slot, or the entry id for entries written without one."""
    return entry.slot or entry.id
