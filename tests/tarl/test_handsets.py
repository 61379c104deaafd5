"""A handset, a Samsung, is a phone as a Pixel or an iPhone is: "swapped my work handset, it's a samsung s24 now" after
"Work phone: Pixel 7" is the work phone changed (it was kept beside it, nothing shared but "work"). Through the engine's
default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_new_handset_revises_the_phone(decides) -> None:
    decides("Work phone: Pixel 6a", "office gave me a new handset, samsung a55", Action.REVISE, Ledger.HISTORY)
