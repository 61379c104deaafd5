"""Linking (which open entry a free-text claim is about) and change (does it say something different),
through the engine's default policy and on their own. Hand-written here, in wordings the corpus does not use."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core import Claim, MemoryEngine, change, endings, linking, slots, stamps
from shared_core.schema import Action

T0 = datetime(2026, 5, 4, 9, 0, tzinfo=timezone.utc)


def run(said: list[tuple[str, str]], tmp_path) -> tuple[MemoryEngine, list, str]:
    """Writes ``said`` in order; returns the engine, the decisions and the first entry's id."""
    engine = MemoryEngine.open(tmp_path / "store")
    out, first = [], ""
    for i, (text, source) in enumerate(said):
        out.append(engine.write(Claim(text=text, namespace="u", source=source, observed_at=T0 + timedelta(days=i))))
        first = first or engine.state("u").accepted[0].id
    return engine, out, first


@pytest.mark.parametrize("said, expected", [
    # an update that shares only one specific word with the entry it changes, no attribute word
    ([("the spare key is under the doormat", "user"), ("moved the spare key into the lockbox by the door", "user")],
     Action.REVISE),
    # the same on a multi-valued attribute (medication): the dose moved to a number, its unit left unsaid
    ([("on 20mg citalopram every night", "user"), ("doc upped the citalopram to 30", "user")], Action.REVISE),
    # a tool's JSON refreshing the same order's field
    ([('{"order_id": "K-5521", "status": "packed"}', "tool"), ('{"order_id": "K-5521", "status": "out_for_delivery"}', "tool")],
     Action.REVISE),
    # a record's state moved on, in words the record never uses
    ([('{"order_id": "A-9031", "status": "processing"}', "tool"), ("a-9031 turned up this morning, all fine", "user")],
     Action.REVISE),
    ([('{"ticket": "SUP-3310", "subject": "refund for double charge", "status": "open"}', "tool"),
      ("sup-3310 is resolved, customer got the refund", "user")], Action.REVISE),
    # a value set to another, the thing named by its key path's parts: the owner changes the config
    ([('config.get("checkout.max_retries") -> 3', "tool"), ("bumped max retries to 5 in prod", "user")], Action.REVISE),
    # an ordinary value change with no cue word, the attribute named only by its values
    ([("my editor is VS Code", "user"), ("been using neovim full time for a month", "user")], Action.REVISE),
    ([("my partner Sofie works nights at the hospital", "user"), ("sofie's on days now thank god", "user")], Action.REVISE),
    # the same call read again answers with the record's new state, though it names no id
    ([('vetcal.next_appt(pet="Bolt") -> {"date": "2026-04-02", "type": "booster"}', "tool"),
      ('vetcal.next_appt(pet="Bolt") -> {"date": "2026-04-09", "type": "booster"}', "tool")], Action.REVISE),
    ([('vault kv get secret/stripe -> {"api_key": "sk_live_9fQ2", "rotated": "2026-01-10"}', "tool"),
      ('vault kv get secret/stripe -> {"api_key": "sk_live_7Lm0", "rotated": "2026-03-02"}', "tool")], Action.REVISE),
    # one call, two records
    ([('todo.add -> {"id": 18, "text": "call mom on sunday"}', "tool"),
      ('todo.add -> {"id": 19, "text": "book the dentist"}', "tool")], Action.APPEND),
    # a correction names the value it sets aside
    ([("my dog is called Rex", "user"), ("oh wait the dog's name is Max, not Rex", "user")], Action.REVISE),
    # hearsay contradicting the stored value of the linked entry
    ([("my piano teacher is Mrs Hale", "user"), ("Her sister said your piano teacher is Mr Obi now", "third_party")],
     Action.REJECT_CONFLICT),
    # chit-chat links to nothing
    ([("my piano teacher is Mrs Hale", "user"), ("haha ok cool", "user")], Action.NOOP),
])
def test_free_text_claims_find_their_entry(said, expected, tmp_path) -> None:
    engine, results, first = run(said, tmp_path)
    try:
        decision = results[-1]
        assert decision.action is expected, decision.rationale
        if expected in (Action.REVISE, Action.REJECT_CONFLICT):
            assert decision.target_id == first
    finally:
        engine.close()


def test_two_orders_are_never_one(tmp_path) -> None:
    engine, results, _ = run([('{"order_id": "K-5521", "status": "packed"}', "tool"),
                              ('{"order_id": "K-5522", "status": "packed"}', "tool")], tmp_path)
    try:
        assert results[-1].action is Action.APPEND
        assert len(engine.state("u").accepted) == 2
    finally:
        engine.close()


