"""Who says a statement and how: subjects (what is talked about), speakers (who talks, and whether the
labelling contract trusts them) and ``Say``, which words one statement as a given speaker would."""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import frames as F
from .attributes import Attribute
from .frames import casual, tool_output


@dataclass(frozen=True)
class Subject:
    key: str
    """Slot prefix: ``user``, a child's or colleague's first name, ``order_4471``, ``ops-812``."""
    refs: tuple[str, ...]
    """How anyone names it in the third person."""
    own: tuple[str, ...]
    """How the user names it (empty for the user: first person)."""
    display: str
    attributes: tuple[Attribute, ...]


@dataclass(frozen=True)
class Speaker:
    source: str
    relay: bool = False

    @property
    def trusted(self) -> bool:
        """User, system and tools (in their domain); the assistant only when it relays the user."""
        return self.source in ("user", "system", "tool") or (self.source == "assistant" and self.relay)


def template(rng: random.Random, own: tuple[str, ...], generic: tuple[str, ...], first: bool) -> str:
    """An attribute's own wording (mostly) or a label-based one; first person is any template without {n}."""
    mine = [t for t in own if ("{n}" not in t) == first]
    general = [t for t in generic if ("{n}" not in t) == first]
    return rng.choice(mine if mine and (rng.random() < 0.75 or not general) else general)


class Say:
    """Words one statement about ``subject``'s ``attr`` as ``speaker`` would write it."""

    def __init__(self, rng: random.Random, subject: Subject, attr: Attribute) -> None:
        self.rng, self.subject, self.attr = rng, subject, attr

    def ref(self, speaker: Speaker) -> str:
        s, rng = self.subject, self.rng
        if speaker.source == "user" and s.own:
            return rng.choice(s.own + s.refs)
        return rng.choice(s.refs)

    def statement(self, speaker: Speaker, own: tuple[str, ...], generic: tuple[str, ...], v: str, o: str = "",
                  soften: float = 0.0, first: bool | None = None) -> str:
        rng, a = self.rng, self.attr
        first = (self.subject.key == "user" and speaker.source == "user") if first is None else first
        t = template(rng, own, generic, first)
        text = t.format(n=self.ref(speaker), v=v, o=o, label=a.label, when=rng.choice(F.WHEN))
        return rng.choice(F.SOFTENERS).format(t=text) if rng.random() < soften else text

    def __call__(self, speaker: Speaker, own: tuple[str, ...], generic: tuple[str, ...], v: str, o: str = "",
                 soften: float = 0.0, frame: tuple[str, ...] = ()) -> str:
        rng, src = self.rng, speaker.source
        if src == "tool" and not frame:
            return tool_output(rng, self.subject.key, self.subject.display, self.attr.key, v)
        if src == "user" and not frame:
            text = self.statement(speaker, own, generic, v, o, soften)
            return finish(rng, rng.choice(F.CHATTER).format(t=text) if rng.random() < 0.25 else text, casual_share=0.3)
        third = self.statement(speaker, own, generic, v, o, soften, first=False)
        if frame:
            return finish(rng, rng.choice(frame).format(t=third, n=self.ref(speaker), label=self.attr.label, v=v, o=o,
                                                        date=rng.choice(F.DATES)))
        if src == "assistant" and speaker.relay:
            quote = self.statement(speaker, own, generic, v, o, soften, first=self.subject.key == "user")
            return finish(rng, rng.choice(F.RELAY).format(t=third, q=quote))
        wrap = {"assistant": F.INFERENCE, "system": F.SYSTEM, "third_party": F.HEARSAY, "web": F.WEB,
                "document": F.DOCUMENT}[src]
        text = rng.choice(wrap).format(t=third, who=rng.choice(F.WHO), site=rng.choice(F.SITES), doc=rng.choice(F.DOCS),
                                       date=rng.choice(F.DATES))
        return finish(rng, text, casual_share=0.15 if src == "third_party" else 0.0)


def finish(rng: random.Random, text: str, casual_share: float = 0.0) -> str:
    if rng.random() < casual_share:
        return casual(rng, text)
    return text[:1].upper() + text[1:] if rng.random() < 0.75 else text
