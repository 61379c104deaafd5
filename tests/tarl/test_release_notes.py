"""A release's notes tell what is in the release, not which version runs: a second note on one release ("Rust 1.75
release notes: ...") is another fact about it, never dropped as the version read again; a version read back still is."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_second_release_note_is_not_dropped(two_writes) -> None:
    _, _, d = two_writes("Rust 1.75 release notes: async fn in traits is stable (RFC 3185).",
                         "Rust 1.75 release notes: pointer byte offset APIs stabilised (PR 115432).", "web", "user")
    assert d.action is not Action.NOOP, d.rationale


def test_a_version_read_back_is_still_a_repeat(decides) -> None:
    decides("CI runs Node v20.11.1.", "$ node -v -> v20.11.1", Action.NOOP, Ledger.ACCEPTED, "tool", "user")
