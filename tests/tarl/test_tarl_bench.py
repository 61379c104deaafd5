"""The tarl-mem benchmark runs end to end on a tiny HaluMem-format fixture, and its datasets keep the
promises the metrics rely on (executable gold, splits disjoint by person)."""

from __future__ import annotations

import json
from pathlib import Path

from shared_core.bench import tarl_mem
from shared_core.bench.episodes import generate, gold_states
from shared_core.bench.tarl_mem_metrics import ece, macro_f1
from shared_core.bench.tarl_mem_sources import halumem
from shared_core.schema import Action, Ledger


def halumem_fixture(path: Path) -> Path:
    point = lambda text, **kw: {"memory_content": text, "memory_source": "secondary", "is_update": "False",  # noqa: E731
                                "original_memories": [], "timestamp": "Jan 15, 2029, 16:15:20", **kw}
    user = {"uuid": "fixture-user", "sessions": [
        {"memory_points": [point("Tess works as a nurse in Leeds", index=1)]},
        {"memory_points": [
            point("Tess was promoted from nurse to ward manager in Leeds", index=1, is_update="True",
                  original_memories=["Tess works as a nurse in Leeds"]),
            point("Tess was promoted to hospital director in Leeds", index=2, memory_source="interference",
                  source_memory_index=1),
            point("Tess adopted a terrier named Pip", index=3),
        ]},
    ]}
    file = path / "halumem_fixture.jsonl"
    file.write_text(json.dumps(user) + "\n")
    return file


def test_halumem_labels(tmp_path: Path) -> None:
    (ep,) = halumem(halumem_fixture(tmp_path))
    # within a session, secondary points come first and interference after the point it confuses
    assert [s.action for s in ep.steps] == [Action.APPEND, Action.REVISE, Action.APPEND, Action.REJECT_CONFLICT]
    assert ep.steps[1].target == 0 and ep.steps[3].target == 1
    final = gold_states(ep)[-1]
    assert {e.text for e in final.ledger(Ledger.HISTORY)} == {"Tess works as a nurse in Leeds",
                                                               "Tess was promoted to hospital director in Leeds"}


def test_generated_splits_are_disjoint_by_person_and_gold_is_executable() -> None:
    eps = generate(60, seed=5)
    people = {split: {e.name for e in eps if e.split == split} for split in ("train", "dev", "test")}
    assert not (people["train"] & people["test"] or people["train"] & people["dev"] or people["dev"] & people["test"])
    for ep in eps[:10]:
        states = gold_states(ep)
        assert len(states) == len(ep.steps) + 1
        assert {s.action for s in ep.steps} <= set(Action)


def test_metric_definitions_on_hand_computed_cases() -> None:
    assert macro_f1(["append", "noop"], ["append", "noop"]) == 1.0
    assert abs(macro_f1(["append", "append"], ["append", "noop"]) - (2 / 3 + 0) / 2) < 1e-9
    assert ece([1.0, 1.0], [True, False]) == 0.5 and ece([0.75] * 4, [True, True, True, False]) == 0.0


def test_quick_benchmark_writes_json_and_plot(tmp_path: Path) -> None:
    data = halumem_fixture(tmp_path)
    out = tmp_path / "tarl_mem.json"
    assert tarl_mem.main(["--quick", "--data", str(data), "--json", str(out), "--plots", str(tmp_path / "plots")]) == 0
    record = json.loads(out.read_text())
    assert record["benchmark"] == "tarl-mem" and set(record["systems"]) == set(tarl_mem.SYSTEMS)
    for metrics in record["systems"].values():
        assert {"macro_f1", "next_state_acc", "pollution", "conflict_preservation", "ece", "decision_ms_p50"} <= set(metrics)
    assert record["systems"]["full_history"]["pollution"] == 1.0
    assert record["systems"]["learned"]["next_state_acc"] > record["systems"]["full_history"]["next_state_acc"]
    assert (tmp_path / "plots" / "tarl_mem_macro_f1.png").stat().st_size > 1000
    assert {"update_correct_halumem", "false_memory_resistance_halumem", "macro_f1_generated"} <= set(record["systems"]["learned"])


def test_crowded_episodes_keep_their_labels_and_add_only_unscored_memory() -> None:
    from shared_core.bench.corpus import HERE, split, to_episode
    from shared_core.bench.tarl_mem_sources import crowded

    raws = split.load(HERE)["test"][:12]
    plain = [to_episode(r, slots=False) for r in raws]
    for ep, crowd in zip(plain, crowded(plain, others=3, seed=0)):
        scored = [s for s in crowd.steps if s.scored]
        assert [s.claim.text for s in scored] == [s.claim.text for s in ep.steps if s.scored]
        assert len(crowd.steps) > len(ep.steps) and {s.claim.namespace for s in crowd.steps} == {ep.namespace}
        seeds = crowd.steps[: len(crowd.steps) - len(ep.steps)]
        assert not any(s.scored for s in seeds)
        assert not {s.slot for s in seeds if s.slot} & {s.slot for s in ep.steps if s.slot}
        times = [s.claim.observed_at for s in crowd.steps]
        assert times == sorted(times)
        states = gold_states(crowd)                # every gold label still executes on the crowded memory
        tail = crowd.steps[len(seeds):]
        for s in tail:
            if s.target is not None:
                assert crowd.steps[s.target].claim.text == ep.steps[s.target - len(seeds)].claim.text
        assert len(states) == len(crowd.steps) + 1
