"""Day-one scenarios: the obvious cases a LangChain or LlamaIndex user hits in their first hour, asserted
on the engine's default policy (the shipped learned weights).

Held out by construction: hand-written here, never read by the episode generator or ``tarl train``, and
worded unlike the generator's phrase banks (other attributes, other names, other frames). Only cases
with one defensible answer are listed; genuinely ambiguous ones (an assistant relaying a correction that
contradicts the user, a paraphrase the embedder cannot link) are deliberately left out. The rule policy
is not required to pass: ``test_rules_are_reported_not_required`` only records its score.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core import Claim, MemoryEngine
from shared_core.decision import decide
from shared_core.chitchat import remark
from shared_core.policy import LearnedPolicy, RulePolicy
from shared_core.schema import Action

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=timezone.utc)
Said = tuple[str, str]

# (earlier writes, the claim under test, its source, the expected action)
SCENARIOS: dict[str, tuple[list[Said], str, str, Action]] = {
    "exact_restatement": ([("My dentist appointment is on March 3rd.", "user")],
                          "My dentist appointment is on March 3rd.", "user", Action.NOOP),
    "restatement_case_and_punctuation": ([("My dentist is Dr. Okoye", "user")], "my dentist is dr okoye!", "user",
                                         Action.NOOP),
    "third_party_contradiction": ([("I was born in Accra.", "user")], "My cousin says I was born in Kumasi.",
                                  "third_party", Action.REJECT_CONFLICT),
    "user_update_with_cue": ([("My dentist appointment is on March 3rd.", "user")],
                             "My dentist appointment was changed to March 10th.", "user", Action.REVISE),
    "user_corrects_an_id": ([("My ticket number is ZX-4410.", "user")],
                            "Actually the ticket number is ZX-4452 now.", "user", Action.REVISE),
    "user_new_fact": ([], "I have two kids, both in primary school.", "user", Action.APPEND),
    "user_additive_fact": ([("I play the cello.", "user")], "I also play the piano.", "user", Action.APPEND),
    "agent_relays_fact_empty_memory": ([], "The user's daughter is called Ama.", "assistant", Action.APPEND),
    "agent_relays_preference": ([], "User prefers aisle seats on long flights.", "assistant", Action.APPEND),
    "agent_relays_fact_next_to_others": ([("I work night shifts at the hospital.", "user")],
                                         "The user is training for a marathon in October.", "assistant", Action.APPEND),
    "agent_hedged_guess": ([], "The user might enjoy jazz concerts.", "assistant", Action.DEFER_VERIFY),
    "agent_speculation": ([], "Perhaps the user is left-handed.", "assistant", Action.DEFER_VERIFY),
    "chitchat_thanks": ([("I work night shifts at the hospital.", "user")], "Thanks, that helps a lot!", "user",
                        Action.NOOP),
    "chitchat_greeting": ([], "Hey, good morning", "user", Action.NOOP),
    "hearsay_first_mention": ([], "My neighbour says I snore loudly.", "third_party", Action.DEFER_VERIFY),
    "user_replaces_a_value_no_cue": ([("The user's manager is Priya.", "user")], "The user's manager is Daniel.",
                                     "user", Action.REVISE),
    "agent_relay_restated_by_user": ([("The user is vegetarian.", "assistant")], "The user is vegetarian.", "user",
                                     Action.NOOP),
    # a change said by ending the old value, not by naming a new one (session 22)
    "correction_names_the_old_number": ([("The user's address is 41 Larch Rd", "user")],
                                        "No, it's 14 Larch Rd, not 41", "user", Action.REVISE),
    "the_gp_retired": ([("my GP is Dr. Okafor at the Elm St practice", "user")],
                       "okafor retired so they put me with dr bianchi", "user", Action.REVISE),
    "no_more_of_an_activity": ([("play padel every tuesday w coworkers", "user")],
                               "my knee's finished so no more padel for me", "user", Action.REVISE),
    "a_duty_handed_on": ([("pager's mine this week for the payments rota", "user")],
                         "handed the pager to Marco this morning, free at last", "user", Action.REVISE),
    "a_named_pet_died": ([("I have a cat called Tom", "user")], "Tom passed away last week", "user", Action.REVISE),
    "a_key_handed_on": ([("the spare key is under the mat", "user")], "gave the spare key to my neighbour", "user",
                        Action.REVISE),
    "a_new_number_named_by_its_shape": ([("mum's is 06 98 11 35 02", "user")],
                                        "mum changed her number after the spam calls, new one is 06 77 20 91 48",
                                        "user", Action.REVISE),
    "another_host_is_another_record": ([('{"host": "pg-main", "max_connections": 400}', "tool")],
                                       '{"host": "pg-replica", "max_connections": 200}', "tool", Action.APPEND),
    "a_morning_greeting": ([("I live in Leeds", "user")], "gm", "user", Action.NOOP),
    # a quantity in the same unit said again with another number (session 23)
    "a_dose_went_up": ([("luna is on methimazole 2.5mg twice a day", "user")], "the methimazole went up to 5mg",
                       "user", Action.REVISE),
    "a_run_got_longer": ([("I run 5km before work most days", "user")], "my run before work is 8km these days",
                         "user", Action.REVISE),
    "a_dose_of_a_medicine_raised": ([("I take 50mg sertraline", "user")], "doc bumped my sertraline to 100mg", "user",
                                    Action.REVISE),
    "a_dose_in_an_entry_of_two_medicines_is_kept_beside": (   # revising would drop the cetirizine from Accepted
        [("I take 50mg sertraline and 10mg cetirizine", "user")], "doc bumped my sertraline to 100mg", "user",
        Action.APPEND),
    "a_new_locker_number": ([("My locker number is L-0 and I park in bay 0", "user")],   # an id as a value (ux2)
                            "My locker number is L-1 and I park in bay 1", "user", Action.REVISE),
    "a_dose_moved_to_a_bare_number": ([("I take 50mg sertraline every morning", "user")],   # the unit left unsaid
                                      "the gp bumped the sertraline up to 100", "user", Action.REVISE),
    # things ended in the imperative, stolen, or left by someone who left the team (session 24)
    "a_stop_swapped_for_another": ([("add the ghibli museum to the tokyo list", "user")],
                                   "swap ghibli for the sumo, tickets are gone", "user", Action.REVISE),
    "a_bike_stolen": ([("I cycle to work on my brompton", "user")],
                      "brompton got nicked outside tesco so it's the bus for now", "user", Action.REVISE),
    "a_teammate_left_the_team": ([("gave lukas read access to the analytics db", "user")],
                                 "lukas left the team friday, pulled his access this morning", "user", Action.REVISE),
    "a_seed_swap_event_swaps_nothing": ([("Amara volunteers at the county library", "user")],
                                        "Amara went to a seed swap event at the library", "user", Action.APPEND),
    "back_to_the_old_shop": ([("I'm doing my weekly shop at Lidl these days", "user")],
                             "gone back to the old Tesco for the weekly shop, Lidl never has anything", "user", Action.REVISE),
    "back_to_the_usual_runs": ([("evening runs after work, around 7", "user")],
                               "back to the usual morning runs, evenings are too hot", "user", Action.REVISE),
    # the attribute family named right (session 24): a school's name, a seat said with why, "veggie"
    "a_new_school_named_by_its_name": ([("Kai is at Westbrook Primary, year 6", "user")],
                                       "place confirmed yesterday, he starts at Oakfield High in september", "user",
                                       Action.REVISE),
    "a_seat_whatever_the_reason": ([("window seat always pls, I sleep against the wall", "user")],
                                   "aisle these days, my knees can't handle climbing over people", "user", Action.REVISE),
    "veggie_to_vegan": ([("veggie since uni, no fish either", "user")],
                        "ok so I've gone fully vegan, since January properly", "user", Action.REVISE),
    "nothing_changed_in_so_many_words": ([("my landlord's bank is Barclays, sort code 20-45-77", "user")],
                                         "rang the landlord, nothing's changed with his bank, that text was fake", "user",
                                         Action.NOOP),
    "a_login_that_has_not_changed": ([("the parent app login is my work email", "user")],
                                      "parent app login hasn't changed", "user", Action.NOOP),
    "a_dislike_turned_around": ([("I can't stand olives", "user")], "weirdly loving olives these days", "user",
                                Action.REVISE),
    "a_dislike_of_another_thing_is_no_turn": ([("I love jazz, mostly coltrane", "user")], "I hate country music though",
                                              "user", Action.APPEND),
    "a_reported_moment_supersedes_nothing": ([("Aisha switched her thesis topic to urban heat islands.", "user")],
                                             "Aisha expressed relief that the new topic has much more data available.",
                                             "user", Action.APPEND),
    "quit_smoking": ([("I smoke about ten a day, trying to cut down", "user")],
                     "a month without a cigarette now, the patches work", "user", Action.REVISE),
    "glasses_full_time": ([("I only wear glasses for reading", "user")],
                          "optician says glasses all the time now, my distance vision went", "user", Action.REVISE),
    "drinking_again": ([("not drinking at all this year, feeling great", "user")],
                       "having the odd beer at weekends again", "user", Action.REVISE),
    "a_weight_said_by_its_number_alone": ([("I weigh 82kg", "user")], "down to 78kg now", "user", Action.REVISE),
    "a_teammate_went_over": ([("and Bruno joined us this sprint", "user")],
                             "Bruno went over to platform, Jonas took his seat", "user", Action.REVISE),
    "a_childs_age_moves_on": ([("my son is 5", "user")], "my son turned 6 last week", "user", Action.REVISE),
    "a_dated_event_beside_a_habit": ([("Melanie and her family enjoy camping at the beach as it brings them closer together.",
                                       "user")],
                                     "Melanie went camping with her family two weekends ago.", "user", Action.APPEND),
}
# (earlier slotted write, the claim under test on the same slot, expected): slot, sources and order as given
SLOTTED: dict[str, tuple[tuple[str, str, str], tuple[str, str], Action]] = {
    "same_slot_new_place_from_user_after_tool": (("Noor's office is in Leeds", "tool", "office"),
                                                 ("Noor's office is in York", "user"), Action.REVISE),
    "same_slot_restated": (("Tomasz's dentist is Dr. Wren", "user", "dentist"), ("Tomasz's dentist is Dr. Wren", "user"),
                           Action.NOOP),
    "same_slot_negated_by_the_web": (("Ines is allergic to shellfish", "user", "allergy"),
                                     ("Ines is not allergic to shellfish", "web"), Action.REJECT_CONFLICT),
}


def run(policy: LearnedPolicy | RulePolicy, seeds: list[Said], text: str, source: str) -> Action:
    engine = MemoryEngine.open(policy=policy)
    try:
        for i, (t, s) in enumerate(seeds):
            engine.write(Claim(text=t, namespace="day1", source=s, observed_at=T0 + timedelta(days=i)))
        claim = Claim(text=text, namespace="day1", source=source, observed_at=T0 + timedelta(days=30))
        return engine.write(claim).action
    finally:
        engine.close()


def test_default_policy_is_learned() -> None:
    engine = MemoryEngine.open()
    try:
        assert isinstance(engine.policy, LearnedPolicy)
    finally:
        engine.close()


MISSED: dict[str, str] = {}
"""Cases the shipped policy gets wrong, reported, not hidden (web hearsay negating a multi-valued slot, once
split near 50:50, is now rejected by the contract's hearsay rule; quitting smoking and drinking again, each
with a middling link, revise since a change said in words is no weak link)."""


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=MISSED[c], strict=True)) if c in MISSED
                                  else c for c in sorted(SCENARIOS)])
def test_day_one_scenario(case: str) -> None:
    seeds, text, source, expected = SCENARIOS[case]
    assert run(LearnedPolicy(), seeds, text, source) is expected




@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(reason=MISSED[c], strict=False)) if c in MISSED
                                  else c for c in sorted(SLOTTED)])
def test_day_one_slotted(case: str) -> None:
    (seed, seed_source, slot), (text, source), expected = SLOTTED[case]
    engine = MemoryEngine.open()
    try:
        engine.write(Claim(text=seed, namespace="day1", source=seed_source, slot=slot, observed_at=T0))
        d = engine.write(Claim(text=text, namespace="day1", source=source, slot=slot, observed_at=T0 + timedelta(days=3)))
        assert d.action is expected
    finally:
        engine.close()


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["Leeds", "York", "Priya", "Daniel", "4471", "9902", "ZX-4410", "QX-1142"]),
       st.sampled_from(["Leeds", "York", "Priya", "Daniel", "4471", "9902", "ZX-4410", "QX-1142"]),
       st.sampled_from(["user", "assistant", "tool", "third_party"]))
def test_a_replaced_value_is_never_a_noop(old: str, new: str, source: str) -> None:
    """A claim naming another place, name, number or id than its target says something new about it."""
    from shared_core.schema import Entry, Ledger

    entry = Entry.from_claim(Claim(text=f"The contact on file is {old}"), id="e1", ledger=Ledger.ACCEPTED, tx=1)
    claim = Claim(text=f"The contact on file is {new}", source=source)
    out = decide(claim, [(entry, 0.9)], [], LearnedPolicy())
    if old != new:
        assert out.grounding.features["value_replaced"] == 1.0 and out.decision.action is not Action.NOOP


def test_rules_are_reported_not_required() -> None:
    """The rule baseline's score on the same set, so a regression of the learned policy below it shows."""
    rules = sum(run(RulePolicy(), *SCENARIOS[c][:3]) is SCENARIOS[c][3] for c in SCENARIOS)
    learned = sum(run(LearnedPolicy(), *SCENARIOS[c][:3]) is SCENARIOS[c][3] for c in SCENARIOS)
    assert learned >= rules


