"""Value changes said the way chat and plain notes say them (sessions 30 to 33's probes), and two things of one kind
kept apart, through the engine's default policy on a real SQLite store, and the word-level rules behind them.
Hand-written here, in wordings the corpus does not use. The worst outcomes each guards against: a silent drop (a new
value decided ``noop``) and a lost thing (another thing's entry revised away)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given
from hypothesis import strategies as st
import pytest

from shared_core import (Claim, MemoryEngine, calls, change, contrast, distinct, endings, grounding, kin, linking, lists, members,
                         polarity, records, slots)
from shared_core.policy import RulePolicy
from shared_core.schema import Action
from shared_core.grounding import claim_features
from shared_core.quantities import nudges, quantities
from shared_core.reliability import hedged
from shared_core.written import written_alike

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def two(first: str, then: str, tmp_path, source: str = "user", first_source: str = "user") -> tuple[MemoryEngine, object, str]:
    """Writes ``first`` (the user's unless said), then ``then``; returns the engine, the second decision and the first
    entry's id."""
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text=first, namespace="u", source=first_source, observed_at=T0)).entry_id
    d = engine.write(Claim(text=then, namespace="u", source=source, observed_at=T0 + timedelta(days=1)))
    return engine, d, first_id


@pytest.mark.parametrize(("first", "then"), [
    ("Leo is in year 3.", "Leo's in year 4."),                       # a contraction before a place is "is"
    ("our plumber is dave", "plumber: mike from fixit"),             # a plain sentence against an agent's note
    ("User's go-to coffee order is a flat white.", "User's go-to coffee order is an oat cortado."),   # articles
    ("User reads on a Kindle.", "User reads paper books."),          # the value took its preposition with it
    ("User lives in a flat.", "User lives in a house with a garden."),
    ("I have a gym membership at PureGym.", "cancelled puregym, too expensive"),   # "too" of degree adds nothing
    ("I smoke.", "3 months smoke free today!!"),                     # a habit over, said by what one is free of
    ("i'm a pescatarian", "i eat everything now tbh"),               # a diet named by what one eats
    ("i'm on 20mg citalopram", "doc upped me to 30mg"),              # who moved the dose names no other thing
    ("sam is the on-call this week", "on call: jess"),               # a note's value is a name, capitals or not
    ("my dog eats 2 cups a day", "dog's on 1.5 cups a day, vet's orders"),    # a rate with a decimal
    ("the car is due a service in may", "the car is due a service in june, garage pushed it"),   # "in may": a month
    ("my timezone is GMT", "CET now, moved for work"),               # a zone's code alone names the attribute
    ("the party is on Saturday", "party's been bumped to Sunday"),    # "bumped" moves when something happens
    ("Book club meets on the first Thursday of the month", "book club's moving to second tuesdays"),  # "second": when
    ("User hates mushrooms.", "mushrooms have grown on me tbh, had them twice this week"),   # a stance turned around
    ("User can't stand jazz.", "ok i've come round on jazz, the kamasi washington album did it"),   # with no "like"
    ("User isn't a fan of cricket.", "warmed up to cricket after the ashes this summer"),
    ("User's pharmacy is the Boots on High Street.", "getting my prescriptions from the lloyds by the station now"),
    ("User's favourite band is Radiohead.", "boygenius has properly taken over as my favourite, sorry thom"),   # one
    ("User's favourite food is ramen.", "pho has overtaken ramen as my favourite food"),   # the value it overtook
    ("my usual coffee order is a flat white", "cant do dairy anymore so its oat cortados for me"),   # a coffee (blind probe)
    ("I drink my coffee black", "started taking milk in my coffee"),   # begun, on the one attribute: the value moved
    ("I run 3 times a week", "down to twice a week with the knee"),    # the one count it holds moved (was held waiting)
    ("My cat is called Tom", "Tom passed away last week"),             # the relative it names by name (was kept beside)
    ("we had a lodger in the spare room", "lodger found a place, moved out saturday, the spare room is ours again"),
    ("User has no pets.", "adopted a rescue greyhound yday, her name's dot"),   # "none" filled (was kept beside)
    ("I take sertraline 50mg daily", "not on any meds these days"),    # a value emptied (was kept beside)
    ("the boat's mooring is at pier 4", "boat mooring moved to pier 9"),   # the boat's mooring is the boat mooring
])
def test_a_changed_value_in_plain_words_revises_its_entry(first, then, tmp_path) -> None:
    """Each was a silent noop (or, for the gym, held in Pending as a second value): the new value is current and
    the old one is in History."""
    revised(first, then, tmp_path)


def cue(name: str, text: str, source: str = "user") -> float:
    """One of the claim's own cue features (``grounding.claim_features``), the claim written at T0."""
    return claim_features(Claim(text=text, namespace="u", source=source, observed_at=T0))[name]


def revised(first: str, then: str, tmp_path, source: str = "user") -> None:
    """``then`` (from ``source``, after ``first`` from the same) revises ``first`` and is all that is current."""
    engine, d, first_id = two(first, then, tmp_path, source, source)
    try:
        assert d.action is Action.REVISE and d.target_id == first_id
        assert [e.text for e in engine.state("u").accepted] == [then]
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then", "source"), [
    ("Drinks oat milk.", "Oat milk in coffee.", "assistant"),   # detail added at one end, a verb gone at the other: no swap
    ("Our plumber is Dave.", "Plumber: Dave.", "assistant"),    # the note names the value the sentence holds
    ("my manager is Priya", "Priya's still my manager", "user"),    # "'s still" is "is", not Priya's own "still"
    ("Our head chef is Marco.", "Marco's always been our head chef.", "user"),
    ("gym is $45 a month", "forty-five bucks a month for the gym", "user"),     # a count in words (blind probe)
    ("Flight BA117 LHR-JFK departs 18:30", "BA117 LHR-JFK scheduled departure 6:30 PM", "tool"),  # blind probe
    ("my meeting with the accountant is Friday at 10am", "Just confirming: accountant meeting, Fri 10:00.", "tool"),
    ("The fish tank holds 200 litres", "the tank is about 53 gallons", "user"),      # one amount in another unit
    ("User's dog Rolo weighs 14 kg", "rolo's around 31 lbs", "user"),
    ("User weighs 70 kg.", "im about 11 stone", "user"),      # the amount alone, in the user's unit (blind probe)
    ("Living room thermostat setpoint: 20 C", "Thermostat setpoint: 68 F", "tool"),
    ("[shipping] Parcel 55-KX weight: 2.5 kg", "[shipping] Parcel 55-KX: 2500 g", "tool"),   # the label runs on to
    ("I work at Bristol City Council", "Payslip - March - Employer: Bristol City Council - Net pay: 2,318.40",  # the field
     "document"),                                           # it states; a document reads a value again, as a tool does
    ("I switched to the 7:10 train, it's quieter.", "Station friend: Jo gets the 7:10 now, the quiet one at the back.",
     "third_party"),                                        # and so does someone else who tells it again
    ("SH-4471 status: delivered", '{"id":"SH-4471","state":"DELIVERED"}', "tool"),   # a record's status is its state
    ("hive 3's queen is unmarked", "hive 3 queen still hasnt got a dot on her", "user"),   # a possessive is no other hive
    ("my birthday is 12 May", "bday is may 12th, don't let me forget", "user"),   # "bday", and a date with its ordinal
    pytest.param("rent is 1040 a month", "paying £1,040 pcm", "user", marks=pytest.mark.xfail(strict=True, reason=(
        "the networks blended in session 45 append it (the change model reads 'pcm' for 'a month' as a change; the "
        "previous networks alone dropped it as a repeat): a repeat kept, nothing lost; README, where we lose"))),
    ("The Fox & Anchor quiz night is Tuesdays at 8pm.", "quiz at the fox is tuesday 8 as per usual mate", "user"),
    ("I have 2 kids", "we've got two children", "user"),     # the attribute's very values again
    ("I take 75mcg levothyroxine", "endo kept the levothyroxine dose, stays the same till spring", "user"),   # said so
    ("my sister's number is 07700 900555", "sis finally got a new phone lol, same number though", "user"),
])                                                                                          # the field it states
def test_a_restatement_in_another_shape_changes_nothing(first, then, source, tmp_path) -> None:
    engine, d, first_id = two(first, then, tmp_path, source=source)
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
        assert [e.text for e in engine.state("u").accepted] == [first]
    finally:
        engine.close()


def test_the_speaker_capitalised_mid_sentence_is_no_value(tmp_path) -> None:
    """"I'm" and "I've" are capitalised by rule, not names: on one key, "Osei's lovely, I'm staying with her" repeats
    "I've been put with Dr Osei" (it revised it, each side holding a "name" the other lacked)."""
    engine = MemoryEngine.open(tmp_path / "store")
    try:
        first = engine.write(Claim(text="Hanley's retired, I've been put with Dr Osei at the same surgery", namespace="u",
                                   source="user", slot="user.gp", observed_at=T0))
        d = engine.write(Claim(text="Osei's lovely, I'm staying with her", namespace="u", source="user", slot="user.gp",
                               observed_at=T0 + timedelta(days=1)))
        assert d.action is Action.NOOP and d.target_id == first.entry_id
    finally:
        engine.close()


