"""A key, a certificate or a badge said to be revoked or deactivated ends the entry that holds it as in use: "certificate
CN=mbp-jo revoked" after "Office VPN cert CN=mbp-jo is valid" is that record's new state, not a note beside it. Through
the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core import endings
from shared_core.schema import Action, Ledger


def test_a_revoked_certificate_ends_the_entry(decides) -> None:
    _, first_id, d = decides("Office VPN cert CN=mbp-jo is valid",
                             "vpn-admin: certificate CN=mbp-jo revoked 2025-02-02, reissue pending", Action.REVISE,
                             Ledger.HISTORY, "tool")
    assert d.target_id == first_id


def test_what_was_revoked_is_what_ends() -> None:
    assert endings.ended("key ...c9d2 active, key ...b7e1 revoked", "CI deploy key ends ...b7e1")
    assert not endings.ended("key ...c9d2 active, key ...b7e1 revoked", "CI deploy key ends ...c9d2")
