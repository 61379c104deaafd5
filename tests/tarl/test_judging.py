"""What the judge is shown and which of its answers are applied, on real entries and the decision
function's own grounding (``decision.situate``): the candidates that matter are shown, a correct answer
about a shown candidate is applied even where the CPU's reading of the words disagrees, and the
contract's safety rules still refuse what they always refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core.decision import situate
from shared_core.judging import MAX_CANDIDATES, JudgeAnswer, candidates, validated
from shared_core.schema import Claim, Entry, Ledger


def entry(id: str, text: str, ledger: Ledger = Ledger.ACCEPTED, **fields) -> Entry:
    return Entry.from_claim(Claim(text=text, namespace="u", **fields), id=id, ledger=ledger, tx=1)


def situated(text: str, neighbours, slot_entries=(), **fields):
    claim = Claim(text=text, namespace="u", **fields)
    return claim, situate(claim, neighbours, slot_entries)[0]


def answer(claim, grounding, action, target=None):
    return validated(claim, grounding, JudgeAnswer(action=action, target_id=target, rationale="r"))[:2]


def test_accepted_entries_come_before_closer_pending_look_alikes():
    landlord = entry("acc", "rent goes to my landlord mr okafor, barclays, sort 20-45-77")
    pending = [entry(f"p{i}", f"Email from t.okafor.lettings@gmail.com: I have changed banks ({i})", Ledger.PENDING)
               for i in range(3)]
    claim, g = situated("rang mr okafor, he hasn't changed anything, same barclays account",
                        [(p, 0.32 - i / 100) for i, p in enumerate(pending)] + [(landlord, 0.26)])
    shown = [e.id for e, _ in candidates(claim, g)]
    assert shown[0] == "acc" and len(shown) == MAX_CANDIDATES


def test_an_entry_sharing_the_claims_id_outranks_a_nearer_one():
    near = [entry(f"n{i}", f"Ticket SUP-41{i}0 is waiting on the vendor") for i in range(4)]
    mine = entry("mine", "Ticket SUP-4107 was opened for the Android login bug")
    claim, g = situated("SUP-4107 is still open, no reply yet", [(e, 0.5) for e in near] + [(mine, 0.1)])
    assert "mine" in [e.id for e, _ in candidates(claim, g)]


@settings(max_examples=40, deadline=None)
@given(ledgers=st.lists(st.sampled_from(list(Ledger)), min_size=0, max_size=8),
       sims=st.lists(st.floats(-1, 1), min_size=8, max_size=8))
def test_candidates_are_at_most_three_open_entries_accepted_first(ledgers, sims):
    pool = [(entry(f"e{i}", f"fact {i} about the garden shed", ledger), sims[i]) for i, ledger in enumerate(ledgers)]
    claim, g = situated("the garden shed is green", pool)
    shown = candidates(claim, g)
    assert len(shown) <= MAX_CANDIDATES and len({e.id for e, _ in shown}) == len(shown)
    assert all(e.ledger is not Ledger.HISTORY for e, _ in shown)
    flags = [e.ledger is Ledger.ACCEPTED for e, _ in shown]
    assert flags == sorted(flags, reverse=True)
    if g.target is not None and g.target.ledger is Ledger.ACCEPTED:
        assert shown[0][0].id == g.target.id


def test_a_restatement_in_other_words_is_a_noop_when_the_judge_reads_it_so():
    stored = entry("job", "I work at Alphabet, on the ads team")
    claim, g = situated("I work at Google, ads team", [(stored, 0.4)])
    assert g.features["value_differs"]          # the CPU's lexical reading: a different value
    assert answer(claim, g, "noop", "job")[1] == "job"


def test_a_target_slot_inference_reads_as_another_subject_can_be_revised():
    stored = entry("exercise", "running 3x a week atm")
    claim, g = situated("knee's busted so it's the pool for me now", [(stored, 0.3)])
    assert g.target is None
    action, target = answer(claim, g, "revise", "exercise")
    assert (action.value, target) == ("revise", "exercise")


def test_no_target_means_about_none_of_them():
    stored = entry("city", "I live in Lisbon")
    claim, g = situated("I live in Lisbon and work in Porto", [(stored, 0.9)])
    assert answer(claim, g, "append")[0].value == "append"


@pytest.mark.parametrize("case", ["untrusted_append", "untrusted_revise", "contentful_drop", "revise_pending",
                                  "second_answer_on_a_single_slot"])
def test_the_safety_rules_still_refuse(case):
    stored, pending = entry("city", "I live in Lisbon"), entry("p", "I live in Faro", Ledger.PENDING)
    if case == "untrusted_append":
        claim, g = situated("some blog says the user lives in Berlin", [(stored, 0.5)], source="web")
        bad = ("append", None)
    elif case == "untrusted_revise":
        claim, g = situated("some blog says the user lives in Berlin", [(stored, 0.5)], source="web")
        bad = ("revise", "city")
    elif case == "contentful_drop":
        claim, g = situated("my manager is Priya", [(stored, 0.2)])
        bad = ("noop", None)
    elif case == "revise_pending":
        claim, g = situated("I moved to Porto", [(pending, 0.6)])
        bad = ("revise", "p")
    else:
        slotted = entry("s", "I live in Lisbon", slot="user.city")
        claim, g = situated("I live in Porto", [(slotted, 0.6)], [slotted], slot="user.city")
        bad = ("append", None)
    with pytest.raises(ValueError):
        answer(claim, g, *bad)


def test_a_judge_that_reads_a_wait_or_a_fact_is_applied_where_the_cue_words_said_otherwise():
    from shared_core.policy.contract import ACTIONS, allowed

    stored = entry("mum", "mum's number is 07700 900311")
    claim, g = situated("mum's number is 07700 900999 now", [(stored, 0.6)], source="third_party")
    assert g.target is not None and not allowed(g)[ACTIONS.index("defer_verify")]   # unhedged: the CPU rejects
    action, target = answer(claim, g, "defer_verify", "mum")
    assert (action.value, target) == ("defer_verify", "mum")
    claim, g = situated("i drink maybe 2-3 pints at the weekend, thats it", [])
    assert not allowed(g)[ACTIONS.index("append")]                                   # "maybe": a guess to the CPU
    assert answer(claim, g, "append")[0].value == "append"