def test_things_a_list_names_by_one_letter_are_different_things(tmp_path) -> None:
    """"Room C" is not "Room B" (it revised it); a letter that starts an id ("Order A-1001") is no letter id."""
    engine, d, _ = two("Room B is booked by sales.", "Room C is booked by finance.", tmp_path)
    try:
        assert d.action is Action.APPEND and len(engine.state("u").accepted) == 2
    finally:
        engine.close()
    assert slots.of("Room C is booked by finance.").subject == "room#c"
    assert slots.of("Order A-1001 shipped").subject == "order#a-1001"
    assert slots.of("I need a room. A big one.").subject == "user"
    assert slots.of("The rabbits eat Burgess Excel pellets.").subject == "the rabbits"    # the noun phrase ends at its verb


def test_the_word_rules_hold_on_their_own() -> None:
    assert change.replaced("noor plays striker.", "noor plays in goal.")
    assert not change.replaced("oat milk in coffee.", "drinks oat milk.")
    assert not change.replaced("no, amy and mark", "and mark does fridays")    # a negation is no swapped value
    assert not change.replaced("BA117 scheduled departure 6:30", "Flight BA117 departs 6:30")   # a word gone at the
    assert change.replaced("spotify tier: individual", "subscriptions.spotify.tier = family")   # front, none swapped
    assert written_alike("Leo's in year 4.") == "Leo is in year 4."
    assert written_alike("Leo's school is Oakwood") == "Leo's school is Oakwood"   # a possessive stays one
    assert written_alike("Leo's back hurts") == "Leo's back hurts"
    assert written_alike("Alarm: Sat/Sun 08:00") == "Alarm: Saturday/Sunday 8:00"      # a short day before its time
    assert written_alike("sat in traffic, sun is out") == "sat in traffic, sun is out"
    assert records.said("Our plumber is Dave.") == {"plumber": "dave"}
    assert records.said("Dave fixed the boiler, he is great") == {}
    assert endings.ends("officially smoke-free since may") == ("smoke",)
    assert cue("additive_cue", "added a celadon to the rotation") and cue("additive_cue", '{"skill_added": "rust"}')
    assert not cue("additive_cue", "got added to the payments team")       # the speaker is what moved
    assert not cue("additive_cue", "haha lina knows me too well")           # "too" of degree
    assert not cue("additive_cue", "nice, both porto hotels sorted then")    # two held things, none added
    assert hedged("Rail updates: industrial action may affect services on 9 September")   # a disruption that may come
    assert hedged("manager hinted at another bump in january, nothing official")
    assert slots.infer("$ cat .nvmrc\n20.11.1").attribute != "pet"           # a shell command's name, no attribute's word
    assert records.other("db host is 10.0.3.14", "$ cat .env\nAPI_BASE_URL=https://api.atlas.dev\nLOG_LEVEL=info")
    assert endings.ends("Peat-free compost 40L") == () and endings.ends("keep the recipes meat-free") == ()


@pytest.mark.xfail(strict=True, reason="the networks blended in session 45 revise 'I'm vegetarian.' with it (the negated "
                                      "diet reads as a change): the restatement supersedes its entry; README, where we lose")
def test_not_eating_meat_restates_a_vegetarian_diet(tmp_path) -> None:
    """"eats meat" names a diet ("i eat everything now" after "pescatarian" revises it); "don't eat meat" does not."""
    engine, d, first_id = two("I'm vegetarian.", "I don't eat meat.", tmp_path)
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
    finally:
        engine.close()


def test_a_count_in_words_is_the_slot_value_of_its_digits() -> None:
    """"three kids, zero sleep" holds the 3 of "we have 3 kids" (its slotted restatement was revising it), and a
    contraction ("we've") is no value."""
    assert slots.of("we've got two children").values == slots.of("I have 2 kids").values == {"2"}
    assert "3" in slots.of("three kids, zero sleep").values


def test_may_is_a_month_only_where_a_preposition_says_so() -> None:
    from shared_core.moments import other_day

    assert other_day("due in june".split(), "due in may".split())
    assert not other_day("it may rain in june".split(), "it rains in june".split())



def test_a_timestamp_s_zone_names_no_timezone() -> None:
    assert slots.family("on CET now")[0] == "timezone"
    assert slots.family("synced 2025-01-10 07:41 UTC") is None


# One-field notes ("timezone: UTC"), the way an agent or a tool writes a key and its value (session 31): a second
# note on the same key with another value is that key's new value. Each case was a silent drop or a second value.


@pytest.mark.parametrize(("first", "then", "source"), [
    ("timezone: UTC", "timezone: CET", "tool"),
    ("currency: GBP", "currency: EUR", "tool"),
    ("Notifications: on", "Notifications: off", "user"),
    ("Status: open", "Status: closed", "tool"),
    ("Manager: Priya", "Manager: Daniel", "tool"),
    ("thermostat: 19C", "thermostat: 21C", "tool"),             # a value shaped like an id is the key's value (blind probe)
    ("Parcel 7731 delivery address: 12 Oak Road", "Parcel 7731 delivery address updated: 4 Canal St", "tool"),  # no new key
    ("Ticket SUP-2210 assignee: J. Moreno", "SUP-2210 reassigned to A. Chen", "tool"),    # an initial's stop ends no sentence
    ("Plan: Basic", "Plan: Premium, billed monthly", "tool"),       # a label before a capitalised value: no one's name
])
def test_a_key_s_new_value_revises_its_note(first, then, source, tmp_path) -> None:
    revised(first, then, tmp_path, source)


@pytest.mark.parametrize(("first", "then", "first_source"), [
    ("currency: GBP", "currency: GBP", "tool"),
    ("User drives a 2015 Ford Fiesta", "Vehicle lookup: FORD FIESTA, first registered 2015", "assistant"),  # words of its own
])
def test_the_same_value_again_changes_nothing(first, then, first_source, tmp_path) -> None:
    engine, d, first_id = two(first, then, tmp_path, "tool", first_source)
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then"), [
    ("Reminder: buy milk", "Reminder: call mum"),        # a list's heading: each note is its own item
    ("Allergies: peanuts", "Allergies: shellfish"),      # a key of several values: one more
    ("User's favourite authors include Ursula K. Le Guin.", "add ted chiang to my fave authors"),   # favourites, plural
    ("User's podcasts: Hardcore History.", "add the rest is history to my podcasts"),     # "add ... to my": one more
    ("glazes in rotation at the studio: tenmoku", "added a celadon to the rotation"),   # was dropped as a repeat
])
def test_notes_of_a_list_or_a_many_valued_key_are_kept_side_by_side(first, then, tmp_path) -> None:
    kept_beside(first, then, tmp_path)


@pytest.mark.parametrize(("first", "then", "action"), [
    ("[vet] Biscuit (dog) weight: 12 kg", "[vet] Mochi (cat) weight: 4.1 kg", Action.APPEND),
    ("[bank] Current account balance: £1,240", "[bank] Savings account balance: £8,900", Action.APPEND),
    ("[thermostat] Kitchen setpoint: 20 C", "[thermostat] Bedroom setpoint: 17 C", Action.APPEND),
    ("[calendar] Dentist: Tuesday 09:30", "[calendar] Dentist: Thursday 11:00", Action.REVISE),
])
def test_a_log_s_tag_names_no_thing(first, then, action, tmp_path) -> None:
    """A one-word tag before a tool's line says which log wrote it: the pet, the account and the room after it tell
    two things apart as they do untagged (each revised the other), and one thing's line still changes it."""
    engine, d, first_id = two(first, then, tmp_path, source="tool", first_source="tool")
    try:
        assert d.action is action and (d.target_id == first_id) is (action is Action.REVISE)
        assert len(engine.state("u").accepted) == (2 if action is Action.APPEND else 1)
    finally:
        engine.close()


@pytest.mark.parametrize(("then", "action"), [
    ("still allergic to peanuts, the challenge failed", Action.NOOP),       # chat around a value said again
    ("still allergic to peanuts and now shellfish too", Action.APPEND),     # and one more beside it
    ("peanuts are a no-go for me, as you know, even a trace", Action.NOOP),  # "as you know": said before
])
def test_a_value_of_several_said_still_is_a_repeat_unless_one_is_added(then, action, tmp_path) -> None:
    """A many-valued attribute's claim with words the entry lacks was never a repeat (appended beside what it
    repeats); "still" says it is, unless it adds a value ("too")."""
    engine, d, first_id = two("User is allergic to peanuts.", then, tmp_path)
    try:
        assert d.action is action and (d.target_id == first_id) is (action is Action.NOOP)
    finally:
        engine.close()


def test_someone_the_entry_names_is_what_it_is_about(tmp_path) -> None:
    """"theo's 5 now" is about "User has a son, Theo, aged 4.": the son's name, held in an entry about the user, is the
    link (the subject's own words count for nothing, so it was appended beside the age it changes); a new fact about
    him is still kept beside it."""
    revised("User has a son, Theo, aged 4.", "theo's 5 now, had his party sunday, carnage", tmp_path)
    kept_beside("User has a daughter, Mia (7).", "mia started swimming lessons on tuesdays", tmp_path / "apart")


