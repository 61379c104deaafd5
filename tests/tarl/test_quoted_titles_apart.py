"""Two quoted titles opening sentences otherwise alike ("'Middlemarch' is due back at the library on 3 May." and
"'The Remains of the Day' is due back ...") are two things (two loans, two bookings), both kept: a quoted title is a
book's, a film's or a boat's, never a role's value as a bare name may be. The same title given a new value replaces it."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_quoted_title_is_kept_beside(kept_beside) -> None:
    kept_beside("'Middlemarch' is due back at the library on 3 May.", "'Stoner' is due back at the library on 10 May.")


def test_a_title_with_an_article_is_kept_beside(kept_beside) -> None:
    kept_beside("'Middlemarch' is due back at the library on 3 May.",
                "'The Remains of the Day' is due back at the library on 17 May.")


def test_the_same_title_moved_revises(decides) -> None:
    decides("'Middlemarch' is due back at the library on 3 May.", "'Middlemarch' is due back at the library on 24 May now.",
            Action.REVISE, Ledger.HISTORY, "tool")
