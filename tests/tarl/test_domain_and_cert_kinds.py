"""A domain and its certificate are kinds of one thing: each has its own date, the certificate's kept beside the
domains'; the same kind's new date still revises."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from shared_core import Claim
from shared_core.schema import Action, Ledger


def test_the_certificate_is_kept_beside_the_domains(engine) -> None:
    t0 = datetime(2026, 6, 1, 9, 0, tzinfo=timezone.utc)
    texts = ["Domain kestrel.io renews 2026-02-10", "Domain kestrel.app renews 2026-06-30",
             "TLS cert on kestrel.io expires 2026-01-04"]
    made = [engine.write(Claim(text=t, namespace="ns", source="tool", observed_at=t0 + timedelta(days=i)))
            for i, t in enumerate(texts)]
    assert made[-1].action is Action.APPEND, made[-1].rationale
    assert [engine.get(d.entry_id).ledger for d in made] == [Ledger.ACCEPTED] * 3


def test_the_same_kind_renewed_revises(decides) -> None:
    decides("TLS cert on kestrel.io expires 2026-01-04", "TLS cert on kestrel.io now expires 2026-04-04",
            Action.REVISE, Ledger.HISTORY, "tool")
