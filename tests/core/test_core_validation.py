"""Bad input is refused with an error naming the field, and nothing is written."""

from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest
from pydantic import ValidationError

from shared_core.errors import TarlError
from shared_core.executor import Step
from shared_core.schema import MAX_TEXT_CHARS, Action, Claim, Reason


def snapshot(engine, ns="u"):
    engine.flush()
    return engine.state(ns), engine.store.head(), engine.index.count()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"text": ""}, "text"),
        ({"text": "   \n\t"}, "text"),
        ({"text": "x" * (MAX_TEXT_CHARS + 1)}, "text"),
        ({"text": "ok", "confidence": 1.5}, "confidence"),
        ({"text": "ok", "confidence": -0.1}, "confidence"),
        ({"text": "ok", "confidence": math.nan}, "confidence"),
        ({"text": "ok", "namespace": " "}, "namespace"),
        ({"text": "ok", "source": ""}, "source"),
        ({"text": "ok", "metadata": {"when": object()}}, "metadata"),
        (
            {"text": "ok", "valid_from": datetime(2026, 5, 1, tzinfo=timezone.utc),
             "valid_to": datetime(2026, 4, 1, tzinfo=timezone.utc)},
            "valid_to",
        ),
    ],
)
def test_bad_claims_name_the_field_and_write_nothing(engine, fields, field):
    engine.write(Claim(text="Ana likes tea", namespace="u"))
    before = snapshot(engine)
    with pytest.raises(ValidationError) as err:
        engine.write({"namespace": "u", **fields})
    assert field in str(err.value)
    assert snapshot(engine) == before


def test_bad_claim_in_a_batch_writes_nothing(engine):
    with pytest.raises(ValidationError):
        engine.write_many([{"text": "fine", "namespace": "u"}, {"text": "", "namespace": "u"}])
    engine.flush()
    assert engine.store.head() == 0 and engine.index.count() == 0


@pytest.mark.parametrize(
    "step, field",
    [
        (Step(Action.REVISE, Claim(text="new", namespace="u")), "target_id"),
        (Step(Action.REJECT_CONFLICT, Claim(text="new", namespace="u")), "target_id"),
        (Step(Action.REVISE, Claim(text="new", namespace="u"), target_id="nope"), "target_id"),
        (Step(Action.CLOSE, target_id="nope", reason=Reason.RETRACTED), "target_id"),
        (Step(Action.APPEND), "claim"),
        (Step(Action.APPEND, Claim(text="x", namespace="other")), "claim.namespace"),
        (Step(Action.APPEND, Claim(text="x", namespace="u", depends_on=("ghost",))), "depends_on"),
    ],
)
def test_invalid_steps_are_refused_atomically(engine, step, field):
    engine.write(Claim(text="Ana likes tea", namespace="u"))
    before = snapshot(engine)
    good = Step(Action.APPEND, Claim(text="Ana likes chess", namespace="u"))
    with pytest.raises(TarlError) as err:
        engine.apply("u", [good, step])           # the good first step is rolled back too
    assert err.value.field == field and field in str(err.value)
    assert snapshot(engine) == before


def test_revise_needs_an_accepted_target(engine):
    engine.write(Claim(text="Maybe Ana likes jazz", namespace="u", source="assistant"))
    (pending,) = engine.pending("u")
    with pytest.raises(TarlError, match="Accepted"):
        engine.apply("u", [Step(Action.REVISE, Claim(text="Ana likes jazz", namespace="u"), target_id=pending.id)])


@pytest.mark.parametrize("k", [-1, 1.5, True])
def test_search_rejects_bad_k(engine, k):
    with pytest.raises(TarlError, match="k="):
        engine.search("tea", "u", k)


def test_search_rejects_empty_namespace_and_query(engine):
    with pytest.raises(TarlError, match="namespace"):
        engine.search("tea", "")
    with pytest.raises(TarlError, match="query"):
        engine.search("  ", "u")


def test_verify_unknown_entry(engine):
    with pytest.raises(TarlError, match="entry_id='missing'"):
        engine.verify("missing", accept=True)
