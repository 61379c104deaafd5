"""Structured records compared field by field (``shared_core.records``): a re-read that adds or drops
fields is the same state; a shared field with another value is a change; the caller's slot names the
field that decides. Unit level, then through a real engine on free text."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st

from shared_core import Claim, MemoryEngine
from shared_core.records import compare, confirms, fields, note
from shared_core.schema import Action

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=timezone.utc)
ETA = '{"order_id": "ZK-4410", "status": "shipped", "carrier": "DPD", "eta": "tomorrow"}'
TRACKED = '{"order_id": "ZK-4410", "status": "shipped", "carrier": "DPD", "tracking": "15501234987"}'


def test_fields_of_json_and_key_value_lines() -> None:
    assert fields(ETA) == {"order_id": "zk-4410", "status": "shipped", "carrier": "dpd", "eta": "tomorrow"}
    assert fields("appt_id=GW-7781 clinician=Dr Hartley time=09:20 amount=120.0") == {
        "appt_id": "gw-7781", "clinician": "dr hartley", "time": "09:20", "amount": "120"}
    assert fields("the user lives in Porto") == {} and fields("Note: call Ana") == {}


def test_a_note_s_label_ending_in_a_word_of_moving_names_the_key_before_it() -> None:
    """"Status updated: shipped" is the status's note, as the label's words (``_key_words``) read it: "updated"
    says the value moved, it is no key of its own."""
    assert note("Status updated: shipped") == {"status": "shipped"} == note("Status: shipped")
    assert note("Preferred airline changed: KLM") == {"airline": "klm"}
    assert note("Delivery address: 4 Canal St") == {"address": "4 canal st"} == note("Delivery address updated: 4 Canal St")


def test_a_record_s_number_is_read_in_a_sentence_that_names_its_key() -> None:
    """"3 story points" is the record's ``story_points``: another number is the record moved on, the same one the same
    state; a sentence with two numbers, or one that does not name the key, is not read so."""
    said = "We estimated AUTH-42 at 3 story points."
    assert compare("jira: AUTH-42 story_points=5 (edited by sprint lead)", said) is True
    assert compare('{"issue": "AUTH-42", "story_points": 3}', said) is False
    assert compare('{"issue": "AUTH-42", "story_points": 5}', "AUTH-42 has 3 story points and 2 subtasks") is None
    assert compare('{"host": "web-1", "ram_gb": 32}', "Server has 16 GB of RAM.") is True
    assert compare('{"headcount": 9}', "Team size is 8 engineers.") is None


def test_a_call_s_arrow_and_parenthesis_end_a_bare_value() -> None:
    assert fields("nest.set device=hallway setpoint_c=19 -> ok") == {"device": "hallway", "setpoint_c": "19"}
    assert fields('backup.configure(job="nightly-db", retention_days=30) -> {"ok": true}') == {
        "job": "nightly-db", "retention_days": "30", "ok": "true"}
    assert compare("nest.get device=hallway -> mode=heat setpoint_c=19.0 humidity=51",
                   "nest.set device=hallway setpoint_c=19 -> ok") is False


def test_a_timestamp_names_no_thing() -> None:
    from shared_core.grounding import identifiers
    assert identifiers('{"device":"cam-porch","online":true,"last_motion":"2024-02-02T21:14:00Z"}') == frozenset()
    assert identifiers("DFS Order 77812: Delivery slot Sat 12 Oct, 7am-1pm") == frozenset()
    assert identifiers("flight BA117 on 2024-05-01T09:40") == {"ba117"}


def test_a_reread_with_other_fields_is_the_same_state_and_a_changed_field_is_a_change() -> None:
    assert compare(ETA, TRACKED) is False
    assert compare(ETA.replace("shipped", "delivered"), TRACKED) is True
    assert compare('{"order_id": "ZK-4410", "updated": "day 3", "status": "shipped"}',
                   '{"order_id": "ZK-4410", "updated": "day 1", "status": "shipped"}') is False   # when it was read
    assert compare('{"order_id": "ZK-4410", "eta": "friday"}', '{"order_id": "ZK-4410", "tracking": "1"}') is None
    moved_status = '{"table": "T4", "time": "21:30", "status": "confirmed"}'
    assert compare(moved_status, '{"table": "T4", "time": "21:30", "status": "modified"}') is True
    assert compare(moved_status, '{"table": "T4", "time": "21:30", "status": "modified"}', about="time") is False
    assert compare('{"tier": "Blue", "avios": 13010}', '{"tier": "Blue", "avios": 12450}', about="ba_tier") is False


@given(st.dictionaries(st.sampled_from(["id", "status", "eta", "carrier", "seats", "plan"]),
                       st.text("abcdefgh0123456789", min_size=1, max_size=6), min_size=2),
       st.dictionaries(st.sampled_from(["note", "tracking", "owner"]), st.text("xyz9", min_size=1, max_size=4)))
def test_adding_fields_never_makes_a_change(record: dict, extra: dict) -> None:
    import json
    a, b = json.dumps(record), json.dumps({**record, **extra})
    assert compare(b, a) is False and compare(a, b) is False


def test_a_tool_rereading_an_order_with_other_fields_changes_nothing(tmp_path) -> None:
    with MemoryEngine.open(tmp_path) as engine:
        first = engine.write(Claim(text=TRACKED, namespace="o", source="tool", observed_at=T0))
        again = engine.write(Claim(text=ETA, namespace="o", source="tool", observed_at=T0 + timedelta(hours=5)))
        moved = engine.write(Claim(text=ETA.replace('"shipped"', '"delivered"'), namespace="o", source="tool",
                                   observed_at=T0 + timedelta(days=1)))
        assert again.action is Action.NOOP and again.target_id == first.entry_id
        assert moved.action is Action.REVISE and moved.target_id == first.entry_id


def test_a_tool_confirms_only_a_value_it_reads_again() -> None:
    """The labelling notes: a tool call that confirms a stored value is a repeat, however many fields it adds; not
    one that reports a move, reads another thing's key, or (in a sentence) tells a value the entry lacks."""
    assert confirms('config.get("checkout.max_retries") -> 5', "bumped max retries to 5 in prod", frozenset())
    assert not confirms('config.get("checkout.max_retries") -> 3', "bumped max retries to 5 in prod", frozenset())
    assert not confirms("INC-2291 status changed: open -> resolved", "INC-2291 is open, with Marco", frozenset({"inc-2291"}))
    assert not confirms("todo.complete(18) -> {\"id\": 18}", "todo 18: call mom on sunday", frozenset())
    assert confirms('{"order_id": "88123", "ship_to": "40 Quay St", "updated": "day 1"}',       # when it was read,
                    "send 88123 to my work instead, 40 Quay St", frozenset({"88123"}))        # no move
    assert confirms("Calendar shows the dentist appointment on 14 May at 10:00.",
                    "The user has a dentist appointment on 14 May at 10:00.", frozenset())
    assert not confirms("Parkside Vets: Biscuit is due his annual booster on 21 Aug",
                        "our dog Biscuit is registered at Parkside Vets", frozenset())     # a date the entry lacks
    assert not confirms('{"order": "A771", "ship_to": "14 Carver St"}', '{"order": "A771", "items": 2}', frozenset())
    assert confirms('$ aws eks describe-cluster --name prod --query cluster.arn\n"arn:aws:eks:eu-west-1:1234:cluster/prod"',
                    "The prod EKS cluster is in eu-west-1.", frozenset())      # a path's part names the region
    assert confirms('{"caller_id": "+14155550188", "line_type": "mobile"}', "new number, 415-555-0188", frozenset())
    assert confirms('{"name": "Ines", "mobile": "+351936100245"}', "new sim, new number: +351 936 100 245", frozenset())
    assert not confirms("Martin Mark views this period as a setback in his career.", "Martin Mark enjoys jazz.",
                        frozenset(), frozenset({"martin", "mark"}))      # the person both are about is no value
    assert not confirms('POST /contacts/ct_88a1/tags {"tag": "vip"} -> 201 {"tags": ["enterprise", "vip"]}',
                        "GET /contacts/ct_88a1/tags -> 88 tags", frozenset({"ct_88a1"}))     # a request that writes