def test_no_shared_evidence_is_no_link() -> None:
    """The evidence gate: texts sharing no specific word, id, field, value shape or attribute never link."""
    mine = slots.of("we adopted a kitten last week")
    x = linking.matrix("we adopted a kitten last week", mine, [("the boiler service is due in march", slots.of("x"), 0.9)])
    assert linking.evidence(x).tolist() == [0.0]


def test_scored_rows_are_the_full_matrix_rows() -> None:
    """Candidates left out of ``scored`` (explicit slots decide them) still rank the others: the rows kept
    are exactly those of the full matrix, pool columns included."""
    claim = "switched my gym membership to the downtown branch"
    entries = [("gym membership at the riverside branch", slots.of("x"), 0.8),
               ("the downtown office opens at 9", slots.of("user.office", None), 0.6),
               ("membership renews in march", slots.of("membership renews"), 0.7),
               ("I go to the gym on mondays", slots.of("user.gym", None), 0.9)]
    full = linking.matrix(claim, slots.of(claim), entries)
    for scored in ([True, False, True, False], [False, False, False, True], [True] * 4):
        part = linking.matrix(claim, slots.of(claim), entries, scored)
        assert np.array_equal(part, full[np.asarray(scored)])


def test_change_model_tells_a_restatement_from_a_change() -> None:
    if change.default() is None:
        pytest.skip("no change model shipped")
    model = change.default()
    same = change.probability("yep, still teaching year 5 at Oakfield", "I teach year 5 at Oakfield", 0.6)
    moved = change.probability("switched to teaching year 3 this term", "I teach year 5 at Oakfield", 0.5)
    assert same < model.threshold <= moved


def test_pair_model_round_trip_and_version_check(tmp_path) -> None:
    names = ("a", "b")
    model = linking.PairModel(names, np.array([1.0, -2.0]), 0.5, np.zeros(2), np.ones(2), 0.4, {"k": 1})
    model.save(tmp_path / "m.json")
    again = linking.PairModel.load(tmp_path / "m.json", names)
    x = np.array([[0.2, 0.1], [1.0, 0.0]])
    assert np.allclose(again.probabilities(x), model.probabilities(x))
    with pytest.raises(ValueError, match="feature names"):
        linking.PairModel.load(tmp_path / "m.json", ("a", "c"))


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=80), st.text(min_size=1, max_size=80), st.floats(-1, 1))
def test_probabilities_are_probabilities(a: str, b: str, cos: float) -> None:
    model = linking.default()
    x = linking.matrix(a, slots.of(a), [(b, slots.of(b), cos)])
    assert x.shape == (1, len(linking.NAMES)) and np.isfinite(x).all()
    if model is not None:
        p = model.probabilities(x)
        assert ((0 <= p) & (p <= 1)).all()
    if change.default() is not None:
        assert 0.0 <= change.probability(a, b, cos) <= 1.0


def test_fit_learns_a_separable_rule() -> None:
    from shared_core.training.linking import fit

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3))
    y = (x[:, 0] - 0.5 * x[:, 2] > 0).astype(float)
    w, b, mean, std = fit(x, y)
    p = linking.PairModel(("a", "b", "c"), w, b, mean, std, 0.5, {}).probabilities(x)
    assert ((p >= 0.5) == (y > 0)).mean() > 0.95
    assert w[0] > 0 > w[2] and abs(w[1]) < abs(w[0])


def test_training_pairs_are_labelled_by_the_gold_slot() -> None:
    from shared_core.bench.corpus import RawEpisode, to_episode
    from shared_core.bench.tarl_mem_examples import Vectors
    from shared_core.index import default_embedder
    from shared_core.training.linking import change_pairs, pairs

    raw = RawEpisode("t-01", "personal", "user:t", (
        {"text": "i live in Oslo", "source": "user", "slot": "user.city", "many": False, "day": 0, "action": "append", "target": None},
        {"text": "my dog is called Rufus", "source": "user", "slot": "user.pets", "many": True, "day": 1, "action": "append", "target": None},
        {"text": "moved to Bergen last week", "source": "user", "slot": "user.city", "many": False, "day": 2, "action": "revise", "target": 0},
        {"text": "still in Bergen yeah", "source": "user", "slot": "user.city", "many": False, "day": 3, "action": "noop", "target": 2},
    ), "test")
    vectors = Vectors(default_embedder())
    x, y = pairs([to_episode(raw)], vectors)
    assert x.shape[1] == len(linking.NAMES) and sorted(y.tolist()) == [0.0, 0.0, 0.0, 1.0, 1.0]
    xc, yc = change_pairs([to_episode(raw)], vectors)
    assert yc.tolist() == [1.0, 0.0] and xc.shape == (2, len(change.NAMES))