_WORD = st.sampled_from(["invoice", "garden", "Lagos", "violin", "4417", "Q-19", "sister", "allergic", "moved",
                         "prefers", "user", "the", "maybe", "thanks", "ok", "blue", "runs", "every", "Friday"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=8), st.sampled_from(["user", "assistant", "third_party", "tool", "web"]))
def test_untargeted_contentful_claim_is_never_dropped(words: list[str], source: str) -> None:
    """With nothing in memory to restate, noop is only for remarks (``chitchat.remark``: phatic words
    only, or the shipped remark model's verdict) (``policy.contract``)."""
    claim = Claim(text=" ".join(words), source=source)
    d = decide(claim, [], [], LearnedPolicy()).decision
    if not remark(claim.text, source):
        assert d.action is not Action.NOOP
    assert np.isclose(sum(d.probabilities.values()), 1.0)


def test_a_slot_never_holds_two_accepted_answers() -> None:
    """A slot is a single-valued key: whatever the policy prefers, a claim on the slot of an open
    entry is never appended beside it."""
    engine = MemoryEngine.open(policy=LearnedPolicy())
    try:
        for text, source in [("Omar drives a red Fiat", "user"), ("Omar drives a blue Volvo", "web"),
                             ("Omar does not drive a red Fiat", "third_party"), ("Omar drives a green bike", "user")]:
            engine.write(Claim(text=text, namespace="day1", source=source, slot="car"))
        assert len(engine.by_slot("day1", "car")) == 1
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "second", "expected"), [
    (("Ticket ZX-4410 is open", "ticket_zx4410.status"), ("Ticket ZX-4410 is open", None), Action.NOOP),
    (("Order A-1001 shipped", None), ("Order A-1001 was delivered", "order_a1001.status"), Action.REVISE),
])
def test_an_id_in_a_key_and_in_free_text_is_one_subject(first: tuple[str, str | None], second: tuple[str, str | None],
                                                      expected: Action) -> None:
    """The caller's key spells the id its own way ("order_a1001"), the text another ("Order A-1001"): a
    restatement in free text was appended beside the keyed entry, a keyed change left the old state current."""
    engine = MemoryEngine.open()
    try:
        for i, (text, slot) in enumerate((first, second)):
            d = engine.write(Claim(text=text, namespace="ids", source="user", slot=slot, many=False if slot else None,
                                   observed_at=T0 + timedelta(days=i)), keyed=slot is not None, scope="namespace")
        assert d.action is expected
        assert len(engine.accepted("ids")) == 1
    finally:
        engine.close()
