"""Settings: declared once, checked on every assignment, pydantic imported only once a value is set."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sym.core.errors import UserError
from sym.core.settings import Settings


@pytest.mark.parametrize(("key", "bad", "good", "value"), [
    ("temperature", "2.5", "1.5", 1.5),
    ("max_answers", "0", "7", 7),
    ("search_k", "1001", "1000", 1000),
    ("llm_timeout", "inf", "30", 30.0),
    ("world", "maybe", "open", "open"),
    ("schema_merge", "always", "auto", "auto"),
    ("llm_cache", "perhaps", "no", False),
    ("math_memory", "64", "256", 256),
    ("base_url", "not a url!", "http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1"),
    ("model", "''", "qwen2.5:7b", "qwen2.5:7b"),
])
def test_each_setting_refuses_what_it_cannot_hold_and_keeps_its_value(key, bad, good, value):
    settings = Settings()
    before = getattr(settings, key)
    with pytest.raises(UserError, match=f"bad value .* for {key}: "):
        settings.set(key, bad)
    assert getattr(settings, key) == before
    assert settings.set(key, good) == value and getattr(settings, key) == value


def test_assignment_is_checked_like_set():
    settings = Settings()
    with pytest.raises(ValueError):
        settings.max_steps = -1
    with pytest.raises(AttributeError, match="unknown setting"):
        settings.no_such_setting = 1
    settings.max_steps = "3"          # coerced as pydantic coerces
    assert settings.max_steps == 3
    with pytest.raises(ValueError):
        Settings(temperature=9)        # what a caller passes is checked too


def test_none_clears_only_settings_whose_default_is_none():
    settings = Settings()
    settings.set("max_steps", "4")
    assert settings.set("max_steps", "none") is None
    with pytest.raises(UserError):
        settings.set("max_answers", "none")


def test_copies_are_independent_and_dumps_name_every_field():
    settings = Settings()
    copy = settings.model_copy(deep=True)
    copy.set("temperature", "1.0")
    assert settings.temperature == 0.0 and copy.temperature == 1.0
    assert set(settings.model_dump()) == set(Settings.model_fields) == set(settings.describe())
    assert all(doc for _, doc in settings.describe().values())


def test_defaults_do_not_import_pydantic_but_setting_a_value_does():
    code = ("import sys\nfrom sym.core.settings import Settings\ns = Settings()\n"
            "print('pydantic' in sys.modules)\ns.set('temperature', '0.3')\nprint('pydantic' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "True"]
