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