def test_a_work_line_is_another_line_and_a_mobile_number_a_phone(tmp_path) -> None:
    """"work phone is ..." is kept beside the user's phone, as a work email beside their email; "mobile number is" names
    a phone (it was a "mobile_id" no later phone claim could be about: a new number was appended beside the old)."""
    kept_beside("my phone number is 07700 900123", "work phone is 020 7946 0321", tmp_path / "phone")
    kept_beside("my email is li.wei@proton.me", "my work email is lwei@northwind.co", tmp_path / "email")
    revised("User's mobile number is +44 7700 900123.", "phone got nicked so new number: 07700 900456", tmp_path)
    assert slots.of("User's mobile number is +44 7700 900123.").attribute == "phone"
    assert slots.of("Work email: a@b.co").attribute == "work email"


@pytest.mark.parametrize(("then", "action"), [
    ("school whatsapp: apparently st anne's is merging with holy cross next september", Action.DEFER_VERIFY),
    ("Marco's old headteacher says he's coming back to the school in September.", Action.DEFER_VERIFY),
    ("the school secretary says ruby's in year 4 now", Action.REJECT_CONFLICT),
    ("school newsletter: marco moves to st anne's juniors from 1 september", Action.DEFER_VERIFY),   # a dated day
])
def test_hearsay_about_a_later_change_waits_and_about_now_is_rejected(then, action, tmp_path) -> None:
    """A third party's word of a change to come ("next september", "coming back ... in September") is a rumour that
    waits (it was rejected as a contradiction of what holds now); of a change already made it is rejected."""
    engine, d, first_id = two("ruby's in year 3 at st anne's, marco teaches her", then, tmp_path, source="third_party")
    try:
        assert d.action is action and d.target_id == first_id
    finally:
        engine.close()
    assert cue("cue_future", "congrats on the upcoming move!") and not cue("cue_future", "stripe.invoices.upcoming()")
    assert cue("cue_future", "The office moves to floor 5 from 1 June") and not cue("cue_future", "moved in on 1 June")


@pytest.mark.parametrize("policy", [None, RulePolicy()], ids=["default", "rules"])
@pytest.mark.parametrize(("first", "then"), [
    ("My order id is A-7731.", "I think my order id is B-1234."),
    ("our wifi password is plum-tree-42", "pretty sure the wifi password is oak-tree-17"),
])
def test_another_value_guessed_waits_beside_the_one_held(policy, first, then, tmp_path) -> None:
    """A hedged other value with nothing said of a change replaces nothing and does not stand beside the value held,
    for every policy: it waits or is refused (a blended retrain let it revise the order id; labels: hedged claims wait)."""
    with MemoryEngine.open(tmp_path / "store", policy=policy) as engine:
        held = engine.write(Claim(text=first, namespace="u", source="user", observed_at=T0)).entry_id
        d = engine.write(Claim(text=then, namespace="u", source="user", observed_at=T0 + timedelta(days=1)))
        assert d.action in (Action.DEFER_VERIFY, Action.REJECT_CONFLICT) and d.target_id == held   # the rules reject it
        assert [e.id for e in engine.accepted("u")] == [held] and (policy or d.action is Action.DEFER_VERIFY)


def test_call_me_names_what_one_is_called(tmp_path) -> None:
    """"call me Nessa, everyone does" changes the name the user goes by (its words said nothing of a name, and it was
    appended beside it); "call me on ..." and "call me whenever" ask for a call."""
    revised("my name is Inês", "call me Nessa, everyone does", tmp_path)
    assert slots.of("pls just call me Rob from now on").attribute == "name"
    assert slots.of("call me on 07700 900123").attribute == "phone"
    assert slots.of("you can call me whenever, evenings are best").attribute != "name"
    assert slots.of("everyone calls me kat now and i prefer it").attribute == "name"     # what everyone calls one
    assert slots.of("my mum calls me every sunday").attribute != "name"                 # a call, every week


def kept_beside(first: str, then: str, tmp_path) -> None:
    """``then`` is appended after ``first`` (both the user's) and both are current."""
    engine, d, _ = two(first, then, tmp_path)
    try:
        assert d.action is Action.APPEND
        assert sorted(e.text for e in engine.state("u").accepted) == sorted([first, then])
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then"), [
    ("The pharmacy opens at 8:00.", "pharmacy closes at 6 on weekdays"),
    ("Hotel check-in: from 15:00.", "checkout there is noon"),
    ("My flight to Lisbon departs at 09:10.", "lands in lisbon 11:40 local"),
    ("Outbound train to York leaves 08:15.", "return train is the 17:40"),
    ("My standup starts at 9:30.", "standup ends by 9:45 usually"),
])
def test_the_other_end_of_a_schedule_is_another_attribute(first, then, tmp_path) -> None:
    """Opening and closing, check-in and check-out, out and back: each end is kept, however alike the sentences."""
    kept_beside(first, then, tmp_path)


def test_one_end_of_a_schedule_moved_is_revised(tmp_path) -> None:
    revised("The pharmacy closes at 18:00.", "pharmacy shuts at half five now", tmp_path)


@pytest.mark.parametrize(("first", "then", "action"), [
    ("Team Atlas members: Ana, Ben, Chloe", "team.members('atlas') -> Ana, Ben, Chloe, Dev", Action.APPEND),
    ("User's streaming subscriptions: Netflix, Spotify", 'subscriptions.list() -> ["Netflix", "Spotify", "Disney+"]',
     Action.APPEND),
    ("User's languages: English, Portuguese", "languages: english, portuguese", Action.NOOP),
    ('{"containers":[{"name":"postgres","id":"a1b2c3"}]}',                       # a tool's JSON list, one more item
     '{"containers":[{"name":"postgres","id":"a1b2c3"},{"name":"redis","id":"d4e5f6"}]}', Action.APPEND),
])
def test_a_list_read_again_with_more_values_adds_them(first, then, action, tmp_path) -> None:
    """A further value is appended, not dropped as a repeat of the list it extends; the same list again is a repeat
    (under a label of its own, another list)."""
    assert not lists.relisted("Dislikes: peanuts, shellfish", "Allergies: peanuts, shellfish")
    engine, d, first_id = two(first, then, tmp_path, "tool", "tool")
    try:
        assert d.action is action and (action is Action.APPEND or d.target_id == first_id)
        assert first_id in [e.id for e in engine.state("u").accepted]
    finally:
        engine.close()


def test_which_notes_are_one_key() -> None:
    """Values compared only on one key's label; one thing only where the key holds one value."""
    assert records.compare("timezone: CET", "timezone: UTC") is True
    assert records.compare("Pet: cat", "Pet: dog") is True          # another value, though not the same item
    assert records.compare("Reminder: call mum", "Reminder: buy milk") is None
    assert records.one_state("timezone: CET", "timezone: UTC")
    assert not records.one_state("Pet: cat", "Pet: dog")
    assert not records.one_state("Reminder: call mum", "Reminder: buy milk")
    assert not records.one_state("timezone: CET", "currency: EUR")
    assert not records.one_state("Groceries: milk", "Groceries: eggs")      # a plural no family names: a list
    assert not records.one_state("Shopping list: milk", "Shopping list: eggs")
    assert records.one_state("Status: closed", "Status: open")


@pytest.mark.parametrize(("first", "then"), [
    ("my daughter is in year 2", "she's in year 3 after the summer"),      # was a silent noop
    ("leo's in grade 4", "leo started grade 5 this week"),
    ("reading book 2 of the expanse", "started book 3 last night"),
])
def test_a_number_its_noun_labels_moved_on_is_the_value_changing(first, then, tmp_path) -> None:
    """"year 3" after "year 2": the same quantity with another number, linked by its noun however the rest is worded."""
    engine, d, first_id = two(first, then, tmp_path)
    try:
        assert d.action is Action.REVISE and d.target_id == first_id
    finally:
        engine.close()


def test_labelled_numbers_are_quantities_of_their_noun() -> None:
    from shared_core.quantities import quantities, requantified

    assert quantities("boarding moved to gate 31") == {"gate": frozenset({"31"})}
    assert quantities("dog's on 1.50 cups a day") == {"per day": frozenset({"1.5"})}
    assert requantified("she's in year 3 after the summer", "my daughter is in year 2")
    assert not requantified("my daughter is in year 2", "my daughter is in year 2 still")
    assert not requantified("we're on floor 4", "the bins go out on week 1 and week 3")    # another noun
    assert requantified("doc upped me to 30mg", "i'm on 20mg citalopram")     # who moved it names no other thing


