"""Settings a user changes with `/set KEY VALUE`: validated by pydantic, one line per error.

Only plain values live here; where a setting takes effect is up to the reasoner reading it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from sym.core.errors import UserError

if TYPE_CHECKING:
    from pathlib import Path

BACKENDS = ("ollama", "openai")


def _backend_default() -> Literal["ollama", "openai"]:
    """$SYM_BACKEND (what `sym --backend` sets for the shells it opens), else ollama."""
    chosen = (os.environ.get("SYM_BACKEND") or "").strip().lower()
    return "openai" if chosen == "openai" else "ollama"   # the two BACKENDS


class Settings(BaseModel):
    model_config = ConfigDict(validate_assignment=True, extra="forbid", use_attribute_docstrings=True)

    world: Literal["closed", "open"] = "closed"
    """closed: what is not derivable is false; open: it is unknown unless its ~negation holds."""
    max_steps: int | None = Field(default=None, ge=0)
    """Stop inference after this many rounds (none = run to the fixpoint)."""
    max_answers: int = Field(default=50, ge=1)
    """How many bindings a query prints before summarising the rest."""
    proof_depth: int = Field(default=12, ge=1)
    """How deep /why prints a proof tree."""
    schema_merge: Literal["ask", "auto", "off"] = "ask"
    """New predicate that looks like a known one: ask = note it, auto = use the known one, off = no check."""
    search_k: int = Field(default=5, ge=1, le=1000)
    """How many results /search returns by default."""
    model: str = Field(default_factory=lambda: os.environ.get("SYM_MODEL") or "llama3.1:8b", min_length=1)
    """The model used for chat and extraction (/models lists what the server has)."""
    ollama_host: str | None = None
    """Ollama server URL (default: $OLLAMA_HOST or http://127.0.0.1:11434)."""
    backend: Literal["ollama", "openai"] = Field(default_factory=lambda: _backend_default())
    """Which model server: ollama, or openai (any OpenAI-compatible /v1 API: vLLM, llama.cpp, LM Studio)."""
    base_url: str | None = None
    """OpenAI-compatible API URL (default: $SYM_BASE_URL, $OPENAI_BASE_URL or http://127.0.0.1:8000/v1); key from $SYM_API_KEY or $OPENAI_API_KEY."""  # noqa: E501  (help text, shown as written)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0, allow_inf_nan=False)
    """Sampling temperature; at 0, identical requests are answered from the call log."""
    llm_timeout: float = Field(default=120.0, gt=0, allow_inf_nan=False)
    """Seconds one model call may take in all (a total deadline, streamed or not)."""
    llm_retries: int = Field(default=2, ge=0, le=20)
    """Retries (with backoff) after a transient failure (refused connection, 5xx)."""
    llm_cache: bool = True
    """Answer identical temperature-0 requests from the call log."""
    proof_timeout: float = Field(default=10.0, gt=0, allow_inf_nan=False)
    """Seconds one Z3 check may take."""
    proof_attempts: int = Field(default=3, ge=1, le=20)
    """How many programs /prove QUESTION lets the LLM write (errors are fed back)."""
    judge_model: str | None = None
    """Model that grades each steered run with a rubric for /policy stats (none = no judge)."""
    math_timeout: float = Field(default=10.0, gt=0, le=3600, allow_inf_nan=False)
    """Seconds one /math job may take (it runs in a worker process that is stopped after that)."""
    math_memory: int = Field(default=1024, ge=128, le=1048576)
    """Megabytes of address space the /math worker may use."""
    max_facts: int = Field(default=5_000_000, ge=1)
    """Stop inference (with a message) once it derives more facts, or a join holds more rows, than this."""
    max_file_mb: float = Field(default=64.0, gt=0, le=1_000_000, allow_inf_nan=False)
    """Largest file (MB) that /consult, /load, /tell --from and /prove --file read."""
    llm_max_tokens: int = Field(default=1024, ge=0, le=1_000_000)
    """Most tokens one model reply may have (num_predict for Ollama, max_tokens for openai; 0 = no cap): a runaway reply ends there."""  # noqa: E501  (help text, shown as written)
    repair_temperature: float = Field(default=0.4, ge=0.0, le=2.0, allow_inf_nan=False)
    """Sampling temperature of a repair call (a model at 0 repeats the reply it was just told is wrong)."""

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        import re

        if value is not None and not re.fullmatch(r"(https?://)?[\w.\-\[\]:]+(:\d+)?(/\S*)?", value.strip()):
            raise ValueError("expected a URL such as http://127.0.0.1:8000/v1")
        return value.strip() if value is not None else None

    def describe(self) -> dict[str, tuple[object, str]]:
        """key -> (value, one-line description)."""
        return {name: (getattr(self, name), f.description or "") for name, f in type(self).model_fields.items()}

    def set(self, key: str, raw: str) -> object:
        """Set a setting from its text form; raises UserError and changes nothing on bad input."""
        typed, key = key, key.replace("-", "_").replace(".", "_")   # schema.merge == schema_merge
        if key not in type(self).model_fields:
            known = ", ".join(type(self).model_fields)
            raise UserError(f"unknown setting {typed!r}", hint=f"settings: {known}")
        text = raw.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":   # /set model "qwen2.5:7b"
            text = text[1:-1].strip()
        value: object = text
        if value in ("none", "None", "off", ""):
            value = None if type(self).model_fields[key].default is None else value
        try:
            setattr(self, key, value)
        except ValidationError as err:
            problem = err.errors()[0]["msg"]
            raise UserError(f"bad value {raw!r} for {key}: {problem}") from None
        return getattr(self, key)



def config_path() -> Path:
    """Where the user's defaults live: `$SYM_CONFIG`, else `config.toml` in the data dir."""
    from pathlib import Path

    explicit = os.environ.get("SYM_CONFIG")
    if explicit:
        return Path(explicit).expanduser()
    from sym.core.memory.workspace import data_dir

    return data_dir() / "config.toml"


def load_settings() -> Settings:
    """Settings with the user's defaults from the config file (`[settings]` table, same keys as
    /set: `model = "qwen2.5:7b"`, `ollama_host = "http://gpu:11434"`, `world = "open"`).
    A bad file is one UsageError naming the file and key."""
    import tomllib

    from sym.core.errors import UsageError

    settings = Settings()
    path = config_path()
    if not path.is_file():
        return settings
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UsageError(f"cannot read {path}: {err}", hint="fix or remove the config file") from None
    table = data.get("settings", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [settings] must be a table of KEY = VALUE")
    # --model / --ollama-host / --backend / --base-url win over the file
    overridden = {"model": "SYM_MODEL", "ollama_host": "OLLAMA_HOST", "backend": "SYM_BACKEND",
                  "base_url": "SYM_BASE_URL"}
    for key, value in table.items():
        if os.environ.get(overridden.get(str(key), "")):
            continue
        raw = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            settings.set(str(key), raw)
        except UserError as err:
            raise UsageError(f"{path}: {err.message}", hint=err.hint) from None
    return settings
