"""The shipped hand-written corpus is well formed and its gold labels execute through the executor."""

from shared_core.bench.corpus import TRAIN, raw_episodes, validate


def test_every_shipped_episode_validates() -> None:
    raws = raw_episodes()
    assert len(raws) >= 50
    assert [p for r in raws for p in validate(r)] == []


def test_every_training_episode_validates() -> None:
    """The training episodes teach the models too: a slot labelled one-valued in one step and
    many-valued in another (12 such episodes once) teaches cardinality wrong."""
    raws = raw_episodes(TRAIN)
    assert len(raws) >= 150
    assert [p for r in raws for p in validate(r)] == []


def test_validator_refuses_a_slot_with_two_cardinalities(tmp_path) -> None:
    line = ('{"id": "x-2", "domain": "x", "namespace": "u", "steps": ['
            '{"text": "I like jazz", "slot": "user.likes", "many": true, "day": 0, "action": "append", "target": null},'
            '{"text": "and techno", "slot": "user.likes", "many": true, "day": 1, "action": "append", "target": null},'
            '{"text": "User likes jazz.", "source": "assistant", "slot": "user.likes", "many": false, "day": 2, "action": "noop", "target": 0},'
            '{"text": "lol", "slot": null, "day": 3, "action": "noop", "target": null}]}')
    (tmp_path / "x.jsonl").write_text(line + "\n")
    assert any("both one-valued and many-valued" in p for p in validate(raw_episodes(tmp_path)[0]))


def test_episode_ids_are_unique() -> None:
    ids = [r.id for r in raw_episodes()]
    assert len(ids) == len(set(ids))


def test_validator_refuses_gold_that_does_not_execute(tmp_path) -> None:
    line = ('{"id": "x-1", "domain": "x", "namespace": "u", "steps": ['
            '{"text": "I live in Lisbon", "slot": "user.city", "many": false, "day": 0, "action": "append", "target": null},'
            '{"text": "I heard she lives in Rome", "source": "third_party", "slot": "user.city", "many": false, "day": 1, "action": "reject_conflict", "target": 0},'
            '{"text": "she moved to Porto", "source": "third_party", "slot": "user.city", "many": false, "day": 2, "action": "defer_verify", "target": 0},'
            '{"text": "Rome it is", "slot": "user.city", "many": false, "day": 3, "action": "revise", "target": 1}]}')
    (tmp_path / "x.jsonl").write_text(line + "\n")
    problems = validate(raw_episodes(tmp_path)[0])
    assert problems and "revise needs an Accepted target" in problems[0]
