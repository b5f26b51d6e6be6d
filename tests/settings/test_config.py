"""The user's defaults in config.toml: applied to every new shell, overridden by --model /
--ollama-host, and a bad file is one clear line."""

from __future__ import annotations

import pytest

from sym.core.errors import UsageError
from sym.core.settings import load_settings


def write(home, text: str) -> None:
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_no_file_means_the_defaults(sym_home):
    assert load_settings().world == "auto"


def test_config_sets_defaults(sym_home, monkeypatch):
    monkeypatch.delenv("SYM_MODEL", raising=False)
    monkeypatch.delenv("OLLAMA_HOST", raising=False)
    write(sym_home, '[settings]\nmodel = "qwen2.5:7b"\nworld = "open"\nllm_cache = false\n"proof.timeout" = 3\n')
    s = load_settings()
    assert (s.model, s.world, s.llm_cache, s.proof_timeout) == ("qwen2.5:7b", "open", False, 3.0)


def test_command_line_options_win_over_the_config(sym_home, monkeypatch):
    write(sym_home, '[settings]\nmodel = "qwen2.5:7b"\nollama_host = "http://gpu:11434"\n')
    monkeypatch.setenv("SYM_MODEL", "tiny:1b")          # what --model sets
    monkeypatch.setenv("OLLAMA_HOST", "http://here:1")   # what --ollama-host sets
    s = load_settings()
    assert s.model == "tiny:1b" and s.ollama_host is None


@pytest.mark.parametrize("text, needle", [
    ("[settings\n", "cannot read"),
    ("[settings]\nworld = 'sideways'\n", "world"),
    ("[settings]\nno_such = 1\n", "unknown setting"),
    ("settings = 3\n", "must be a table"),
])
def test_a_bad_config_is_one_clear_line(sym_home, text, needle):
    write(sym_home, text)
    with pytest.raises(UsageError) as err:
        load_settings()
    assert needle in str(err.value) and "\n" not in err.value.message


def test_the_batch_runner_uses_the_config(sym_home, sym_exe):
    import subprocess

    script = "~q(b).\n?- q(a).\n"
    closed = subprocess.run([*sym_exe, "--batch", "-"], input=script, capture_output=True, text=True, timeout=120)
    write(sym_home, '[settings]\nworld = "open"\n')
    opened = subprocess.run([*sym_exe, "--batch", "-"], input=script, capture_output=True, text=True, timeout=120)
    assert closed.stdout.splitlines()[-1] == "false." and opened.stdout.splitlines()[-1] == "unknown."


def test_the_status_ping_resolves_the_host_as_the_backend_does():
    from sym.core.llm.backends import liveness_url
    from sym.core.settings import Settings

    # used to ping http://gpu (port 80): the status line had its own resolver
    assert liveness_url(Settings(ollama_host="gpu")) == "http://gpu:11434/api/version"
    assert liveness_url(Settings(ollama_host="http://10.0.0.5:9999/")) == "http://10.0.0.5:9999/api/version"
    openai = Settings(backend="openai", base_url="http://127.0.0.1:8000")
    assert liveness_url(openai) == "http://127.0.0.1:8000/v1/models"
