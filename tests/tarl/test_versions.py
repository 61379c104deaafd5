"""A program's version read back by a tool ("$ lsb_release -d -> Description: Ubuntu 24.04 LTS" after "my dev VM runs
Ubuntu 22.04.3") is the version moving, the same version read again is a repeat, and two machines' readings are two
things. Through the engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

from shared_core.schema import Action, Ledger


def test_a_tool_reading_another_version_changes_it(decides) -> None:
    decides("my dev VM runs Ubuntu 22.04.3", "$ lsb_release -d -> Description: Ubuntu 24.04 LTS",
            Action.REVISE, Ledger.HISTORY, source="tool", first_source="user")


def test_a_tool_reading_the_same_version_repeats_it(decides) -> None:
    decides("Rust toolchain on the CI runner: rustc 1.77.2",
            "runner@ci-07:~$ rustc --version -> rustc 1.77.2 (25ef9e3d8 2024-04-09)",
            Action.NOOP, Ledger.ACCEPTED, source="tool", first_source="user")


def test_two_machines_versions_are_kept_beside_each_other(kept_beside) -> None:
    kept_beside("(eu-cluster) $ kubectl version -> Server Version: v1.28.5",
                "(us-cluster) $ kubectl version -> Server Version: v1.29.1")
    kept_beside("web-01:~$ php -v -> PHP 8.2.15 (cli)", "web-02:~$ php -v -> PHP 8.1.27 (cli)")


def test_versions_are_read_beside_their_program() -> None:
    from shared_core import versions

    assert versions.compare("SELECT version(); -> PostgreSQL 16.2 on aarch64", "reporting db is Postgres 16") is False
    assert versions.compare("$ python3 --version -> Python 3.12.3", "the lab VM has python 3.10.12") is True
    assert versions.compare("fixed at 4.49% now", "mortgage fixed at 4.19%") is None        # a rate, not a version
    assert versions.compare("npm ls -> left-pad@1.3.0", "npm ls -> right-pad@1.0.1") is None    # two packages
    assert versions.compare("gw-a:~$ openssl version -> OpenSSL 3.0.13", "gw-b:~$ openssl version -> OpenSSL 3.0.2") is None
