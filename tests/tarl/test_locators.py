"""Two readings that name none of each other's places are about two things: a staging webhook's URL beside a
production one's, a fork's git remote beside the upstream's, another bucket, another setting named as code. However
alike the rest of their words (a listing's "url=... status=active" reads much like the entry it meets), the claim is no
repeat, so it is kept; the same place read again, or a masked address ("j***n@..."), still repeats. Through the
engine's default policy on a real SQLite store, in wordings the corpus and the probe sets do not use."""

from __future__ import annotations

import pytest

from shared_core.schema import Action, Ledger
from shared_core.tokens import code_names, locators


@pytest.mark.parametrize("first, then", [
    ("Sentry alert webhook: https://hooks.acme.dev/sentry",
     "sentry webhooks list -> id=wh_81k url=https://hooks-eu.acme.dev/sentry status=active"),
    ("upstream remote: git@github.com:fernhill/web.git", "$ git remote -v -> fork git@github.com:fernhill-dev/web.git (fetch)"),
    ("nightly backups go to s3://kestrel-backups/db", "aws s3 ls -> 2026-05-02 s3://kestrel-backups-eu/db"),
    ("monitoring pings https://kestrel.dev every 5 min", 'Pingdom check #5512 created: "app.kestrel.dev/healthz" every 5 min'),
    ("REDIS_URL  Encrypted  Preview", "$ vercel env ls preview   POSTHOG_KEY   Encrypted   Preview   2d ago"),
])
def test_a_reading_of_another_place_is_kept(decides, first: str, then: str) -> None:
    decides(first, then, Action.APPEND, Ledger.ACCEPTED, source="tool", first_source="user")


def test_the_same_place_read_again_repeats(decides) -> None:
    decides("Grafana dashboard lives at grafana.ops.internal/d/api", "grafana.ops.internal/d/api", Action.NOOP, Ledger.ACCEPTED,
            source="tool")


def test_places_are_compared_without_scheme_or_trailing_slash() -> None:
    assert locators("docs at https://www.kestrel.dev/changelog/") == locators("kestrel.dev/changelog") \
        == {"kestrel.dev/changelog"}
    assert locators('{"recovery_email": "j***n@fastmail.com"}') == frozenset()     # masked: no place to compare
    assert locators("v1.29.2 is 4.2% faster, e.g. in St. Albans") == frozenset()


def test_settings_are_named_as_code_not_as_quoted_fields_or_calls() -> None:
    assert code_names("$ nginx -T | grep proxy_read_timeout   proxy_read_timeout 300s;") == {"proxy_read_timeout"}
    assert code_names("REDIS_URL  Encrypted  Preview") == {"redis_url"}
    assert code_names('get_reservation("OT-7") -> {"party_size": 5, "status": "seated_early"}') == frozenset()