# Two things of one kind told apart by a word before their noun (``contrast``): each pair below revised its first
# entry or was dropped as a restatement.
@pytest.mark.parametrize(("first", "then"), [
    ("the Leeds office opens at 8", "the York office opens at 9"),
    ("the basic plan costs $9 a month", "the pro plan costs $19 a month"),
    ("the big suitcase is in the loft", "the small suitcase is under the bed"),
    ("my work laptop is a Dell", "my personal laptop is a MacBook"),
    ("the staging database is on db-02", "the production database is on db-07"),
    ("our older daughter is at Hillside", "our younger daughter is at Oakfield"),
    ("the Tuesday class is at 6pm", "the Thursday class is at 7pm"),
    ("manager of the Leeds branch: Tom", "manager of the York branch: Sue"),    # a note's label names the thing
    ("owner of payments-service: Priya", "owner of billing-service: Omar"),     # a compound's parts
    ("the front-end team uses React", "the back-end team uses Go"),
    ("Desk 14 is Priya's", "Desk 22 is Omar's"),                                 # a numbered desk, apartment, plot ...
    ("Apartment 3B pays £1200", "Apartment 5A pays £1350"),
    ("the kids' dentist is Dr Lee", "my dentist is Dr Shah"),                   # a relative's, then the user's own
    ("the twins' school is St Mary's", "my school is Trinity"),
    ("my car insurance is with Admiral, renews in March", "home insurance is with Aviva, renews october"),  # "car" is
                                                                    # a family's cue, here of the insurance's kind
    ("Standing order: £50 to Savings on the 1st", "Standing order created: £20 to Holiday fund on the 15th"),  # made
    ("Outbound train to Leeds: 08:15 from platform 3", "return train is the 17:40"),    # a label's phrase ends at "to"
    ("Front door code for the office: 4471", "back door code is 9902"),
    ("User's Chase checking account ends in 4821.", "my chase savings ends 9930"),     # a kind of a closed class
    ("Home insurance policy HX-2231 renews on 1 March.", "car insurance, policy MT-7781, renews 15 july"),
    ("Staging API base URL: https://stg.api.acme.io", "production api base url is https://api.acme.io"),
    ("User's email: dana@acme.io.", "my personal one is kat.m@proton.me"),      # "one" of the kind, told by a word
    ("User's car insurance is with Admiral.", "went with aviva for the home insurance"),     # the kind it is for
    ("User's passport expires on 2027-08-19.", "my driving licence runs out oct 2026"),     # another document
    ("User's Q1 sales target is $250k.", "q2 target came through, 300k"),                  # another quarter's
    ("disk usage on db-1 is 71%", "disk usage on db-2 is 40%"),     # another host's reading (was revising db-1's)
    ("config.timeout = 30", "config.retries = 3"),                  # another key of the config (was dropped as a repeat)
    ("Okta system log: user asha.k added to group prod-admins",      # the id after its kind's noun says which user
     "Okta system log: user ben.w added to group prod-admins"),
    ('$ gh pr view 482 --json state\n{"state":"OPEN"}', '$ gh pr view 490 --json state\n{"state":"OPEN"}'),  # another PR
    ("my therapist is Joanna Wu", "sessions every other thursday at 6"),    # when, beside who: the family's other attribute
    ("User's mobile number is 555-0134.", "my landline is 555-0143"),       # two kinds of phone
    ("User has a dentist appointment on Tuesday at 9 AM.", "eye doctor tuesday at 11"),    # what one has is the thing
    ("User's flight to Rome departs at 10:20.", "return flight from rome leaves 16:05"),     # the two legs of a trip
])
def test_another_thing_of_the_same_kind_is_kept_beside_the_first(first, then, tmp_path) -> None:
    kept_beside(first, then, tmp_path)


@pytest.mark.parametrize(("first", "then"), [
    ("the Leeds office opens at 8", "the Leeds office opens at 9 now"),
    ("the staging database is on db-02", "the staging database moved to db-05"),
    ("my old phone is an iPhone 11", "my new phone is a Pixel 8"),          # a word of when names one thing twice
    ("the window seat is my favourite", "the aisle seat is better for me these days"),   # a value a family names
    ("manager of the Leeds branch: Tom", "manager of the Leeds branch: Sue"),
    ("the kids' dentist is Dr Lee", "the kids' dentist is Dr Shah now"),
    ("owner of payments-service: Priya", "owner of payments-service: Omar"),      # one compound, both sides
    ("the front-end team uses React", "the front-end team uses Vue now"),
    ("my car insurance is with Admiral", "car insurance is with Direct Line now, admiral wanted silly money"),
    ("Outbound flight to Rome: AZ 201 on June 2", "outbound flight is AZ 205 now, they moved us"),
    ("User's salary is paid into their savings account.", "salary goes into my checking account now"),   # a kind as
    ("Staging DB host: db-stg-1.internal", "staging db moved to db-stg-2.internal"),          # the value, or the same
    ("my phone number is 07700 900000", "my new one is 07700 900123"),                      # "one" said when
    ("my passport expires on 2027-08-19", "renewed the passport, expires 2037-08-01 now"),
    ("my locker is L-1", "my locker is L-2"),                      # an id after the verb is the value
    ("my cell is 555-0101", "my mobile is 555-0199 now"),          # one kind of phone, two words for it
    ("User's flight to Rome departs at 10:20.", "flight to rome now leaves 11:40"),     # the same leg moved
])
def test_the_same_thing_changing_still_revises(first, then, tmp_path) -> None:
    revised(first, then, tmp_path)


def test_only_the_leading_noun_phrase_tells_things_apart() -> None:
    assert contrast.apart("the evening train leaves at 18:05", "the morning train leaves at 7:10")
    assert not contrast.apart("the morning train leaves at 7:25", "the morning train leaves at 7:10")
    assert not contrast.apart("we painted the spare room yellow", "the spare room is painted grey")   # no leading phrase
    assert not contrast.apart("the user's mother-in-law says Teo quit", "the user's son Teo plays football")   # no verb


@given(st.text(max_size=60), st.text(max_size=60))
def test_apart_is_symmetric_and_never_splits_a_text_from_itself(a, b) -> None:
    assert contrast.apart(a, b) == contrast.apart(b, a)
    assert not contrast.apart(a, a)


@pytest.mark.parametrize(("first", "then"), [
    ("physio twice a week at the clinic", "down to once a week now, knee's much better"),
    ("the pill is once a day", "the doc moved me to twice a day"),
    ("I water the tomatoes daily", "watering the tomatoes twice a day in this heat"),
    ("pension contribution is £200 a month", "upping the pension to £300/month from next month"),
])
def test_how_often_said_in_words_moves_on(first, then, tmp_path) -> None:
    """Session 33's probes: "once a week" after "twice a week" is the one quantity moved on (it was appended beside
    it, or, for the tomatoes, dropped as a repeat)."""
    revised(first, then, tmp_path)


def test_a_count_moved_for_another_thing_keeps_both(tmp_path) -> None:
    kept_beside("the dog gets fed twice a day", "the cat gets fed once a day", tmp_path)


def test_how_often_reads_as_a_count_per_period() -> None:
    assert quantities("I go to the gym 3x a week") == quantities("gym three times weekly") == {"per week": {"3"}}
    assert quantities("cleaner comes every other week") == quantities("the cleaner is fortnightly") == {"per week": {"0.5"}}
    assert quantities("1 cup of kibble twice daily.") == {"per day": {"2"}}
    assert quantities("daily target is 1800 kcal") == {}             # "daily" before a noun names a thing
    assert quantities("bins every tuesday and friday") == {}         # a list of days is left alone
    assert quantities("upping it to 300/m") == {"per month": {"300"}} and quantities("a 5pm meeting") == {}


@given(st.text(max_size=80))
def test_quantities_are_numbers_per_unit(text) -> None:
    for values in quantities(text).values():
        assert all(float(v) >= 0 for v in values)


def test_someone_new_joining_is_no_change(tmp_path) -> None:
    """"new" before a joiner ("new starter", "new hire") says who joined, not that a value changed ("new number")."""
    kept_beside("Priya and Tom are on my team", "new starter Aisha joined the team today", tmp_path)
    assert cue("update_cue", "new hire jules joins the rotation on the 20th") == 0
    assert cue("update_cue", "my new phone is a pixel") == 1


def test_a_bare_or_labelled_noun_phrase_still_leads() -> None:
    """Session 33's blind probes: "personal email is ..." after "my work email is ...", and a document's label before
    its sentence ("Staff handbook: the Manchester office ...") were read as one email, one office."""
    assert contrast.apart("personal email is jess.r@gmail.com", "my work email is j.reyes@fenwick.co")
    assert contrast.apart("Staff handbook: the Manchester office is on floor 2", "Staff handbook: the London office is on floor 4")
    assert not contrast.apart("started at kpmg last monday", "started at deloitte last year")   # no noun phrase leads


def test_a_new_value_given_with_the_old_one_as_the_reason_revises(tmp_path) -> None:
    """"light mode, dark was hurting my eyes" names the old value too: it was dropped as a repeat (a blind probe)."""
    revised("my laptop is set to dark mode", "light mode, dark was hurting my eyes in the daytime", tmp_path)
    assert not members.other("dark mode still, light is too bright", "prefers dark mode")     # the old value first


