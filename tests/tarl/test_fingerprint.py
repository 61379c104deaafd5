"""``bench.fingerprint`` is the proof that a speed change changed no decision: its comparison must see
every difference that matters and none that does not."""

from __future__ import annotations

from shared_core.bench.fingerprint import differences


def test_differences_sees_actions_targets_and_probabilities() -> None:
    before = {"a/0": {"action": "revise", "target": "e1", "probabilities": {"revise": 0.7, "noop": 0.3}}}
    same = {"a/0": {"action": "revise", "target": "e1", "probabilities": {"revise": 0.7 + 1e-12, "noop": 0.3}}}
    assert list(differences(before, same, 1e-9)) == []
    moved = {"a/0": {"action": "noop", "target": None, "probabilities": {"revise": 0.7 + 1e-6, "noop": 0.3}}}
    found = list(differences(before, moved, 1e-9))
    assert any(".action" in d for d in found) and any(".target" in d for d in found)
    assert any("probabilities.revise" in d for d in found)


def test_differences_sees_missing_steps_and_structure() -> None:
    assert list(differences({"x": 1, "y": [1, 2]}, {"y": [1]}, 1e-9)) == [".x: only in before", ".y: length 2 != 1"]
    assert list(differences({"f": True}, {"f": 1.0}, 1e-9)) == [".f: True != 1.0"]
