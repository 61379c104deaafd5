"""An age said of a name in lower case ("leo's eight") or with a chat word after it ("..., yeah", "lol") is an age, as
"Leo's eight now" is, so the age said again is a repeat; "it's 5" says no one's age."""

from __future__ import annotations

from shared_core.schema import Action, Ledger
from shared_core.slots import infer


def test_an_age_in_chat_is_an_age() -> None:
    assert infer("theo's nine yep").attribute == "age"
    assert infer("mom's 60 lol").attribute == "age"
    assert infer("it's 5").attribute != "age"


def test_the_age_said_again_is_a_repeat(decides) -> None:
    decides("My son Theo is 9", "theo's nine yep", Action.NOOP, Ledger.ACCEPTED)