def test_a_time_with_a_dot_and_a_day_in_words_are_written_alike() -> None:
    assert written_alike("leaves at 6.15am") == written_alike("leaves at 06:15") == "leaves at 6:15"
    assert written_alike("the 7.40 train") == "the 7.40 train"          # no meridiem: a dot may be a decimal point
    assert written_alike("Check-in: from 3:00 PM") == "Check-in: from 3:00" == written_alike("Check-in: from 15:00")
    assert written_alike("standup at 9:30 am") == "standup at 9:30"       # "at" before a meridiem: the meridiem is read
    assert written_alike('{"start": "09:30:00"}') == '{"start": "9:30"}'            # a tool's zero seconds
    assert written_alike("lunch at noon") == written_alike("lunch at 12pm") == "lunch at 12:00"
    assert written_alike("born on the ninth of February") == written_alike("born on the 9th of February")
    assert written_alike("the first time") == "the first time"
    assert written_alike("we pay twelve hundred a month") == "we pay 1200 a month"
    assert written_alike("fixed at 4.20% until 2027") == "fixed at 4.2% until 2027" and written_alike("5.0 %") == "5 %"
    assert written_alike("requires python 3.10") == "requires python 3.10"      # a version's zero is no rate's
    assert written_alike("check in from 3 p.m.") == written_alike("check in from 15:00")     # not "from 3:00 p.m."
    assert written_alike("twenty-first birthday, the big three-oh") == "twenty-first birthday, the big 3-oh"


@pytest.mark.parametrize(("first", "then"), [
    ("Home address: 14 Elm Road, Sheffield", "work address is 2 Kelham Square"),
    ("living room lights: off", "kitchen lights: on"),
    ("Car insurance renewal: March", "home insurance renewal is in august"),
])
def test_a_note_s_label_tells_its_thing_apart(first, then, tmp_path) -> None:
    """Session 34's probes: a note's label in plain words ("Home address:") leads like a sentence's noun phrase, and a
    room or a kind a family names ("living room") still says which thing; they were revising each other."""
    kept_beside(first, then, tmp_path)
    revised("Home address: 14 Elm Road, Sheffield", "home address is now 3 Park Lane, Leeds", tmp_path / "again")
    assert not contrast.apart('smartlock.status() -> {"battery": 12}', "Your smart lock battery is at 64%")   # no label


def test_a_move_for_a_new_job_is_a_move_and_a_sis_is_a_sister(tmp_path) -> None:
    """A blind probe: "my sis moved up to glasgow for her new job" after "My sister lives in Bristol" was a second fact
    (the job, the reason, was read as the attribute, and "sis" as nobody the entry names)."""
    revised("My sister lives in Bristol", "my sis moved up to glasgow for her new job", tmp_path)
    assert slots.infer("moving to leeds for a new job").attribute == "residence"
    assert slots.infer("got a new job at tesco").attribute == "employer"
    assert slots.same_subject(slots.infer("my mum lives in york"), slots.infer("my mother moved to leeds"))


@pytest.mark.parametrize(("first", "then"), [
    ("disk usage /dev/sda1: 91%", "disk usage /dev/sdb1: 34%"),                      # an id in a note's label names it
    ("my grandma is in sunnyfields care home", "grandad's still at home in the bungalow in rhyl"),   # two relatives
    ("the spare house keys are with tom next door", "car keys live in the bowl by the front door"),   # "live": a verb
    ("thermostat living_room setpoint: 21C", "thermostat bedroom setpoint: 18C"),     # one label's last word, two keys
    ("User prefers window seats on flights.", "on trains i like a table seat facing forward"),   # two ways of travelling
    ("printer toner black: 15%", "printer toner cyan: 60%"),                          # labels a word apart: two keys
    ("GitHub API rate limit: 5000/hr", "GitHub API rate limit remaining: 4210"),      # a label that runs on
    ("My birthday is 3 May.", "wife's birthday's the 9th of May"),                    # a relative's, no "my"
    ("Zendesk #48213 created - priority: normal", "Zendesk #48219 created - priority: urgent"),   # "#" and a number
    ("Check-in: from 15:00", "Check-out: by 11:00"),                                  # two ends of one stay
    ("Arrival: 14 June", "Departure: 17 June"),
    ("warriors fan since the we believe team", "my partner is a celtics fan, we don't talk about it"),   # the partner's
    ('gh repo list -> ["dotfiles"]', "gh repo create tarl-bench --private -> Created repository user/tarl-bench"),  # made
    ("Slack channels joined: #eng-platform.", 'slack.conversations.join -> {"ok": true, "channel": "#incident-response"}'),
    ("Installed VS Code extensions: Prettier.", "$ code --install-extension ms-python.python -> successfully installed"),
    ("User rents plot 14B at Hillside Allotments.", "my dad's got plot 22 at hillside"),    # the user's thing, a relative's
    ("User's team standup is on Mondays at 9:30.", "design crit is mondays at 11"),     # two meetings of one team
])
def test_blind_probes_of_two_things_stay_two(first, then, tmp_path) -> None:
    """Blind probes (sessions 33, 34, 41 and 42) that dropped or replaced a true fact."""
    kept_beside(first, then, tmp_path)
    assert not calls.adds_another("npm install react@18.2.0 -> added 1 package", "react@17.0.2 installed")   # the same
    assert calls.adds_another("$ sudo ufw allow from 10.0.4.22 to any port 5432 -> Rule added", "firewall allows 10.0.4.17")
    assert not calls.adds_another("$ nvm install 20.11.1 -> installed", "we pin node 18")     # a version: no other thing
    assert not calls.adds_another('GET /v1/deployments/d7 -> {"id": "d7", "created": "2024-05-20"}', "staging pool is 20")
    assert slots.infer("my boss is on holiday").subject == "user"      # the manager family's word, not a relative's
    assert not contrast.apart("on the bus now, the trains are a mess", "I commute on the train")   # the way is the value
    assert not records.other("notification settings: push only", "Notification preference: email only")   # two words
    assert slots.infer("my partner always gets a double espresso").subject == "partner"     # an adverb before the verb
    assert slots.infer("Mia's little brother Sam is 4").subject == "mia.brother"       # a ranked relative of Mia's
    assert not kin.about_relative("my dentist is dr okafor", "seen by Dr Okafor")    # a role the user has filled
    assert not kin.about_relative("my sister lives in glasgow", "sis moved down to manchester")    # "sis" names her
    assert linking.names_thing("Tesla Model 3 still going strong", "my wife drives a Tesla Model 3")   # her car again
    assert not linking.names_thing("warriors fan since the we believe team", "my partner is a celtics fan")


@pytest.mark.parametrize(("first", "then", "source"), [
    ("Router: BT Smart Hub 2", "Model: BT Smart Hub 2", "tool"),                     # another label, the same value
    ("Kew Gardens opens at 10am.", "Kew Gardens opening time: 10:00", "user"),        # "opens", "opening": one word
    ("I take 50mg of sertraline every day.", "still on the sertraline, 50 a day", "user"),   # the dose said again
])
def test_blind_restatements_read_as_no_swap(first, then, source, tmp_path) -> None:
    """Blind restatement probes (session 35) the contract made revise or reject: a word was read as a swapped value."""
    assert not change.replaced(written_alike(then), written_alike(first))
    engine, d, first_id = two(first, then, tmp_path, source=source, first_source=source)
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
    finally:
        engine.close()
    assert change.unchanged("get the GWR from Reading into Paddington every day, same as ever")
    assert not change.unchanged("I'm on my own sim again, 07700 900412, same as before")    # a value come back


def test_still_and_yeah_swap_no_value(tmp_path) -> None:
    """"still in sheffield yeah" after "Lives in Sheffield" read as two words swapped for one (a blind restatement
    probe revised its entry)."""
    assert not change.replaced("still in sheffield yeah", "Lives in Sheffield")
    assert change.replaced("still lives in leeds yeah", "Lives in Sheffield")


@pytest.mark.parametrize(("first", "then"), [
    ("my rent is 950 a month", "landlord put the rent up again"),
    ("netflix is 10.99 a month", "netflix hiked the price again"),
    ("my overdraft limit is 500", "bank lowered my overdraft limit"),
])
def test_a_quantity_moved_to_a_number_unsaid_revises(first, then, tmp_path) -> None:
    """The entry's number no longer holds: each was dropped as a repeat (own probes, session 34)."""
    revised(first, then, tmp_path)
    assert not nudges("rent is still 950, landlord didnt put it up", "my rent is 950 a month")
    assert not nudges("the electricity bill went up again", "my rent is 950 a month")      # another thing's


def test_a_day_with_slashes_is_written_alike_where_it_can_only_be_one_day() -> None:
    assert "feb-28 2026" in written_alike("Tenancy term ends: 28/02/2026") and "feb-28 2026" in written_alike("ends 28 Feb 2026")
    assert written_alike("the big day's 21/9") == written_alike("the big day's 21 Sep")
    assert written_alike("car tax: due 01/09/2025") == written_alike("car tax: due 1 September 2025")   # day first
    assert written_alike("dob 14/03/90") == written_alike("dob 14 March 1990")     # a two-digit year as %y reads it
    assert written_alike("due 03/05/24") == written_alike("due 3 May 2024")
    for text in ("open 24/7", "1/2 a cup", "50/50 split", "2024/25 tax year"):
        assert written_alike(text) == text


