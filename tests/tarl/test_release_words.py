"""A release named as one ("lsb_release -d", "Ubuntu 24.04 LTS", "Rocky Linux release 9.3") speaks of versions as
"version" or "-v" does, so a tool's reading of another release revises the entry that held the old one (it was kept
beside it: two dotted numbers and a name, nothing said of versions). Through the engine's default policy on a real
SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_another_release_read_back_revises(decides) -> None:
    decides("The NAS runs Debian 11.9", "$ lsb_release -d -> Description: Debian 12.5 (bookworm)",
            Action.REVISE, Ledger.HISTORY, source="tool", first_source="user")


def test_release_words_speak_of_versions() -> None:
    from shared_core.versions import compare

    assert compare("$ lsb_release -d -> Description: Debian 12.5", "The NAS runs Debian 11.9") is True
    assert compare("Kubuntu 24.04 LTS on the office desktop", "office desktop: Kubuntu 22.04") is True