def test_a_change_from_the_held_value_to_another_is_a_change() -> None:
    """"changed from X to Y" about an entry holding X (and not Y) changes it, however many words the two
    share; a route ("goes from A to B") or a Y the entry already holds does not."""
    from shared_core.change import replaced

    assert replaced("Sam's blood pressure status changed from 'Abnormal' to 'Normal'.", "Sam's blood pressure status: Abnormal")
    assert replaced("we moved from Leeds to York last month", "I live in Leeds")
    assert not replaced("we moved from Leeds to York last month", "I live in York now")
    assert not replaced("the train goes from Leeds to York", "I live in Leeds")


def test_a_thing_the_lexicon_knows_is_no_person() -> None:
    """"pager's mine this week": the guessed subject names an attribute's thing, so naming it again is
    evidence of the same slot, not of the same person (a person's name is dropped from the evidence)."""
    from shared_core.linking import person_words

    assert person_words("pager") == frozenset()
    assert person_words("alice") == frozenset({"alice"})
    assert person_words("martin mark") == frozenset({"martin", "mark"})


def test_closed_classes_and_set_values_are_changes_and_restatements_are_not() -> None:
    """A member of a closed class swapped for another ("light mode now" after "dark mode"), and a value set
    to one the entry lacks, are changes however the rest is worded; naming the same member again is not."""
    from shared_core.change import replaced

    assert replaced("light mode now", "I prefer dark mode in every app")
    assert replaced("aisle seat from now on", "I sit in the window seat on flights")
    assert replaced("Sofie works the day shift", "my partner Sofie works nights") and \
        not replaced("Sofie works the day shift, correct.", "sofie's on days now")
    assert not replaced("yep still dark mode everywhere", "I prefer dark mode in every app")
    assert replaced("cam-7 missed 3 heartbeats -> status offline", '{"device": "cam-7", "status": "online"}')
    assert not replaced('{"device": "cam-7", "status": "online", "rssi": -61}', '{"device": "cam-7", "status": "online"}')
    assert replaced("cut dining to 120, need to save", "dining out budget is 150")
    assert not replaced("set the dining budget to 150 again", "dining out budget is 150")


def test_a_key_path_names_its_parts() -> None:
    assert {"checkout", "max", "retry"} <= linking.specific('config.get("checkout.max_retries") -> 3')
    assert "4410" in linking.specific('GET /tickets/SUP-4410 -> {"priority": "P2"}')


def test_a_snapshot_is_stale_only_against_a_newer_one() -> None:
    """Two records that say when they were read: the later one is not stale, whatever its fields are
    called; without a time on both sides nothing is concluded."""
    assert stamps.newer('{"balance": 13210.02, "as_of": "2026-03-01"}', '{"balance": 12840.55, "as_of": "2026-02-01"}') == 1
    assert stamps.newer('{"status": "open", "cached_at": "2025-01-06T09:00Z"}', '{"status": "done", "updated": "2025-01-08"}') == -1
    assert stamps.newer('{"balance": 1, "as_of": "2026-03-01"}', "my balance is 12k") == 0
    assert stamps.newer("odometer_miles=48390 ts=2024-06-04T18:00Z", "odometer_miles=48650 ts=2024-06-08T18:00Z") == -1
    assert stamps.newer("strava (synced 2024-06-09): best=27:40", "strava (synced 2024-06-02): best=28:10") == 1


def test_a_tool_write_call_changes_its_record() -> None:
    """A write call is a change to what it writes, never a restatement of the old value; writing the value
    already held is one."""
    from shared_core.change import replaced

    assert replaced('config.set("model", "claude-haiku") -> {"ok": true}', 'config.get() -> {"model": "gpt-4o-mini"}')
    assert replaced('todo.complete(18) -> {"id": 18, "done": true}', 'todo.add -> {"id": 18, "text": "call mom"}')
    assert not replaced('config.set("model", "claude-haiku") -> {"ok": true}', 'config.get() -> {"model": "claude-haiku"}')


def test_another_person_in_a_person_valued_attribute_is_a_change() -> None:
    from shared_core.change import replaced

    assert replaced("PagerDuty · policy 'payments' · current on-call: Tobias Brandt", "on-call for payments this week is me (lena)")
    assert replaced("Daniel is my manager since the reorg", "my manager is Priya")
    assert not replaced("Priya is still my boss", "my manager is Priya")


