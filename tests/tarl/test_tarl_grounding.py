"""Grounding and reliability: the signals the policy reads behave as documented."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shared_core.grounding import FEATURE_NAMES, ground, vector
from shared_core.reliability import compare, hedged, reliability
from shared_core.schema import Claim, Entry, Ledger

T0 = datetime(2026, 1, 1, tzinfo=timezone.utc)


def entry(text: str, id: str = "e1", **kw) -> Entry:
    return Entry.from_claim(Claim(text=text, namespace="n", **kw), id=id, ledger=kw.pop("ledger", Ledger.ACCEPTED), tx=1)


def test_shared_identifier_grounds_a_refreshed_tool_output() -> None:
    old = entry("Your order AE72521 is currently processing", source="tool")
    other = entry("Your order BX11111 is currently processing", id="e2", source="tool")
    g = ground(Claim(text="Shipment AE72521 is delayed", namespace="n", source="tool"), [(other, 0.5), (old, 0.3)])
    assert g.target is not None and g.target.id == "e1" and g.features["ids_shared"] == 1.0


def test_slot_match_wins_and_features_name_the_difference() -> None:
    e = entry("Ana lives in Rome", slot="home")
    g = ground(Claim(text="Ana does not live in Rome anymore, she lives in Oslo", namespace="n", slot="home"), [(e, 0.1)])
    assert g.target == e and g.features["same_slot"] == 1.0 and g.features["negation_differs"] == 1.0
    assert g.features["update_cue"] == 1.0 and len(vector(g.features)) == len(FEATURE_NAMES)


def test_no_candidate_means_no_target() -> None:
    g = ground(Claim(text="Ana likes tea", namespace="n"), [(entry("Build 4 failed on main"), 0.05)])
    assert g.target is None and g.features.get("has_target", 0.0) == 0.0


@given(st.sampled_from(["Ana lives in Oslo", "Ana works at Acme", "The order shipped"]),
       st.sampled_from(["maybe ", "I think ", "apparently "]),
       st.sampled_from(["user", "tool", "web"]))
def test_hedging_lowers_reliability(text: str, hedge: str, source: str) -> None:
    plain, soft = Claim(text=text, source=source), Claim(text=hedge + text, source=source)
    assert hedged(soft.text) and not hedged(plain.text)
    assert reliability(soft) < reliability(plain)


def test_late_arriving_older_fact_is_stale_and_loses_margin() -> None:
    current = entry("Gate B12", source="tool", valid_from=T0 + timedelta(hours=2), observed_at=T0 + timedelta(hours=2))
    late = Claim(text="Gate A3", namespace="n", source="tool", valid_from=T0, observed_at=T0 + timedelta(hours=3))
    fresh = Claim(text="Gate C7", namespace="n", source="tool", valid_from=T0 + timedelta(hours=4), observed_at=T0 + timedelta(hours=4))
    stale, newer = compare(late, current), compare(fresh, current)
    assert stale.stale and not newer.stale and newer.outdates
    assert stale.margin < 0 < newer.margin


def test_values_written_alike_are_one_value() -> None:
    """A tool's ISO date is the user's "12 Oct", its "+44 7700 900412" the user's "07700 900 412": no change;
    another year or another number still is one."""
    from shared_core.grounding import value_replaced, written_alike

    assert written_alike("MOT due 12 Oct").split() == ["MOT", "due", "oct-12"]
    assert written_alike("bday's 03/03").split() == ["bday's", "mar-3"] and written_alike("1/2 a cup") == "1/2 a cup"
    assert written_alike('{"expiry": "2024-10-12"}') == written_alike('{"expiry": "October 12th, 2024"}')
    assert not value_replaced('DVLA: {"reg": "KX19FJD", "motTestExpiryDate": "2024-10-12"}', "MOT due 12 Oct")
    assert value_replaced("MOT expires 2025-10-12", "MOT expires 2024-10-12")
    assert not value_replaced("Contacts sync: phone=+44 7700 900412", "new mobile number: 07700 900 412")
    assert value_replaced("Contacts sync: phone=+44 7700 900977", "new mobile number: 07700 900 412")
    assert written_alike("moved into the flat on Harbour Rd last weekend") == "moved into the flat on Harbour road last weekend"
    assert written_alike("St Aidan's, 12 Queen St, Bedford") == "St Aidan's, 12 Queen street, Bedford"
    assert written_alike("we have two kids") == "we have 2 kids" and written_alike("one of them") == "one of them"
    assert not value_replaced("we signed off the rent thing, 1180 from March 1st", "your rent will be 1,180 from 1 March")
    assert value_replaced("rent is 1,250 now", "rent is 1,180")
    assert not value_replaced("the 412 number is the right one", "new mobile number: 07700 900 412")
    assert not value_replaced("Zara's still at ballet every Monday.", "Our daughter Zara does ballet on Mondays.")
    assert not value_replaced("Estimated delivery: 3 June, 08:00-12:00", "my order says delivery window 8-12 on the 3rd")
    assert not value_replaced("from april i'm doing 10-6", "from April your hours will be 10:00-18:00")
    assert value_replaced("delivery window 9-1 now", "Estimated delivery: 08:00-12:00")
    assert written_alike('"depart": "2025-07-10T18:40"').split() == ['"depart":', '"', "jul-10", "2025", "6:40", '"']
    record = '{"flight": "KL1009", "depart": "2025-07-10T18:40"}'
    assert not value_replaced("Your return flight KL1009 departs 10 July at 18:40.", record)
    assert value_replaced("Your return flight KL1009 departs 10 July at 19:40.", record)
    assert not value_replaced("quiet hours 18:00-08:00 saved", "nothing after 6pm, and not before 8am")    # a span's ends
    assert value_replaced("Zara's at ballet every Tuesday now.", "Our daughter Zara does ballet on Mondays.")
    assert not value_replaced("the project uses python 3.11", "$ python --version -> Python 3.11.4")
    assert value_replaced("the project uses python 3.12", "$ python --version -> Python 3.11.4")
    assert not value_replaced("$ ssh-add -l -> 256 SHA256:Zp1c...m0 pat@laptop", "made a new key, fp SHA256:Zp1c...m0")


@pytest.mark.parametrize("text, conditional", [
    ("Jon is considering a move to Lisbon.", True), ("if the landlord signs we move in May", True),
    ("John values his family, considering them the best thing ever.", False),   # "considering" as "regarding"
    ("Maria loves volunteering, even if it is a small difference.", False),     # concessive, not a condition
    ("Tom acts as if nothing happened.", False),
    ("I'm about 5 foot 11 if that helps for the bike sizing", False),      # a courtesy, not a condition
    ("my landline's 01632 960 111 if the plumber needs it", False),        # when it is used, not whether it holds
    ("tariq's the one to call if anything goes wrong", False), ("we'll rent it out if they need the money", True)])
def test_a_condition_is_not_read_into_regard_or_concession(text: str, conditional: bool) -> None:
    """LoCoMo's extracted observations ("... considering it both a sanctuary and a source of comfort") were held
    in Pending as plans: "considering it/them ..." regards, "even if" / "as if" concede or compare."""
    from shared_core.grounding import claim_features

    f = claim_features(Claim(text=text, namespace="n", source="user"))
    assert bool(f["cue_conditional"]) is conditional
    assert hedged(text) is (conditional and "considering" in text)


def test_a_number_moved_with_its_unit_unsaid_links_only_to_the_one_quantity_near_it() -> None:
    from shared_core.quantities import moves
    assert moves("nutritionist upped me to 2100 since i'm training more", "daily target's 1800 kcal")
    assert moves("renewal letter came, going up to 1225 from september", "rent's 1150 a month")
    assert not moves("they've moved him downstairs to 22", "he's in room 14, 1st floor")    # two numbers held
    assert not moves("bumped the limit to 5000", "rent's 1150 a month")                     # too far to be the same
    assert not moves("still up to 1150", "rent's 1150 a month") and not moves("cut dining to 120", "I eat out a lot")


def test_a_closed_class_value_said_alone_is_about_the_entry_of_its_class() -> None:
    from shared_core.members import other as other_member
    assert other_member("actually it's green these days", "my favourite colour is blue")
    assert other_member("been using neovim full time", "my editor is VS Code")       # both name the class
    assert not other_member("CI is green again", "my favourite colour is blue")        # about something else
    assert not other_member("light rain today", "I prefer dark mode")                  # says more than the member
    assert not other_member("blue, still", "my favourite colour is blue")              # the same member
    from shared_core.members import swapped as swaps_state
    assert swaps_state("omar's back on days", "he's on nights this month so i'm doing all the school runs")
    assert not swaps_state("omar's back on days", "gym 3 days a week")                 # no shift named
    assert not swaps_state("revoked the thinkpad key", "my laptop is a macbook")       # a thing, not a state


def test_a_moved_moment_is_about_the_entry_that_holds_one_and_a_repeated_one_is_not() -> None:
    from shared_core.moments import moves
    assert moves("clinic called, it really did move, 16th at 5pm", "dentist on the 14th at 8:30")
    assert moves("they called, had to push me to the thursday, same time", "Calendar: Dentist · Tue 14 Apr 09:30")
    assert not moves("still the 14th", "dentist on the 14th at 8:30")
    assert not moves("push notif: firmware 4.18 now required", "inverter firmware 4.12, installed 3 march")
    assert not moves("dentist on the 16th", "dentist on the 14th at 8:30")      # no word that moves it


@pytest.mark.parametrize(("text", "kept"), [
    ("My cousin says I live in Porto", "I live in Porto"),
    ("The nurse reports that the user is fine", "the user is fine"),
    ("The user reports to Olu Bamgbose.", "The user reports to Olu Bamgbose."),     # whom one reports to: a manager
    ("Calendar shows the boiler service on 10 October.", "the boiler service on 10 October."),   # a tool's reading
    ("The user shows dogs at competitions.", "The user shows dogs at competitions."),
])
def test_an_attribution_frame_is_not_the_proposition_but_reporting_to_someone_is(text: str, kept: str) -> None:
    from shared_core.grounding import proposition
    assert proposition(text) == kept
