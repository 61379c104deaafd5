"""Short ids for the model: ``Q1`` (question), ``H3`` (hypothesis), ``E2`` (experiment), ``R4`` (result),
``A1`` (a closed-world assumption), instead of 16-hex entry ids.

An alias is the entry's rank among the namespace's entries of its kind, in creation order. The ledger
is append-only and transaction numbers only grow, so a rank never changes once given, and every
process reading the same store derives the same aliases: nothing extra is stored, so two writers can
never race for ``H3``. Aliases are per namespace; a raw entry id is accepted wherever an alias is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..errors import UnknownEntry
from ..schema import Entry
from . import kinds as K

PREFIX = {K.GROUP: "Q", K.HYPOTHESIS: "H", K.EXPERIMENT: "E", K.RESULT: "R", K.CLOSED_WORLD: "A"}
NOUN = {K.GROUP: "question", K.HYPOTHESIS: "hypothesis", K.EXPERIMENT: "experiment", K.RESULT: "result",
        K.CLOSED_WORLD: "closed-world assumption"}
_RAW_ID = re.compile(r"\b[0-9a-f]{16}\b")


class Aliases:
    """Both directions of the alias map for one namespace's entries (any ledger, History included)."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.counts: Counter[str] = Counter()
        self.entries: dict[str, Entry] = {}
        self.by_id: dict[str, str] = {}
        self.by_alias: dict[str, str] = {}
        self.add(entries)

    def add(self, entries: Iterable[Entry]) -> None:
        """Take in entries created (or moved) since: new ones get the next alias of their kind. Callers
        add in commit order, so ranks match a fresh ``Aliases`` over the whole namespace."""
        for e in sorted(entries, key=lambda e: (e.created_tx, e.id)):
            known = e.id in self.entries
            self.entries[e.id] = e
            prefix = PREFIX.get(K.kind(e) or "")
            if prefix is not None and not known:
                self.counts[prefix] += 1
                alias = f"{prefix}{self.counts[prefix]}"
                self.by_id[e.id], self.by_alias[alias] = alias, e.id

    def alias(self, entry_id: str) -> str:
        return self.by_id.get(entry_id, entry_id)

    def resolve(self, ref: object, field: str, kind: str) -> Entry:
        """The entry ``ref`` (an alias such as ``h3``, or a raw id) names, if it is of ``kind``."""
        key = ref.strip() if isinstance(ref, str) else ""
        entry_id = self.by_alias.get(key.upper(), key)
        entry = self.entries.get(entry_id)
        prefix = PREFIX[kind]
        if entry is None:
            known = [a for a in self.by_alias if a.startswith(prefix)]
            hint = f"known {NOUN[kind]} ids: {', '.join(known[-12:])}" if known else f"no {NOUN[kind]} exists yet"
            raise UnknownEntry(field, ref, f"no such {NOUN[kind]} ({hint})")
        if K.kind(entry) != kind:
            raise UnknownEntry(field, ref, f"is a {NOUN.get(K.kind(entry) or '', 'plain entry')}, "
                                           f"not a {NOUN[kind]} (ids start with {prefix})")
        return entry

    def render(self, text: str) -> str:
        """``text`` with every raw entry id replaced by its alias (notes and errors name raw ids)."""
        return _RAW_ID.sub(lambda m: self.by_id.get(m.group(0), m.group(0)), text)
