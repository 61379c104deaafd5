"""Validity given as Python datetimes, as ``langchain_tarl.values`` promises ("ISO strings or datetimes")
and as a LangGraph user writes the README's answer to TTL: ``{"valid_to": datetime.now(utc) + ...}``.

Found driving the store: such a put was refused (``TarlError: value=...: must be JSON-serialisable: Object
of type datetime is not JSON serializable``), while ``InMemoryStore`` takes it. The stored value keeps
each datetime as its ISO 8601 string (the ledger holds JSON), so ``get`` returns strings."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from langchain_tarl import TarlStore

NS = ("memories", "ana")


def test_a_datetime_valid_to_is_read_as_the_claims_and_ends_the_value(tmp_path):
    soon, gone = datetime.now(timezone.utc) + timedelta(hours=1), datetime.now(timezone.utc) - timedelta(hours=1)
    with TarlStore.open(tmp_path) as store:
        store.put(NS, "otp", {"text": "The one-time code is 4471", "valid_to": soon})
        store.put(NS, "old_otp", {"text": "The one-time code was 9902", "valid_to": gone})
        item = store.get(NS, "otp")
        assert item.entry.valid_to == soon
        assert item.value == {"text": "The one-time code is 4471", "valid_to": soon.isoformat()}
        assert store.get(NS, "old_otp") is None
    with TarlStore.open(tmp_path) as store:
        assert [i.key for i in store.search(NS)] == ["otp"]


def test_dates_elsewhere_in_the_value_are_kept_as_iso_strings():
    with TarlStore.open() as store:
        store.put(NS, "trip", {"text": "Trip to Oslo", "leaves": date(2099, 5, 1), "observed_at": datetime(2026, 1, 2, tzinfo=timezone.utc)})
        value = store.get(NS, "trip").value
        assert value == {"text": "Trip to Oslo", "leaves": "2099-05-01", "observed_at": "2026-01-02T00:00:00+00:00"}
        assert store.put(NS, "trip", {**value}).action.value == "noop"      # the same value again
