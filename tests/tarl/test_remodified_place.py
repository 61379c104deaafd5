"""One place said with another word before its noun, the rest reworded ("from june I'm volunteering at the Northgate
library" after "I volunteer at the central library"), is the value swapped: it replaces the entry, not a repeat of it
nor a second place beside it. The same word again is a repeat."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_word_before_the_place_revises(decides) -> None:
    decides("I volunteer at the central library.", "from june I'm volunteering at the Northgate library", Action.REVISE,
            Ledger.HISTORY)


def test_another_office_revises(decides) -> None:
    decides("I work at the head office.", "from monday I'm working at the Leeds office", Action.REVISE, Ledger.HISTORY)


def test_the_same_place_reworded_repeats(decides) -> None:
    decides("I volunteer at the central library.", "still volunteering at the central library, yeah", Action.NOOP,
            Ledger.ACCEPTED)
