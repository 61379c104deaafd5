"""What the CLI prints. Memory text and namespaces are user content: a stored ``ESC[2J`` or a
right-to-left override must reach the terminal as visible characters, never act on it, so every
string shown goes through ``safe``."""

from __future__ import annotations

import unicodedata

from ..executor import MemoryState
from ..schema import Entry, Transaction

_SHOWN_AS_IS = {"\t"}


def safe(value: object) -> str:
    """``str(value)`` with control, format (bidi overrides, zero-width) and separator characters
    replaced by their ``\\x..`` / ``\\u....`` escapes; newlines too, so one record stays one line."""
    out = []
    for ch in str(value):
        if ch not in _SHOWN_AS_IS and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def quoted(text: str) -> str:
    return "'" + safe(text).replace("'", "\\'") + "'"


def entry_row(e: Entry) -> str:
    why = f"  [{e.reason.value}{': ' + safe(e.note) if e.note else ''}]" if e.reason else ""
    return f"    {safe(e.id)}  tx{e.created_tx:<5} {safe(e.source):<11} {safe(e.text)}{why}"


def state_lines(state: MemoryState) -> list[str]:
    out = [f"# {safe(state.namespace)}"]
    for name, rows in (("accepted", state.accepted), ("pending", state.pending), ("history", state.history)):
        out.append(f"  {name} ({len(rows)})")
        out += [entry_row(e) for e in rows]
    return out


def transaction_lines(t: Transaction) -> list[str]:
    claim = f" {quoted(t.claim.text)}" if t.claim else ""
    target = f" -> {safe(t.target_id)}" if t.target_id else ""
    why = f"  ({safe(t.decision.rationale)})" if t.decision and t.decision.rationale else ""
    if t.decision is not None and t.decision.decided_by != "policy":      # escalated to an LLM judge
        why += f"  [{t.decision.decided_by}, {t.decision.judge_ms or 0:.0f} ms]"
    out = [f"tx{t.tx:<5} {t.at:%Y-%m-%d %H:%M:%S} {safe(t.namespace):<14} {t.action.value:<15}{claim}{target}{why}"]
    for m in t.moves:
        src = m.from_ledger.value if m.from_ledger else "new"
        reason = f" [{m.reason.value}]" if m.reason else ""
        note = f": {safe(m.note)}" if m.note else ""
        out.append(f"        {safe(m.entry_id)}: {src} -> {m.to_ledger.value}{reason}{note}")
    return out


def show(lines: list[str]) -> None:
    """Print lines that may still hold user text (e.g. an ``Explanation``'s), escaped."""
    for line in lines:
        print(safe(line))
