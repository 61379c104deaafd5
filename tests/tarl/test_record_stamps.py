"""A record says when it was made in many words: written, generated, created, sent, submitted, issued, reassigned,
printed, published, posted, logged, and the day a change took effect after. A digest generated before the entry's
reassignment, or a hosts file written before a cutover, is the stale one and is rejected, where the two records' days
went unread and the older revised the newer. Through the engine's default policy on a real SQLite store, in wordings
the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_digest_generated_before_the_reassignment_is_rejected(decides) -> None:
    decides("Helpdesk ticket HD-3310 assignee: m.osei (reassigned 2024-09-12 10:15)",
            "Teams digest (generated 2024-09-11 17:00): HD-3310 -> k.brandt",
            Action.REJECT_CONFLICT, Ledger.ACCEPTED, source="tool")


def test_the_words_date_a_record() -> None:
    from shared_core.stamps import newer

    assert newer("hosts file (written 2024-05-20): 10.0.0.9 git.lan", "git.lan moved after 2024-06-01: 10.0.0.12") == -1
    assert newer("invoice PDF (issued 2024-07-02): plan Pro", "plan changed to Team (posted 2024-06-20)") == 1
