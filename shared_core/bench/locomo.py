"""LoCoMo conversations (``../shared/data/locomo``), parsed once for every benchmark that reads them.

Format notes (see the data README): sessions are ``session_<N>`` keys walked in numeric order; a turn
has ``speaker``, ``dia_id`` ("D<session>:<k>"), ``text`` and maybe an image caption; a question's
``evidence`` lists dia_ids, split on ``[;,\\s]+`` and normalised with ``D:?(\\d+):0*(\\d+)``; ids that name
no turn are dropped. Category 5 (adversarial) questions carry ``adversarial_answer`` instead of ``answer``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

_DIA = re.compile(r"D:?(\d+):0*(\d+)")
_SESSION = re.compile(r"session_(\d+)")


@dataclass(frozen=True)
class Question:
    text: str
    answer: str | None
    evidence: frozenset[int]
    """Row numbers (in ``Conversation.turns``) of the turns that support the answer."""
    category: int


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speaker_a: str
    speakers: tuple[str, ...]
    turns: tuple[str, ...]
    questions: tuple[Question, ...]
    sessions: tuple[int, ...] = ()
    """Session number of every turn (``session_<N>``), in turn order."""

    def with_turns(self, n: int) -> Conversation:
        """The first ``n`` turns, and only the questions answerable from them."""
        kept = tuple(q for q in self.questions if q.evidence and max(q.evidence) < n)
        return Conversation(self.sample_id, self.speaker_a, self.speakers[:n], self.turns[:n], kept, self.sessions[:n])


def turn_text(turn: dict) -> str:
    """A turn as an agent would store it: what was said, plus the caption of a shared image."""
    caption = turn.get("blip_caption")
    return f"{turn['text']} [image: {caption}]" if caption else turn["text"]


def load_locomo(path: Path) -> list[Conversation]:
    out = []
    for item in json.loads(Path(path).read_text()):
        conv = item["conversation"]
        sessions = sorted((int(m.group(1)), v) for k, v in conv.items()
                          if (m := _SESSION.fullmatch(k)) and isinstance(v, list))
        turns = [t for _, session in sessions for t in session]
        row = {(int(m.group(1)), int(m.group(2))): i for i, t in enumerate(turns)
               if (m := _DIA.fullmatch(str(t["dia_id"]).strip()))}
        questions = []
        for qa in item["qa"]:
            ids = [m.groups() for e in qa.get("evidence", []) for part in re.split(r"[;,\s]+", str(e))
                   if (m := _DIA.fullmatch(part.strip()))]
            evidence = frozenset(row[key] for a, b in ids if (key := (int(a), int(b))) in row)
            answer = qa.get("answer")
            questions.append(Question(qa["question"], None if answer is None else str(answer), evidence,
                                      int(qa["category"])))
        out.append(Conversation(item["sample_id"], conv["speaker_a"], tuple(t["speaker"] for t in turns),
                                tuple(turn_text(t) for t in turns), tuple(questions),
                                tuple(k for k, session in sessions for _ in session)))
    return out
