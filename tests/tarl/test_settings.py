"""A setting behind its file's or command's label (``settings``): two settings of one file are two things, one flag
read as ``true`` then ``false`` has changed, and ``enabled`` reads ``true`` again. Through the engine's default policy on
a real SQLite store, in wordings the corpus and the probe sets do not use. The worst outcomes guarded against: another
setting's entry revised away (a lost thing) and a flag flipped decided ``noop`` (a silent drop)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
import pytest

from shared_core import records, settings
from shared_core.schema import Action

@pytest.mark.parametrize(("first", "then"), [
    ("settings.toml: cache_ttl: 300", "settings.toml: worker_count: 8"),
    ("staging.env: SMTP_HOST=mail.internal", "staging.env: SENTRY_DSN=https://abc@o1.ingest.example/7"),
    ("poetry show: httpx==0.27.0", "poetry show: pydantic==2.8.2"),
])
def test_two_settings_of_one_file_are_two_things(first, then, kept_beside) -> None:
    kept_beside(first, then)


def test_a_flag_flipped_behind_another_label_is_a_change_not_a_repeat(two_writes) -> None:
    _, first_id, d = two_writes("toggles: dark_launch=false", 'toggles.json: {"dark_launch": true, "owner": "growth"}',
                                "tool", "tool")
    assert d.action is Action.REVISE and d.target_id == first_id


def test_a_flag_read_again_in_other_words_changes_nothing() -> None:
    assert records.compare("GET /toggles -> dark_launch: enabled", "toggles: dark_launch=true") is False
    assert records.compare("GET /toggles -> dark_launch: disabled", "toggles: dark_launch=true") is True
    assert records.compare("restarted at 09:12: cache_ttl=600", "settings.toml: cache_ttl: 300") is True


def test_prose_labels_are_no_settings() -> None:
    assert settings.settings(records._fields("Reminder: water the ferns")) == {}
    assert settings.settings(records._fields("blog: https://example.org/posts")) == {}
    assert not records.other("Reminder: water the ferns", "Reminder: pay the window cleaner")


_KEY = st.from_regex(r"[a-z]{2,6}_[a-z]{2,6}", fullmatch=True)
_VALUE = st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True).filter(lambda v: v not in "true false on off yes no".split())


@given(_KEY, _KEY, _VALUE, _VALUE)
def test_one_setting_under_a_label_is_read_as_itself(key, other_key, value, other_value) -> None:
    text, other = f"app.cfg: {key}={value}", f"app.cfg: {other_key}: {other_value}"
    assert settings.settings(records._fields(text)) == {key: value}
    assert records.other(text, other) is (key != other_key)