def test_a_street_called_old_is_no_stale_snapshot() -> None:
    """"London office: 90 Old Street" was held as a stale cache (a blind probe left the document's new fact waiting)."""
    assert not cue("cue_stale", "London office: 90 Old Street, London EC1V 9AX", "document")
    assert cue("cue_stale", "Old address: 5 King St", "document")
    assert cue("cue_stale", "my old address was 5 King St", "document")


def test_a_choice_made_is_a_change_but_going_with_someone_is_not(tmp_path) -> None:
    """"went with Direct Line this year, Admiral wanted silly money" was kept beside "Car insurance is with Admiral"."""
    revised("Car insurance is with Admiral.", "went with Direct Line this year, Admiral wanted silly money", tmp_path)
    assert cue("update_cue", "opted for monzo") and not cue("update_cue", "went with my sister to the dentist")
    assert cue("update_cue", "DELETE /contacts/ct_88a1/tags/vip -> 204", "tool")    # a request that removes a value
    revised("Rowan works as a paramedic.", "Rowan retrained and works as a nurse.", tmp_path / "retrained")


@pytest.mark.parametrize(("first", "then"), [
    ("I get notifications by email", "turned off email notifications"),
    ("I get the weekly newsletter from the guardian", "unsubscribed from the guardian newsletter"),
    ("autoplay is on in netflix", "turned autoplay off in netflix"),
])
def test_switching_off_what_the_entry_has_on_revises_it(first, then, tmp_path) -> None:
    """Each was dropped as a repeat (own probes, session 34): it names the entry's thing again, switched off."""
    revised(first, then, tmp_path)


def test_a_thing_s_own_id_in_the_other_record_is_one_thing() -> None:
    """Two subjects with ids are two things, unless one's id (letters and digits) is in the other's text: a booking
    that lists flight KL1009 is the thing a note on flight KL1009 is about. A bare number is no such id."""
    booking = slots.of('{"booking": "RT4WZN", "flight": "KL1009", "depart": "2025-07-10T18:40"}')
    note = slots.of("Flight KL1009 now departs 19:55")
    assert not distinct.things(note, booking, "Flight KL1009 now departs 19:55",
                               '{"booking": "RT4WZN", "flight": "KL1009", "depart": "2025-07-10T18:40"}')
    other = "Flight KL1011 now departs 19:55"
    assert distinct.things(slots.of(other), booking, other, '{"booking": "RT4WZN", "flight": "KL1009"}')
    a, b = "Item 9 is stored in bin 27", "Item 3 is stored in bin 9"
    assert distinct.things(slots.of(a), slots.of(b), a, b)


def test_a_carrier_s_note_on_a_tracked_parcel_revises_the_order_it_tracks(tmp_path) -> None:
    engine = MemoryEngine.open(tmp_path / "store")
    try:
        order = engine.write(Claim(text='{"order_id": "55120", "status": "shipped", "carrier": "DPD", "tracking": "QX8812ZZ"}',
                                   namespace="u", source="tool", observed_at=T0))
        d = engine.write(Claim(text="DPD: QX8812ZZ delivered to 4 Canal St. Signed for by ANA.", namespace="u",
                               source="tool", observed_at=T0 + timedelta(days=1)))
        assert d.action is Action.REVISE and d.target_id == order.entry_id
    finally:
        engine.close()


def test_an_amount_that_moved_in_another_unit_revises_its_entry(tmp_path) -> None:
    """"64°F" is 17.8 °C in the entry's unit (``units``): the setpoint moved, not a second one."""
    revised("Thermostat setpoint: 21°C", "Thermostat setpoint: 64°F", tmp_path, source="tool")


def test_a_record_s_key_with_one_value_holds_one_value(tmp_path) -> None:
    """A loyalty account's "member" key names the one member of that record, not a team's several members: its tier
    moving revises the record (it was appended beside it as a further member); a key holding a list keeps several."""
    revised('{"club": "Avios", "member": "K. Osei", "tier": "Bronze"}', '{"club": "Avios", "member": "K. Osei", "tier": "Silver"}',
            tmp_path, source="tool")
    assert not slots.of('{"member": "K. Osei", "tier": "Bronze"}').many
    assert slots.of('{"members": ["ana", "raj"], "team": "ops"}').many


def stays(first: str, then: str, tmp_path, source: str, action: Action) -> None:
    """``then`` (from ``source``, after the user's ``first``) is decided ``action`` about ``first``, which stays the only
    Accepted entry."""
    engine, d, first_id = two(first, then, tmp_path, source=source)
    try:
        assert d.action is action and d.target_id == first_id
        assert [e.id for e in engine.state("u").accepted] == [first_id]
    finally:
        engine.close()


def test_a_booking_site_s_check_in_against_the_place_s_own_waits(tmp_path) -> None:
    """The labels' example of a source neither clearly weaker nor stronger: a booking site's check-in time against the
    guesthouse's own email waits in Pending (unhedged hearsay against a current fact, it was rejected); a booking site's
    word on anything but a stay's terms is no such page."""
    stays("the guesthouse in porto emailed: check-in from 3pm, late arrivals fine",
          "Agoda page for Casa Ribeira: check-in 13:00-20:00", tmp_path, "web", Action.DEFER_VERIFY)
    assert cue("cue_listing", "Booking.com listing for Casa Ribeira: check-out by 11", source="web")
    assert not cue("cue_listing", "A travel site profile still lists the seat preference as window.", source="web")


def test_a_recap_of_the_value_from_before_a_change_contradicts_it(tmp_path) -> None:
    """An assistant's "still" of the value the user just changed is no repeat (it was dropped as one): it is rejected,
    and the user's change stays current. Its "still" of the new value is a repeat."""
    stays("bumped my running to 5 days a week, knees are fine", "Great, so you're still doing 3 runs a week.", tmp_path,
          "assistant", Action.REJECT_CONFLICT)
    engine, d, _ = two("bumped my running to 5 days a week, knees are fine", "Nice, still 5 runs a week then.", tmp_path / "b",
                       source="assistant")
    engine.close()
    assert d.action is Action.NOOP


def written(*said: tuple[str, str]) -> list:
    """Writes each ``(source, text)`` in order into one namespace of a fresh store; returns the decisions."""
    engine = MemoryEngine.open()
    try:
        return [engine.write(Claim(text=text, namespace="u", source=source, observed_at=T0 + timedelta(hours=n)))
                for n, (source, text) in enumerate(said)]
    finally:
        engine.close()


def test_a_recap_naming_some_of_the_changed_value_repeats_it() -> None:
    """The assistant's recap of the value a change set names part of it ("now uses the YubiKey"); it was rejected as a
    conflict, or revised the record it repeats. Where the entry ends the value the recap names, the recap is stale."""
    d = written(("user", "bank logins use the authenticator app on my old iphone"),
                ("user", "put all the 2fa on a yubikey now, the old iphone sits in a drawer"),
                ("assistant", "Your bank 2FA now uses the YubiKey."))
    assert [x.action for x in d] == [Action.APPEND, Action.REVISE, Action.NOOP] and d[2].target_id == d[1].entry_id
    d = written(("tool", 'trains.status("9O12") -> {"dep": "06:55", "platform": null, "status": "on time"}'),
                ("tool", 'trains.status("9O12") -> {"dep": "07:20", "platform": "4", "status": "delayed"}'),
                ("assistant", "Your train 9O12 now leaves at 07:20."))
    assert d[2].action is Action.NOOP and d[2].target_id == d[1].entry_id
    d = written(("user", "ditched lastpass after the breach, everything is in Bitwarden now"),
                ("assistant", "You keep your passwords in LastPass."))
    assert d[1].action is Action.REJECT_CONFLICT


@pytest.mark.parametrize(("first", "then"), [
    ("The API service runs on Python 3.12", "the data pipeline is still on python 3.10"),
    ("The printer is on the second floor", "the scanner is on the third floor"),
])
def test_two_things_each_named_first_by_its_noun_are_two_things(first, then, tmp_path) -> None:
    """Both sentences open on "the <noun>" and the nouns differ: another thing's value, kept beside (it revised the
    first thing's)."""
    kept_beside(first, then, tmp_path)


@pytest.mark.parametrize(("first", "then"), [
    ("My girlfriend's name is Jess", "me and jess broke up last month, seeing Tom now"),   # "me and X", X named lower-case
    ("Our cat Pip eats Felix dry food", "vet put pip on a weight diet so it's prescription dry food only from here on"),
    ("I run on the treadmill", "been running outside all spring, can't go back to the treadmill"),   # was dropped
    ("My daughter Isla goes to Northgate Primary",
     "isla started at riverside this term, northgate just wasnt working out for her"),
])
def test_session_49_blind_probe_changes_revise(first, then, tmp_path) -> None:
    """Changes of session 49's blind probe pairs, reworded: a couple that split said "me and jess" of a partner named with a
    capital (she was another subject, so the change was kept beside); "from here on" says a change as "from now on" does;
    "can't go back to the treadmill" ends it (it was dropped as a repeat), and so does "... just wasnt working out"."""
    revised(first, then, tmp_path)


