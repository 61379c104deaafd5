"""One's own attribute said with "'s" for "is" and a number after it ("my birthday's 14 March") is the speaker's, not a
thing owned by "birthday": a relative's birthday is kept beside it, and a relative's age ("my sister's 30") still
names the relative."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.slots import infer


def test_ones_own_value_with_s() -> None:
    assert infer("my anniversary's 3 June").subject == "user"
    assert infer("my sister's 30 now").subject == "sister"


def test_a_relatives_birthday_is_kept_beside(decides) -> None:
    decides("my birthday's 22 October", "husband Sam's birthday is 9 Feb", Action.APPEND, Ledger.ACCEPTED)
