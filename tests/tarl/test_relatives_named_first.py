"""A relative named first and set off by a comma ("Son Finn, 11, at St Brendan's") is the text's subject as "Son Finn is
11" is: a second child's line is another child's, kept beside the first (it revised "Daughter Isla, 15, at Kingsmead
Academy"). Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not
use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_child_named_first_is_another_child(decides) -> None:
    decides("Daughter Nell, 13, at Ashfield High", "Son Otto, 10, at Hill Top Primary, Year 5", Action.APPEND,
            Ledger.ACCEPTED)


def test_a_relative_named_first_is_the_subject() -> None:
    from shared_core.slots import of

    assert of("Son Otto, 10, at Hill Top Primary").subject == "son otto"


def test_a_relative_named_before_what_they_do_is_that_relative(decides) -> None:
    from shared_core.slots import infer

    assert infer("cousin Mateo works at Allegro").subject == "cousin mateo"
    decides("Mum works at the library", "cousin Mateo works at Allegro", Action.APPEND, Ledger.ACCEPTED)


def test_a_relatives_number_in_a_note_is_the_relatives(decides) -> None:
    decides("my mobile: 07700 900654", "Dad's number: 07700 900321", Action.APPEND, Ledger.ACCEPTED)
