"""One-field notes ("timezone: UTC"), the way an agent or a tool writes a key and its value: a second note on the
same key with another value is that key's new value, through the engine's default policy on a real SQLite store.
Each case below was a silent drop (``noop``) or a second value kept beside the first."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from shared_core import Claim, MemoryEngine, records
from shared_core.schema import Action

T0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)


def two(first: str, then: str, tmp_path, source: str) -> tuple[MemoryEngine, object, str]:
    engine = MemoryEngine.open(tmp_path / "store")
    first_id = engine.write(Claim(text=first, namespace="u", source=source, observed_at=T0)).entry_id
    d = engine.write(Claim(text=then, namespace="u", source=source, observed_at=T0 + timedelta(days=1)))
    return engine, d, first_id


@pytest.mark.parametrize(("first", "then", "source"), [
    ("timezone: UTC", "timezone: CET", "tool"),
    ("currency: GBP", "currency: EUR", "tool"),
    ("Notifications: on", "Notifications: off", "user"),
    ("Status: open", "Status: closed", "tool"),
    ("Manager: Priya", "Manager: Daniel", "tool"),
])
def test_a_key_s_new_value_revises_its_note(first, then, source, tmp_path) -> None:
    engine, d, first_id = two(first, then, tmp_path, source)
    try:
        assert d.action is Action.REVISE and d.target_id == first_id
        assert [e.text for e in engine.state("u").accepted] == [then]
    finally:
        engine.close()


def test_the_same_value_again_changes_nothing(tmp_path) -> None:
    engine, d, first_id = two("currency: GBP", "currency: GBP", tmp_path, "tool")
    try:
        assert d.action is Action.NOOP and d.target_id == first_id
    finally:
        engine.close()


@pytest.mark.parametrize(("first", "then"), [
    ("Reminder: buy milk", "Reminder: call mum"),        # a list's heading: each note is its own item
    ("Allergies: peanuts", "Allergies: shellfish"),      # a key of several values: one more
])
def test_notes_of_a_list_or_a_many_valued_key_are_kept_side_by_side(first, then, tmp_path) -> None:
    engine, d, _ = two(first, then, tmp_path, "user")
    try:
        assert d.action is Action.APPEND
        assert sorted(e.text for e in engine.state("u").accepted) == sorted([first, then])
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
    engine, d, first_id = two(first, then, tmp_path, "user")
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
