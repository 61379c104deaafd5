"""A shell command's output listing what memory holds and more ("$ gh api .../members" printing two logins where one was
held) is a further value: kept, never dropped as a repeat of the one it also lists. Through the engine's default policy
on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core import calls, lists


@pytest.mark.parametrize(("first", "then"), [
    ("quarry-web deploy keys: ci-runner", "$ gh repo deploy-key list quarry/quarry-web\nci-runner\nstaging-sync"),
    ("plinth.dev NS: ns1.dnsimple.com", "$ dig NS plinth.dev +short\nns1.dnsimple.com.\nns2.dnsimple.com."),
])
def test_an_output_listing_the_held_value_and_more_is_kept(first, then, kept_beside) -> None:
    kept_beside(first, then)


def test_output_lines() -> None:
    assert calls.listed("$ dig NS plinth.dev +short\nns1.dnsimple.com.\nns2.dnsimple.com.") == {"ns1.dnsimple.com",
                                                                                               "ns2.dnsimple.com"}
    assert calls.listed("$ dig NS plinth.dev +short\nns1.dnsimple.com.") == frozenset()     # one line lists nothing
    assert calls.listed("the dns for plinth.dev  is on dnsimple  now") == frozenset()      # no command
    other = "$ dig NS plinth.dev +short\nns2.dnsimple.com.\nns3.dnsimple.com."      # the held one is not among them
    assert not lists.grown(other, "plinth.dev NS: ns1.dnsimple.com")