@pytest.mark.parametrize(("first", "then"), [
    ("I collect vintage postcards", "been collecting vintage maps on top of the postcards"),
    ("We grow tomatoes in the greenhouse", "growing chillies in the greenhouse on top of the tomatoes"),
])
def test_one_more_on_top_of_the_ones_held_is_kept_beside(first, then, tmp_path) -> None:
    """"... maps on top of the postcards" adds one more (it was dropped as a repeat of the one held)."""
    kept_beside(first, then, tmp_path)
    assert not cue("additive_cue", "on top of all that i signed the lease on a flat in porto")


def test_a_membership_that_ran_out_ends_the_place_it_named() -> None:
    """"boulder barn membership ran out" ends Boulder Barn: the assistant's recap of it afterwards is stale (rejected; it
    was taken for a repeat of the change)."""
    d = written(("user", "I climb at Boulder Barn, got the 12 month membership"),
                ("user", "boulder barn membership ran out, doing the arch these days"),
                ("assistant", "You climb at Boulder Barn."))
    assert [x.action for x in d] == [Action.APPEND, Action.REVISE, Action.REJECT_CONFLICT]
    assert endings.ends("the BT contract ran out") == ("bt",)


def test_new_bank_details_from_someone_claiming_to_be_the_payee_wait(tmp_path) -> None:
    """The labels' example: new bank details in a message that says it is from the payee wait in Pending to be checked
    (with no sender line it was rejected as hearsay)."""
    stays("nursery fees go to Little Oaks, sort code 30-90-12, account 55501234",
          "Little Oaks Accounts: please note our bank details have changed, new account 66612345", tmp_path, "document",
          Action.DEFER_VERIFY)
    assert cue("cue_details", "your membership number has been reissued as 5520 8813", source="unknown")
    assert not cue("cue_details", "my account number is 55501234")


def test_what_is_said_unchanged_before_a_contrast_is_not_what_the_claim_confirms(tmp_path) -> None:
    """"ana's ballet is unchanged but ori's violin moved to fridays" changes Ori's lesson (its "unchanged" made it a
    repeat, a silent drop); a contrast too short to tell news ("but thanks for checking") leaves the confirmation."""
    revised("Ori's violin lesson is on Tuesdays at 4pm", "ana's ballet is unchanged but ori's violin got moved to fridays", tmp_path)
    assert not change.unchanged("ana's ballet is unchanged but ori's violin got moved to fridays")
    assert change.unchanged("nothing's changed but thanks for checking")


def test_a_light_verb_swapped_beside_the_value_is_no_restatement(tmp_path) -> None:
    """"Ana takes almond milk in her tea." after "Ana has soy milk in her tea.": the verb of having changed with the value,
    and the two words moved made it no word-for-word swap (it was dropped as a repeat)."""
    revised("Ana has soy milk in her tea.", "Ana takes almond milk in her tea.", tmp_path)
    assert not change.replaced("Ana takes soy milk in her tea.", "Ana has soy milk in her tea.")


def test_a_stance_turned_around_revises_the_entry_it_turns(tmp_path) -> None:
    """"now appreciates wrestling" turns "Sports I dislike: Wrestling" around, though another entry shares more of its
    words; the name of whoever holds the stances is no value they share, nor is a word far from the stance."""
    engine = MemoryEngine.open(tmp_path / "store")
    try:
        texts = ["Martin Mark Sports I dislike: Wrestling", "Martin Mark views this period as a chance for personal growth",
                 "Martin Mark's music preference includes jazz"]
        ids = [engine.write(Claim(text=t, namespace="u", source="user", observed_at=T0)).entry_id for t in texts]
        d = engine.write(Claim(text="Martin Mark now appreciates wrestling for its discipline and personal growth",
                               namespace="u", source="user", observed_at=T0 + timedelta(days=1)))
        assert d.action is Action.REVISE and d.target_id == ids[0]
    finally:
        engine.close()
    assert not polarity.flipped("Martin Mark's music preference includes jazz", "Martin Mark Sports I dislike: Wrestling")
    assert not polarity.flipped("Noted: Ines enjoys Thai food.", "went off sushi after the food poisoning thing")
    assert polarity.flipped("loving olives these days", "I hate olives")




def test_a_taste_of_another_kind_is_another_taste(tmp_path) -> None:
    """"beverage preference evolved to include ..." is not a change of "movie preference has evolved to include ...",
    though they share their subject, their family and most of their words."""
    from shared_core import topics

    assert topics.apart("Martin's beverage preference evolved to include smoothies", "Martin Mark Movies I dislike: Gore")
    assert not topics.apart("smoothies are my favourite", "Martin Mark Beverages I like: Tea")
    kept_beside("Martin Mark's movie preference has evolved to include horror films, which he finds suspenseful.",
                "Martin's beverage preference evolved to include superfood smoothies for their nutritional value.", tmp_path)


@pytest.mark.parametrize(("first", "then"), [
    ("we've got netflix", "and disney+"),
    ("housemates: beth", "and finn"),
    ("allergic to peanuts", "oh and kiwi, found out last week"),
])
def test_a_further_value_under_a_many_valued_key_is_no_repeat(first, then, tmp_path) -> None:
    """Under a many-valued key, a value sharing no word with the one held is one more value, never dropped as a repeat."""
    engine = MemoryEngine.open(tmp_path / "store")
    try:
        engine.write(Claim(text=first, namespace="u", source="user", slot="user.things", many=True, observed_at=T0))
        d = engine.write(Claim(text=then, namespace="u", source="user", slot="user.things", many=True,
                               observed_at=T0 + timedelta(days=1)))
        assert d.action is Action.APPEND
        assert sorted(e.text for e in engine.state("u").accepted) == sorted([first, then])
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then", "action"), [
    ("I don't have any pets", "still no pets, landlord won't allow them", Action.NOOP),   # "none" said again
    ("my son has no allergies", "I'm allergic to cats", Action.APPEND),    # someone else's value
    ("olives are vile, always have been", "coriander's a no as well", Action.APPEND),    # no attribute said empty
])
def test_an_attribute_said_to_hold_nothing_is_filled_only_by_its_own_subject(first, then, action, tmp_path) -> None:
    """``endings.emptied`` reads "none" against a value only where both are one subject's one attribute, and the
    "none" names the attribute: a repeat of the "none", another person's value and a further dislike are not changes."""
    engine, d, _ = two(first, then, tmp_path)
    try:
        assert d.action is action
        assert first in {e.text for e in engine.state("u").accepted}
    finally:
        engine.close()


def test_one_more_said_so_is_never_dropped_as_a_repeat(tmp_path) -> None:
    """A team's record with a member added was decided a repeat of the record it extends: an additive cue on a claim
    that does not say it repeats bars ``noop``, and the policy's noop so refused keeps the claim."""
    first, then = '{"team":"payments","members":["sam","rafe"]}', '{"team":"payments","event":"member_added","member":"priya"}'
    engine, d, _ = two(first, then, tmp_path, source="tool", first_source="tool")
    try:
        assert d.action is Action.APPEND
        assert {e.text for e in engine.state("u").accepted} == {first, then}
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then", "action"), [
    ('{"pr":4471,"repo":"loomwork","state":"merged"}', '{"pr":4480,"repo":"loomwork","state":"open"}', Action.APPEND),
    ('{"vm":"web-01","status":"running"}', '{"vm":"web-02","status":"stopped"}', Action.APPEND),
    ('{"pr":4471,"repo":"loomwork","state":"open"}', '{"pr":4471,"repo":"loomwork","state":"merged"}', Action.REVISE),
    ('{"room":"B04","enrolment_id":"EC-2291"}', '{"room":"B02","enrolment_id":"EC-2291"}', Action.REVISE),  # its id alike
])
def test_records_led_by_two_ids_are_two_things(first, then, action, tmp_path) -> None:
    """A record's first field naming a thing of many ("pr", "vm") with two ids in it: another pull request or machine,
    kept beside the first (one revised the other); the same id, or a room under one enrolment id, is one record moving."""
    engine, d, first_id = two(first, then, tmp_path, source="tool", first_source="tool")
    try:
        assert d.action is action
        assert (d.target_id == first_id) is (action is Action.REVISE)
    finally:
        engine.close()


def test_a_relatives_value_said_again_without_naming_them_is_about_their_entry(tmp_path) -> None:
    """"piano got shifted to thursdays" was held apart from the daughter's piano lessons as a line about someone else
    (blind probe, session 47): both name the one instrument, so it is her lessons that moved."""
    revised("User's daughter's piano lesson is on Tuesdays.", "piano got shifted to thursdays", tmp_path)
    assert distinct.things(slots.of("warriors fan since the we believe team"), slots.of("my partner is a celtics fan"),
                           "warriors fan since the we believe team", "my partner is a celtics fan")


