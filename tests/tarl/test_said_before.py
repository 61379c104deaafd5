"""A claim that says it was said before ("did I say that already?", "noting again that ...", "told you before")
repeats the entry it restates: it is dropped as a repeat, not kept as a second copy or held back as unconfirmed.
Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_said_already_is_a_repeat(decides) -> None:
    decides("My cat is called Miso", "my cat's called miso, did I say that already?", Action.NOOP, Ledger.ACCEPTED)


def test_the_words_say_it_was_said() -> None:
    from shared_core.cues import CUES

    for text in ("noting again that you take the 7:10 train", "i told u already, oat milk", "said this before but no nuts"):
        assert CUES["cue_confirm"].search(text), text
