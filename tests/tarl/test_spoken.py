"""A tool's JSON record against a sentence about a thing (``spoken``), and JSON written without spaces read word by
word: a record of another repo is another thing, kept beside the sentence, never dropped as its repeat. Through the
engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from shared_core import Claim, MemoryEngine, records, slots, spoken
from shared_core.schema import Action, Ledger

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def test_a_record_of_another_repo_is_kept_beside_the_sentence(tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    first = engine.write(Claim(text="our repo platform/billing is internal, default branch develop.",
                               namespace="dev", source="user", observed_at=T0)).entry_id
    d = engine.write(Claim(text='{"repo":"platform/ledger","visibility":"private","default_branch":"release"}',
                           namespace="dev", source="tool", observed_at=T0 + timedelta(days=1)))
    assert d.action is Action.APPEND
    assert engine.get(first).ledger is Ledger.ACCEPTED


def test_fields_a_sentence_names() -> None:
    record = {"repo": "platform/ledger", "default_branch": "release", "id": "7"}
    said = spoken.fields_said("repo platform/billing, default branch release", record)
    assert said == {"repo": "platform/billing", "default_branch": "release"}
    assert records.other('{"repo": "platform/ledger", "stars": 4}', "repo platform/billing is internal")
    assert not records.other('{"repo": "platform/billing", "stars": 4}', "repo platform/billing is internal")
    # the word after a field's name is no thing unless it is shaped like one
    assert not records.other('{"reservation": "RX-9921", "desk": "sixt"}', "ignore the reservation on file")


_WORD = st.from_regex(r"[a-z]{2,8}", fullmatch=True)


@given(st.dictionaries(_WORD, st.one_of(_WORD, st.integers(0, 9999), st.lists(_WORD, max_size=3)), min_size=1, max_size=5))
def test_json_without_spaces_has_the_words_of_json_with_them(record) -> None:
    packed, spaced = json.dumps(record, separators=(",", ":")), json.dumps(record)
    assert slots.infer(packed).values == slots.infer(spaced).values