@pytest.mark.parametrize(("first", "then"), [
    ("User drives a 2014 Honda Civic", "traded in the civic, picked up a used mazda 3 yesterday"),   # "traded in" ends it
    ("User wants to be called Katherine", "pls just call me kat, katherine feels like im in trouble"),   # a name, no drug
])
def test_blind_probe_changes_of_session_48_revise(first, then, tmp_path) -> None:
    """Both were kept beside the value they change (blind probes, session 48): "traded in the civic" read "in" as the
    thing ended, and "Katherine" was read as a medicine (an -ine word) so the two texts named no one attribute."""
    revised(first, then, tmp_path)


@pytest.mark.parametrize(("first", "then"), [
    ("Pager alerts go to oncall-sre@corp.io", "add db-team@corp.io to the pager alerts"),
    ("The web monorepo uses ESLint", "we added prettier to the web monorepo"),
    ("User's emergency contacts include their sister Nadia", "add my neighbor greg as a backup emergency contact"),
])
def test_one_added_to_a_thing_is_kept_beside_what_it_holds(first, then, tmp_path) -> None:
    """A value added to a thing ("to the pager alerts", "to the web monorepo", "as a backup contact") is one more: it
    revised the address it joins, or was dropped as a repeat of the linter it joins (blind probes, session 48)."""
    kept_beside(first, then, tmp_path)


def test_family_cues_read_as_people_say_them() -> None:
    """Given names in -ine are no medicine, "every single one" is no relationship status, and a comparison after a comma
    ("..., like the tree") is no liking; each took a text to another attribute than its own."""
    assert slots.family("User wants to be called Catherine")[0] == "name"
    assert slots.family("on sertraline since march")[0] == "medication"
    assert slots.family("weekdays im up at 530, every single one") is None
    assert slots.family("still single, happily")[0] == "partner"
    assert slots.family("my horse's name is juniper, like the tree")[0] == "name"
    assert slots.family("i like the tree in the square")[0] == "likes"
    assert cue("additive_cue", "they got me added to the payments team") == 0.0     # the speaker moved: no value added


@pytest.mark.parametrize(("first", "then"), [
    ("The docs site is hosted on Netlify", "shifted everything off netlify over the summer, cloudflare pages is cheaper"),
    ("I code in Emacs", "back on sublime, emacs pinky was eating me alive"),                # an editor, not food
])
def test_blind_probe_changes_of_session_50_revise(first, then, tmp_path) -> None:
    """Each was kept beside the value it changes (blind probes, session 50): "shifted everything off netlify" ended
    nothing the entry holds, and "eating" took the editor's sentence for one about food. "sold up in derby" ended "up"."""
    revised(first, then, tmp_path)
    assert endings.ended("sold up in derby last spring, renting near the coast", "we live in Derby")
    assert endings.ended("we ported the repos off circleci last month", "Our builds run on CircleCI")


def test_dotted_names_alike_but_for_one_word_are_two_things(tmp_path) -> None:
    """A host, resource or file named like another but for one word ("staging.acme.dev", "prod.acme.dev") is another
    one: its reading revised the first's (blind probes, session 50). A number or an extension changed is a value moving,
    and a call's method is no name of a thing."""
    engine, d, _ = two("staging.acme.dev A 10.0.3.4", "$ dig +short prod.acme.dev\n10.0.9.1", tmp_path, "tool", "tool")
    try:
        assert d.action is Action.APPEND and len(engine.state("u").accepted) == 2
    finally:
        engine.close()
    assert distinct._siblings("terraform.tfvars.staging: region = eu-west-1", "terraform.tfvars.prod: region = eu-west-2")
    assert not distinct._siblings("vpn-eu2.corp.io is the gateway", "vpn-eu1.corp.io is the gateway")
    assert not distinct._siblings("settings.toml holds the config", "settings.yaml holds the config")
    assert not distinct._siblings('config.get theme -> "dark"', 'config.set theme "dark"')
    assert not distinct._siblings('instance_class = "db.t3.large"', 'instance_class = "db.t3.medium"')


@pytest.mark.parametrize(("first", "then"), [
    ("go version -> go1.22.3 (ci-runner)", "ci-runner:~$ go version  go1.22.3"),       # "go1" is in both: no swap
    ("compose service api image: python:3.12.3-slim",
     "$ docker inspect api --format '{{.Config.Image}}'  python:3.12.3-slim"),          # "3-slim" is the tag's tail
])
def test_a_tool_reading_the_value_again_is_a_repeat(first, then, tmp_path) -> None:
    """A tool's reading that holds its entry's version or image again revised it (blind probes, session 50): a token in
    both texts' values counted as swapped, and an id's tail ("3-slim") as a value the other text lacks."""
    engine, d, first_id = two(first, then, tmp_path, source="tool", first_source="tool")
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
        assert [e.text for e in engine.state("u").accepted] == [first]
    finally:
        engine.close()
    assert grounding.value_replaced("stripe key is sk_live_51Qa...a81Q", "stripe key is sk_live_51Qa...7QzP")   # masked


@pytest.mark.parametrize(("first", "then", "source"), [
    ("order B-20417 ship-to: 9 Mill Road, Leeds LS6 2AB",
     "order B-20417: delivery address updated -> 41 Otley Road, Leeds LS16 5DH", "tool"),   # an id-led label
    ("I take 10mg rosuvastatin", "cardiologist halved my statin after the bloods, so 5 now", "user"),   # "statin" alone
])
def test_a_value_moved_under_words_of_its_own_kind_revises(first, then, source, tmp_path) -> None:
    """An order's label that ran on to "ship-to" was read as another key of the order; "statin" alone named no
    medicine. Both changes were kept beside the value they change (blind probes, session 50)."""
    revised(first, then, tmp_path, source)


def test_words_read_for_what_they_name() -> None:
    """"our cat is called Pudding" is about the cat, not "the called"; a bike commute is a cycle commute; "a 2nd"
    contact is one more (blind probes, session 50)."""
    assert slots.of("our cat is called Pudding").subject == "the cat"
    from shared_core.families import member
    assert member("bike") == member("cycling") == member("cycle")
    assert cue("additive_cue", "put my uncle raj down as a 2nd emergency contact") == 1.0


def test_a_month_of_a_year_is_one_value_however_written(tmp_path) -> None:
    """"Sept 2027" and "September 2027" are one month: an assistant's recap of it was rejected as a conflict (blind
    probes, session 50), while another month is still a change."""
    stays("my railcard runs out Sept 2027", "Your railcard is valid until September 2027.", tmp_path, "assistant",
          Action.NOOP)
    assert written_alike("runs out Sept 2027") != written_alike("runs out Oct 2027")


def test_endings_and_swaps_of_session_50s_second_probe_set(tmp_path) -> None:
    """Each of these ended or changed nothing it names (blind probes, session 50): a place that "shut its doors", a car
    that "went for scrap", a teacher "off on paternity", a cooker "ripped out"; a state swapped for a word its command
    also holds ("is-active ... -> active"); "a second hand fiesta" is no second value, and two calls with one answer
    swap no value."""
    revised("I drive a Vauxhall Corsa", "the corsa went for scrap after the MOT, got a second hand fiesta", tmp_path)
    assert endings.ended("quiz moved to the library cafe, the red lion shut its doors last month", "quiz is at the Red Lion")
    assert endings.ended("maya has miss jones now, mr patel went off on paternity", "Maya's teacher is Mr Patel")
    assert endings.ended("the aga was ripped out last week, induction hob now", "the old Aga was the main cooker")
    assert change.replaced("$ systemctl is-active redis → inactive", "systemctl is-active redis → active")
    assert not change.replaced("$ python3 --version → 3.12.4", "pyenv version-name → 3.12.4")
    assert cue("additive_cue", '{"action": "added", "member": {"login": "kim-o"}}', "tool") == 1.0
    assert cue("additive_cue", "got a second hand fiesta") == 0.0


@pytest.mark.parametrize(("first", "then"), [
    ("next of kin is my dad, femi", "change my next of kin to my sister ama pls, 07700 900777"),    # "change my X to"
    ("My PhD supervisor is Prof Lin", "lin's retired over the summer, dr osei has taken me on as supervisor"),  # "'s" is has
])
def test_a_change_asked_for_or_a_holder_gone_revises(first, then, tmp_path) -> None:
    """"change my emergency contact to ..." was kept beside the contact it replaces, and "ellery's retired, dr kaur has
    taken me on" was read as Ellery's own supervisor, another person's (blind probes, session 50)."""
    revised(first, then, tmp_path)


def test_a_sport_taken_up_is_one_more_activity(tmp_path) -> None:
    """"started bouldering at the depot on fridays" revised "i play 5-a-side on mondays" (blind probes, session 50): two
    sports named by no word the lexicon knew, linked by their weekdays, read as the day moved."""
    kept_beside("i do yoga on tuesdays", "started bouldering at the wall on thursdays", tmp_path)
    assert slots.family("VW Golf, cover from day 0") is None or slots.family("VW Golf, cover from day 0")[0] != "activity"