def test_a_shell_prompt_is_no_price() -> None:
    from shared_core import slots

    assert slots.of("$ node -v\nv20.11.1").attribute != "price"
    assert slots.of("rent is $2400 a month").attribute == "price"


def test_a_balance_is_money_only_when_it_holds_money() -> None:
    """"a balance between work and comfort" linked a clothing preference to a gaming habit as two prices."""
    assert slots.of("Martin values smart-casual attire for its balance between professionalism and comfort").attribute != "price"
    assert slots.of("my account balance is 1,240 now").attribute == "price"
    assert slots.of("balance: £312.40").attribute == "price"
    assert slots.parse("user.pto_balance").attribute == "price"


def test_a_blood_type_is_named_in_its_short_forms_too() -> None:
    for text in ("blood type O neg, i donate every 3 months", "Donor card: Blood group A Rh+", "im O neg lol",
                 "Lab report: ABO/Rh — A Rh(D) positive", "User's blood type is O negative."):
        assert slots.of(text).attribute == "blood_type", text
    assert slots.of("a positive attitude helps").attribute != "blood_type"


def test_a_preference_named_by_what_it_is_of_is_that_preference() -> None:
    assert slots.of("Martin's sports preference has evolved to include wrestling").attribute == "sports preference"
    assert slots.of("Martin's beverage preference evolved to include smoothies").attribute == "beverage preference"
    assert slots.of("his preferences changed a lot").attribute == "preference"


def test_a_death_or_a_closure_ends_what_it_names() -> None:
    from shared_core.endings import ended

    assert ended("RIP nugget 😢 we buried him in the garden", "got a hamster!! his name is nugget")
    assert ended("nugget died last night", "got a hamster!! his name is nugget")
    assert not ended("nugget loves his wheel", "got a hamster!! his name is nugget")
    assert ended("yubikey set up on the bank app, removed authy", "bank 2fa is on authy")
    assert ended("gone off khachapuri, it's all Sichuan now", "obsessed with khachapuri rn")
    assert ended("dropped out of the mba, too much with the baby", "User is studying for a part-time MBA.")
    assert not ended("dropped the kids at school", "User is studying for a part-time MBA.")
    assert not ended("Sofia finished illustrating a picture book", "Sofia is a freelance illustrator")   # one job done
    assert ended("finished uni last june", "I'm at uni in Leeds")


def test_a_value_stated_again_after_its_end_is_revived_not_restated() -> None:
    from shared_core.endings import revived

    entry = "swapped the cetirizine for fexofenadine, way less drowsy"
    assert revived("we've got you down for cetirizine, that's what you're on", entry)
    assert not revived("no cetirizine for me any more", entry)
    assert not revived("swapped with lee, lee's got the pager", "lee is on call")


def test_a_stance_turned_around_on_the_same_value_is_a_flip() -> None:
    from shared_core.polarity import flipped

    assert flipped("Martin's movie preference has evolved to include horror films", "Martin Movies I dislike: Horror films")
    assert flipped("weirdly loving olives these days", "I can't stand olives")
    assert flipped("gone off sushi completely", "I love sushi")
    assert not flipped("I hate country music though", "I love jazz, mostly coltrane")      # another value
    assert not flipped("still can't stand olives", "I hate olives")                        # the same stance


def test_spoken_fillers_are_no_values() -> None:
    """"still me with the shellfish thing obviously" names one value, shellfish: a restatement of the allergy, not
    a further allergy to "thing" and "obviously"."""
    assert slots.of("still me with the shellfish thing obviously").values == {"shellfish"}
    values = slots.of("honestly kinda over sushi tbh").values
    assert "sushi" in values and not values & {"honestly", "kinda", "tbh"}


def test_a_value_set_in_money_and_an_ending_in_the_perfect_are_changes() -> None:
    """"got a raise to £56,500" sets the salary to an amount the entry lacks; "has given up football" ends it."""
    assert change.replaced("The user got a raise to £56,500.", "The user earns £52,000 a year.")
    assert endings.ends("Teo has given up football.") == ("football",)


@pytest.mark.parametrize(("first", "then"), [
    ("Olek is in year 2 at St Bride's primary", "and Zosia started nursery at Little Acorns"),   # "and" before a name
    ("Olek is in year 2", "and Zosia is in year 4"),
    ("my older son Felix loves Lego", "my younger son Emil has a peanut allergy"),               # a ranked relative
])
def test_a_second_child_named_after_a_connective_or_a_rank_is_kept_beside_the_first(first, then, tmp_path) -> None:
    """A name after "and"/"also" is the sentence's subject, and "my younger son" is a son: neither claim is the
    other's attribute changing, so both stay Accepted."""
    engine, out, _ = run([(first, "user"), (then, "user")], tmp_path)
    assert out[1].action is Action.APPEND
    assert sorted(e.text for e in engine.state("u").accepted) == sorted([first, then])
    assert slots.of(then).subject is not None


