"""``tarl bench observations`` on a LoCoMo-shaped file written here: sessions in numeric order, one namespace
per speaker, every write counted once, and a real engine deciding."""

from __future__ import annotations

import json
from pathlib import Path

from shared_core.bench import observations


def _conversation(tmp_path: Path) -> Path:
    said = {
        "session_10_observation": {"Jon": [["Jon expressed excitement about opening the studio on Saturdays.", "D10:1"]]},
        "session_2_observation": {
            "Jon": [["Jon runs a dance studio downtown and teaches salsa to beginners.", "D2:1"],
                    ["Jon expressed concern about the rent of the studio going up.", "D2:3"]],
            "Gina": [["Gina sells vintage jackets in her online store.", "D2:2"]]},
        "session_2_date_time": "1:56 pm on 8 May, 2023",
    }
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([{"sample_id": "conv-x", "observation": said, "qa": [], "conversation": {}}]))
    return path


def test_observations_come_in_session_order_one_namespace_per_speaker(tmp_path: Path) -> None:
    stream = observations.observations(_conversation(tmp_path))
    assert [t for _, t in stream][0].startswith("Jon runs") and stream[-1][1].startswith("Jon expressed excitement")
    assert {ns for ns, _ in stream} == {"conv_x_Jon", "conv_x_Gina"}


def test_the_benchmark_counts_every_write(tmp_path: Path) -> None:
    out = tmp_path / "obs.json"
    assert observations.main(["--data", str(_conversation(tmp_path)), "--json", str(out)]) == 0
    record = json.loads(out.read_text())
    for row in record["systems"].values():
        assert row["observations"] == 4
        assert abs(sum(row[f"{a}_share"] for a in observations.ACTIONS) - 1.0) < 1e-9
    # two moments the talk reports, about different things, are two facts: nothing is superseded
    assert record["systems"]["learned"]["revise_share"] == 0.0


def test_evidence_is_kept_only_while_its_own_words_are_accepted(tmp_path: Path) -> None:
    """A question's evidence turn counts as kept while the observation extracted from it is Accepted: one written
    beside others is; one dropped as a repeat (an exact duplicate here) or superseded is not."""
    conv = {"sample_id": "c", "conversation": {}, "observation": {"session_1_observation": {"Ana": [
        ["Ana lives in Porto with her two cats.", "D1:1"],
        ["Ana lives in Porto with her two cats.", "D1:2"],
        ["Ana teaches chemistry at a secondary school.", ["D1:3"]]]}},
        "qa": [{"question": "Where does Ana live?", "evidence": ["D1:1"], "category": 1},
               {"question": "What did Ana repeat?", "evidence": ["D1:2"], "category": 1},
               {"question": "What does Ana teach?", "evidence": ["D1:3", "D1:1"], "category": 4},
               {"question": "Unanswerable", "evidence": ["D1:2"], "category": 5}]}
    stream, questions = observations._stream([conv]), observations._questions([conv])
    assert [turns for *_, turns in stream] == [("c/D1:1",), ("c/D1:2",), ("c/D1:3",)] and len(questions) == 3
    row = observations.run(observations.LearnedPolicy(), stream, questions)
    assert row["noop_share"] == 1 / 3                     # the exact repeat is dropped: its turn's words are gone
    assert row["evidence_kept_share"] == 2 / 3 and row["questions_kept_share"] == 2 / 3
