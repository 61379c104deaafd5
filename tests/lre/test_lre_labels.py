"""Self-supervised labels: identifier reuse and answer coverage."""

from __future__ import annotations

from shared_core.lre import answer_coverage_labels, identifier_reuse_labels, self_labels, units_from_messages
from shared_core.lre.labels import later_reference_labels


def test_identifier_reused_three_times_marks_its_introduction() -> None:
    texts = ["login ok, token x9F3kQ2mZ7pL0sYtB4", "noise", "use x9F3kQ2mZ7pL0sYtB4", "again x9F3kQ2mZ7pL0sYtB4",
             "ORD-12345 once", "and x9F3kQ2mZ7pL0sYtB4", "ORD-12345 twice"]
    labels = identifier_reuse_labels(texts)
    assert labels.tolist() == [True, False, False, False, False, False, False]


def test_names_are_not_identifier_values() -> None:
    texts = ["call get_order", "get_order", "get_order", "get_order"]
    assert not identifier_reuse_labels(texts).any()


def test_answer_coverage_credits_earlier_units_only() -> None:
    texts = ["My sister Laura moved to Denver in March.", "cool", "Where did Laura move?", "Laura moved to Denver."]
    labels = answer_coverage_labels(texts, [(3, texts[3])])
    assert labels.tolist() == [True, False, False, False]


def test_ambiguous_answers_are_skipped() -> None:
    texts = ["I love Denver", "Denver is nice", "Denver again", "what about Denver?"]
    assert not answer_coverage_labels(texts, [(10, "Denver")]).any()
    assert answer_coverage_labels(texts, [(10, "Denver")], max_sources=None).sum() == 4


def test_self_labels_from_a_chat_log() -> None:
    msgs = [{"role": "user", "content": "We adopted a puppy called Biscuit last Sunday!"},
            {"role": "assistant", "content": "Congrats!"},
            {"role": "user", "content": "What was the name of our pet?"},
            {"role": "assistant", "content": "Your puppy is called Biscuit."}]
    labels = self_labels(units_from_messages(msgs))
    assert labels.tolist() == [True, False, False, False]


def test_later_reference_marks_rare_words_the_conversation_returns_to() -> None:
    texts = ["We adopted a puppy called Biscuit!"] + [f"chat {i}" for i in range(40)] + ["How is your puppy Biscuit?"]
    labels = later_reference_labels(texts, gap=30)
    assert labels.tolist() == [True] + [False] * 41
    assert not later_reference_labels(texts, gap=50).any()          # the return comes too soon
    common = ["Biscuit here"] * 10 + texts                             # in more than 5% of the units: not rare
    assert not later_reference_labels(common, gap=30)[10]             # (puppy alone is one word: not enough)
    assert later_reference_labels(common, gap=30, min_words=1)[10]


def test_one_returning_word_is_not_enough_by_default() -> None:
    texts = ["We adopted a puppy called Biscuit!"] + [f"chat {i}" for i in range(40)] + ["How is Biscuit doing?"]
    assert not later_reference_labels(texts, gap=30).any()
    assert later_reference_labels(texts, gap=30, min_words=1)[0]


def test_self_labels_add_later_references_only_when_asked() -> None:
    msgs = [{"role": "user", "content": "We adopted a puppy called Biscuit!"}]
    msgs += [{"role": "user" if i % 2 else "assistant", "content": f"chat {i}"} for i in range(40)]
    msgs += [{"role": "user", "content": "The puppy Biscuit chewed my shoe."}]
    units = units_from_messages(msgs)
    assert not self_labels(units)[0] and self_labels(units, later_gap=30)[0]