@pytest.mark.parametrize(("entry", "claim"), [
    ("Uses a Pixel 7.", "Got an iPhone 15, the Pixel went to her sister."),     # a thing passed on to a relative
    ("Team lead: Priya.", "Priya left; Marcus leads the team."),                # a bare "left" after the name
])
def test_a_value_said_to_be_gone_in_an_agent_s_note_is_replaced(entry, claim, tmp_path) -> None:
    """An agent's subjectless note that names the old value as gone changes it: never a noop that drops the
    new value, never a second current value beside the old."""
    engine, out, first = run([(entry, "user"), (claim, "user")], tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    assert [e.text for e in engine.state("u").accepted] == [claim]
    assert not endings.ends("Maya went to a friend's book launch")


@pytest.mark.parametrize(("entry", "claim"), [("Son Leo is 6.", "Leo turned 7 yesterday."),
                                              ("tank is 4", "tank turned 5 yesterday")])
def test_an_age_that_moved_on_revises_the_age(entry, claim, tmp_path) -> None:
    """Ages are one small number; two different ones of one subject are a birthday, not a second fact."""
    engine, out, first = run([(entry, "user"), (claim, "user")], tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    assert [e.text for e in engine.state("u").accepted] == [claim]
    assert slots.of("Works as a nurse.").subject is None       # a capitalised verb before "as" names nobody


def test_a_liked_value_no_longer_liked_ends_its_entry_even_on_a_multi_valued_attribute(tmp_path) -> None:
    """"Not really into jazz any more" turns "Likes jazz" around: the like is over, not a second taste beside it."""
    engine, out, first = run([("Likes jazz.", "user"), ("Not really into jazz any more.", "user")], tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    assert [e.text for e in engine.state("u").accepted] == ["Not really into jazz any more."]


def test_a_dose_moved_with_only_the_number_and_its_unit_revises_the_medicine(tmp_path) -> None:
    """"Dose upped to 100mg" names nothing but the quantity: the entry's one dose moved, not a second medicine."""
    engine, out, first = run([("Takes 50mg sertraline.", "user"), ("Dose upped to 100mg.", "user")], tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    engine, out, _ = run([("Takes 50mg sertraline.", "user"), ("Started omeprazole 20mg.", "user")], tmp_path / "b")
    assert out[1].action is Action.APPEND


def test_a_date_names_when_a_record_was_read_not_which_record() -> None:
    """"account.get (cached 2025-01-02)" is no record with the id 2025-01-02, and "record (2022):" is dated."""
    from shared_core import calls
    from shared_core.cues import CUES

    assert calls.subject('account.get (cached 2025-01-02) -> {"plan": "Free"}') is None
    assert calls.subject('orders.get("A-771") -> {"status": "shipped"}') == "a-771"
    assert CUES["cue_stale"].search("Pharmacy record (2022): sertraline 25mg.")


def test_a_thing_that_moved_to_another_holder_or_place_is_a_change(tmp_path) -> None:
    """"The keys are in the drawer" after "Dana has the keys": one thing, another place; never dropped as a repeat.
    A restatement naming the same holder ("held by Priyanka" after "with Priyanka") is no move, and "back in the
    drawer" is no stale snapshot ("back in 2019" is)."""
    engine, out, first = run([("Dana has the keys.", "user"), ("The keys are in the drawer.", "user")], tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    assert not change.replaced("User's spare key is held by Priyanka.", "the key's with Priyanka from work now")
    from shared_core.cues import CUES
    assert not CUES["cue_stale"].search("Spare key is back in the drawer.") and CUES["cue_stale"].search("back in 2019")


def test_a_tool_reading_the_field_of_an_agent_s_one_field_note_decides_it(tmp_path) -> None:
    """"Default branch: master." is a record of one field: a tool reading another value for that field changes it
    (it was dropped as a repeat), the same value repeats it; two notes of a list (reminders) are not compared as records."""
    from shared_core import records

    engine, out, first = run([("Default branch: master.", "user"), ("git remote show origin -> HEAD branch: main", "tool")],
                             tmp_path)
    assert out[1].action is Action.REVISE and out[1].target_id == first
    assert records.compare('orders.get("A-771") -> {"status": "processing"}', "Order A-771 status: processing.") is False
    assert records.compare("Reminder: call mum", "Reminder: buy milk") is None
