"""The sense of doubt: the share gate escalates the nominal share of a stream (never more), the
most doubtful first, and a policy with ``share=`` escalates on a real engine exactly as its gate says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shared_core import Claim, LearnedPolicy, MemoryEngine, TarlError
from shared_core.doubt import TERMS, ShareGate, Uncertainty
from shared_core.escalation import EscalatingPolicy


@settings(max_examples=80, deadline=None)
@given(scores=st.lists(st.floats(0, 1), max_size=300), share=st.floats(0, 1),
       window=st.integers(1, 100), warmup=st.integers(0, 20), burst=st.integers(0, 6))
def test_the_gate_never_escalates_more_than_its_share(scores, share, window, warmup, burst):
    gate = ShareGate(share, 0.5, window=window, warmup=warmup, burst=burst)
    escalated = 0
    for i, s in enumerate(scores, 1):
        escalated += gate.admits(s)
        assert escalated <= share * i + burst
    if share == 0:
        assert escalated == 0


@pytest.mark.parametrize("share", [0.05, 0.1, 0.2, 0.3, 0.5])
def test_the_gate_escalates_the_nominal_share_the_most_doubtful_first(share):
    rng = random.Random(7)
    scores = [rng.random() for _ in range(2000)]
    gate = ShareGate(share, 0.5, seed=[rng.random() for _ in range(500)])
    sent = [s for s in scores if gate.admits(s)]
    assert abs(len(sent) / len(scores) - share) < 0.02
    assert min(sent) > sorted(scores)[int(len(scores) * (1 - 2 * share))]    # from the doubtful end


def test_one_weight_per_term_and_fields_are_named():
    assert len(Uncertainty().weights) == len(TERMS)
    with pytest.raises(TarlError, match="weights"):
        Uncertainty(weights=(1.0,))
    with pytest.raises(TarlError, match="share"):
        ShareGate(1.5, 0.5)
    with pytest.raises(TarlError, match="window"):
        ShareGate(0.2, 0.5, window=0)
    with pytest.raises(TarlError, match="burst"):
        ShareGate(0.2, 0.5, burst=-1)


def test_a_share_of_one_asks_the_judge_about_every_write_and_zero_about_none():
    asked = []

    def judge(request):
        asked.append(request.claim.text)
        return {"action": "append", "target_id": None, "rationale": "new"}

    texts = ["I live in Lisbon", "My manager is Priya", "I moved to Porto"]
    for share, expected in ((1.0, texts), (0.0, [])):
        asked.clear()
        policy = EscalatingPolicy(LearnedPolicy(), judge, share=ShareGate(share, 1.0, warmup=0))
        with MemoryEngine.open(policy=policy) as engine:
            who = [engine.write(Claim(text=t, namespace="u")).decided_by for t in texts]
        assert asked == expected and who == ["judge" if share else "policy"] * 3


def test_the_shipped_rule_is_the_file_and_carries_its_dev_seed(tmp_path):
    from shared_core.doubt import WEIGHTS, shipped

    rule = Uncertainty()
    assert rule.weights == tuple(shipped()["terms"].get(t, 0.0) for t in TERMS) and len(rule.seed) == 101
    assert Uncertainty(threshold=0.0).seed == rule.seed                   # same weights: same seed
    assert Uncertainty(weights=(0.5,) * len(TERMS)).seed == ()             # other weights: no dev scores
    path = tmp_path / "doubt.json"
    rule.save(path, command="test")
    assert Uncertainty.load(path) == rule
    import json

    raw = json.loads(WEIGHTS.read_text())
    del raw["terms"][TERMS[-1]]                                            # fitted before that term existed
    path.write_text(json.dumps(raw))
    assert Uncertainty.load(path).weights[-1] == 0.0
    raw["terms"]["gone"] = 1.0
    (tmp_path / "bad.json").write_text(json.dumps(raw))
    with pytest.raises(TarlError, match="terms"):
        Uncertainty.load(tmp_path / "bad.json")


def test_refit_writes_a_rule_that_sends_a_fifth_of_dev(tmp_path):
    from shared_core.bench.escalation_fit import decision_rows, dev_test, refit

    parts, _ = dev_test()
    rows = decision_rows({"dev": parts["dev"][:12]}, LearnedPolicy())
    dev = rows[("free", "dev")] + rows[("slot", "dev")]
    path = tmp_path / "doubt.json"
    rule, chosen, cv = refit(dev, "12 dev episodes", path)
    assert Uncertainty.load(path) == rule and chosen in cv
    assert chosen == max(cv, key=lambda k: cv[k]["kept_unseen"])          # read on what the policy never fitted
    sent = sum(rule.p(r.terms) >= rule.threshold for r in dev) / len(dev)
    assert 0.15 <= sent <= 0.3 and list(rule.seed) == sorted(rule.seed)


def test_a_cross_counts_only_when_both_of_its_terms_do(tmp_path):
    i, j = TERMS.index("low_probability"), TERMS.index("contract_override")
    rule = Uncertainty(weights=(0.0,) * len(TERMS), bias=0.0, seed=(),
                       crosses=(("low_probability", "contract_override", 2.0),))
    terms = [0.0] * len(TERMS)
    terms[i] = 1.0
    assert rule.p(terms) == 0.5                                            # one of the two: nothing
    terms[j] = 1.0
    assert rule.p(terms) > 0.85 and "low_probability*contract_override" in rule.contributions(terms)
    path = tmp_path / "doubt.json"
    rule.save(path, command="test")
    assert Uncertainty.load(path) == rule and Uncertainty.load(path).p(terms) == rule.p(terms)
    with pytest.raises(TarlError, match="crosses"):
        Uncertainty(weights=(0.0,) * len(TERMS), crosses=(("low_probability", "gone", 1.0),))
    import json

    raw = json.loads(path.read_text())
    raw["crosses"] = {"low_probability*gone": 1.0}
    path.write_text(json.dumps(raw))
    with pytest.raises(TarlError, match="terms"):
        Uncertainty.load(path)


@settings(max_examples=60, deadline=None)
@given(right=st.lists(st.booleans(), min_size=2, max_size=60), share=st.sampled_from([0.05, 0.1, 0.2, 0.3, 0.5]),
       levels=st.integers(1, 4), data=st.data())
def test_accuracy_kept_counts_ties_in_proportion(right, share, levels, data):
    from shared_core.bench.escalation_fit import kept_accuracy

    k = int(round(share * len(right)))
    if k >= len(right):
        return
    same = [(0.5, c) for c in right]                   # one tie: what a random order keeps, on average
    assert kept_accuracy(same, share) == pytest.approx(sum(right) / len(right))
    wrong_first = [(float(not c), c) for c in right]   # a perfect ranking keeps the rights the wrongs leave
    wrong = len(right) - sum(right)
    assert kept_accuracy(wrong_first, share) == pytest.approx(min(sum(right), len(right) - k) / (len(right) - k)
                                                              if k >= wrong else sum(right) / (len(right) - k))
    scores = data.draw(st.lists(st.integers(0, levels), min_size=len(right), max_size=len(right)))
    assert 0.0 <= kept_accuracy(list(zip(map(float, scores), right)), share) <= 1.0


FLAGS = ("identity", "untrusted", "content_free", "value_differs", "same_slot", "many", "change_signal", "hedged",
         "cue_speculative", "cue_stale")


@settings(max_examples=80, deadline=None)
@given(probs=st.lists(st.floats(0.01, 1), min_size=5, max_size=5), flags=st.sets(st.sampled_from(FLAGS)),
       prior=st.sampled_from([0.3, 0.6, 0.95]), target=st.booleans())
def test_forced_mass_is_what_the_contract_refused(probs, flags, prior, target):
    from datetime import datetime, timezone

    from shared_core.doubt import doubt_terms
    from shared_core.grounding import Grounding
    from shared_core.policy.contract import ACTIONS, allowed, enforce
    from shared_core.schema import Action, Decision, Entry, Ledger

    total = sum(probs)
    p = {a: v / total for a, v in zip(ACTIONS, probs)}
    entry = Entry(id="e1", text="I live in Lisbon", namespace="u", source="user", confidence=1.0, created_tx=1,
                  observed_at=datetime.now(timezone.utc), ledger=Ledger.ACCEPTED) if target else None
    g = Grounding(entry, 0.8 if target else 0.0, {**{f: 1.0 for f in flags}, "source_prior": prior},
                  ((entry, 0.8),) if entry else ())
    proposed = Decision(action=Action(max(p, key=p.__getitem__)), probabilities=p)
    done = enforce(proposed, g)
    terms = dict(zip(TERMS, doubt_terms(Claim(text="I moved to Porto", namespace="u"), done, g, proposed)))
    refused = sum(p[a] for a, ok in zip(ACTIONS, allowed(g)) if not ok)     # read off the renormalised decision
    assert terms["forced_mass"] == pytest.approx(refused, abs=1e-9)
    assert terms["contract_override"] == float(done.action is not proposed.action)
    # kept on the grounding: the same answers as a fresh grounding's, the mask read only, and the shipped
    # rule (top probability alone) scores without reading the other terms exactly as with them
    fresh = Grounding(g.target, g.similarity, dict(g.features), g.candidates)
    assert enforce(proposed, g) is done and enforce(proposed, fresh) == done
    assert list(allowed(g)) == list(allowed(fresh)) and not allowed(g).flags.writeable
    rule = Uncertainty()
    claim = Claim(text="I moved to Porto", namespace="u")
    assert rule.score(claim, done, g, proposed) == pytest.approx(
        rule.p(doubt_terms(claim, done, g, proposed)), abs=1e-12)
