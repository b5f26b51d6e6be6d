"""Settings a user changes with `/set KEY VALUE`: validated by pydantic, one line per error.

Only plain values live here; where a setting takes effect is up to the reasoner reading it.
Each field is declared once, with its constraints and its help line. Defaults need no checking,
so pydantic is imported only when a value is set (`/set`, a config file, a policy): a script
that sets nothing starts without it. Set values are checked on assignment, as pydantic's
`validate_assignment` does, and the class answers `model_fields`, `model_dump` and `model_copy`
like a pydantic model.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, NamedTuple, get_type_hints

from sym.core.errors import UsageError, UserError
from sym.core.files import write_text_atomic
from sym.core.home import data_dir

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic import TypeAdapter

BACKENDS = ("ollama", "openai")
_URL = r"^(https?://)?[\w.\-\[\]:]+(:\d+)?(/\S*)?$"


def _backend_default() -> Literal["ollama", "openai"]:
    """$SYM_BACKEND, else ollama (`sym --backend` sets the setting itself)."""
    chosen = (os.environ.get("SYM_BACKEND") or "").strip().lower()
    return "openai" if chosen == "openai" else "ollama"   # the two BACKENDS


GROUPS = ("schema", "proof", "agent", "mcp")     # settings shown, and typed, as GROUP.NAME (schema.merge)


def dotted(key: str) -> str:
    """A setting's name as the user sees it: schema_merge → schema.merge, max_steps stays."""
    group, _, rest = key.partition("_")
    return f"{group}.{rest}" if group in GROUPS and rest else key


def setting(*, doc: str, default: Any = dataclasses.MISSING, default_factory: Callable[[], Any] | None = None,
            **constraints: Any) -> Any:
    """One field: its default, its help line and its pydantic constraints (ge, le, gt, min_length …)."""
    meta = {"doc": doc, "constraints": constraints}
    if default_factory is not None:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


class FieldInfo(NamedTuple):
    default: Any          # dataclasses.MISSING for a field whose default is computed (pydantic's "undefined")
    description: str


@dataclasses.dataclass(eq=True)
class Settings:
    world: Literal["auto", "closed", "open"] = setting(default="auto",
        doc="What is not derivable: closed = false; open = unknown unless its ~negation holds; "
            "auto = closed for ?- queries, open for /ask.")
    max_steps: int | None = setting(default=None, ge=0,
        doc="Stop inference after this many rounds (none = run to the fixpoint).")
    max_answers: int = setting(default=50, ge=1,
        doc="How many bindings a query prints before summarising the rest.")
    proof_depth: int = setting(default=12, ge=1,
        doc="How deep /why prints a proof tree.")
    schema_merge: Literal["ask", "auto", "off"] = setting(default="ask",
        doc="New predicate that looks like a known one: ask = note it, auto = use the known one, off = no check.")
    search_k: int = setting(default=5, ge=1, le=1000,
        doc="How many results /search returns by default.")
    model: str = setting(default_factory=lambda: os.environ.get("SYM_MODEL") or "llama3.1:8b", min_length=1,
        doc="The model used for chat and extraction (/models lists what the server has).")
    ollama_host: str | None = setting(default=None,
        doc="Ollama server URL (default: $OLLAMA_HOST or http://127.0.0.1:11434).")
    backend: Literal["ollama", "openai"] = setting(default_factory=_backend_default,
        doc="Which model server: ollama, or openai (any OpenAI-compatible /v1 API: vLLM, llama.cpp, LM Studio).")
    base_url: str | None = setting(default=None, pattern=_URL,
        doc="OpenAI-compatible API URL (default: $SYM_BASE_URL, $OPENAI_BASE_URL or http://127.0.0.1:8000/v1); "
            "key from $SYM_API_KEY or $OPENAI_API_KEY.")
    temperature: float = setting(default=0.0, ge=0.0, le=2.0, allow_inf_nan=False,
        doc="Sampling temperature; at 0, identical requests are answered from the call log.")
    llm_timeout: float = setting(default=120.0, gt=0, allow_inf_nan=False,
        doc="Seconds one model call may take in all (a total deadline, streamed or not); samples sent "
            "together each get it times their number, as a one-slot server answers them in turn.")
    llm_retries: int = setting(default=2, ge=0, le=20,
        doc="Retries (with backoff) after a transient failure (refused connection, 5xx).")
    llm_cache: bool = setting(default=True,
        doc="Answer identical temperature-0 requests from the call log.")
    proof_timeout: float = setting(default=10.0, gt=0, allow_inf_nan=False,
        doc="Seconds one Z3 check may take.")
    proof_attempts: int = setting(default=3, ge=1, le=20,
        doc="How many programs /prove QUESTION lets the LLM write (errors are fed back).")
    proof_format: Literal["json", "smt2"] = setting(default="json",
        doc="The language a model writes /prove programs in: json (the Proof-of-Thought DSL) or smt2 (SMT-LIB 2).")
    proof_style: Literal["whole", "steps"] = setting(default="whole",
        doc="whole: the model writes each program at once (large models); steps: it fills small constrained "
            "steps (sorts, functions, one formula per sentence) and sym assembles the program (small models).")
    judge_model: str | None = setting(default=None,
        doc="Model that grades each steered run with a rubric for /policy stats (none = no judge).")
    math_timeout: float = setting(default=10.0, gt=0, le=3600, allow_inf_nan=False,
        doc="Seconds one /math job may take (it runs in a worker process that is stopped after that).")
    math_memory: int = setting(default=1024, ge=128, le=1048576,
        doc="Megabytes of address space the /math worker may use.")
    query_timeout: float | None = setting(default=30.0, ge=0, le=1_000_000, allow_inf_nan=False,
        doc="Seconds one query, inference or proof tree (/why) may take before it stops (exit 4); 0 or none = "
            "no deadline.")
    max_facts: int = setting(default=5_000_000, ge=1,
        doc="Stop inference (with a message) once it derives more facts, or a join holds more rows, than this.")
    engine: Literal["native", "duckdb", "spark"] = setting(default="native",
        doc="Where the workspace evaluates: native (in memory), duckdb (a database file in the workspace, out of "
            "core) or spark (spark_master); /set engine moves a filled workspace, /workspace NAME --engine picks one.")
    duckdb_memory: str = setting(default="2GB", pattern=r"^\d+(\.\d+)?\s*([KMGT]i?B|B)$",
        doc="Memory the duckdb engine may use before it spills to disk in the workspace (e.g. 2GB, 512MB).")
    spark_master: str = setting(default="local[*]", pattern=r"^(local(\[([0-9]+|\*)(,\s*[0-9]+)?\])?|yarn|(spark|k8s)://\S+)$",
        doc="Where the spark engine runs: local[*] (this machine, every core), local[N], spark://HOST:7077 (a "
            "standalone cluster), k8s://… or yarn; read when a spark workspace opens.")
    spark_checkpoint_every: int = setting(default=0, ge=0, le=1_000_000,
        doc="Every N semi-naive rounds the spark engine writes the model to Parquet (spark.checkpoint.dir; a "
            "local master: the workspace's spark/rounds) and reads it back, so a lost executor recomputes from "
            "there; 0 = never (in-memory checkpoints only). Read when a spark workspace opens.")
    max_file_mb: float = setting(default=64.0, gt=0, le=1_000_000, allow_inf_nan=False,
        doc="Largest file (MB) that /consult, /load, /tell --from and /prove --file read.")
    mcp_max_constant_kb: float = setting(default=64.0, gt=0, le=1_000_000, allow_inf_nan=False,
        doc="Longest constant or name (KB) a fact or rule that a sym mcp call stores may hold.")
    mcp_facts_per_call: int = setting(default=10_000, ge=1,
        doc="Most facts and rules one sym mcp call may store (a consulted file's included).")
    llm_max_tokens: int = setting(default=1024, ge=0, le=1_000_000,
        doc="Most tokens one model reply may have (num_predict for Ollama, max_tokens for openai; 0 = no cap): "
            "a runaway reply ends there.")
    llm_max_reply_bytes: int = setting(default=4_000_000, ge=1024, le=1_000_000_000,
        doc="Most bytes one model reply may have as it arrives (streamed or not): reading a longer one stops "
            "with 'reply too large'.")
    repair_temperature: float = setting(default=0.4, ge=0.0, le=2.0, allow_inf_nan=False,
        doc="Sampling temperature of a repair call (a model at 0 repeats the reply it was just told is wrong).")
    tell_model: Literal["extract", "rewrite"] = setting(default="extract",
        doc="What the model does with a sentence /tell's grammar refuses: extract = writes its facts and rules, "
            "picking predicates and names from lists; rewrite = rewrites it in the controlled language "
            "(docs/english.md) from the sentence's own words, which the grammar reads and a second call checks "
            "says the same (approved as agent.approve says).")
    llm_samples: int = setting(default=1, ge=1, le=20,
        doc="How many programs /prove QUESTION (and the bench's prove path) has the model write for one question, "
            "and how many readings /tell takes of a sentence the grammar cannot read: above 1 they are sampled at "
            "llm_sample_temperature, and sym answers by majority of those the checker accepts, abstaining on a tie.")
    llm_sample_temperature: float = setting(default=0.7, gt=0.0, le=2.0, allow_inf_nan=False,
        doc="Sampling temperature of the samples llm_samples draws (each with a seed of its own, so replay is exact).")
    llm_fallback: bool = setting(default=False,
        doc="When /prove QUESTION abstains (no program ran, or the samples' verdicts tie): also give the model's "
            "own answer, labelled unverified.")
    agent_style: Literal["auto", "tools", "route", "plain"] = setting(default="auto",
        doc="How a chat turn reaches sym's commands: tools = the model calls them (native tool calling), "
            "route = the model picks the next command from a menu, auto = tools unless the model has none, "
            "plain = no commands (the model answers from memory items, unverified).")
    agent_max_steps: int = setting(default=6, ge=1, le=50,
        doc="Most model steps (calls) one chat turn may take before it answers with what it has.")
    agent_approve: Literal["ask", "auto", "refuse"] = setting(default="ask",
        doc="A command the model proposes that changes memory (tell, fact, rule, forget, extract, load): "
            "ask = y/n in the TUI (refused where no one can answer), auto = run it, refuse = never.")

    model_fields: ClassVar[dict[str, FieldInfo]]

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):      # what the caller gave: checked (defaults are known good)
            value = self.__dict__[f.name]
            default = f.default_factory() if callable(f.default_factory) else f.default
            if value != default or type(value) is not type(default):
                self.__dict__[f.name] = _check(f.name, value)
        self.__dict__["_ready"] = True

    def __setattr__(self, key: str, value: Any) -> None:
        if key not in type(self).model_fields:
            raise AttributeError(f"unknown setting {key!r}")
        self.__dict__[key] = _check(key, value) if self.__dict__.get("_ready") else value

    def model_dump(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in type(self).model_fields}

    def model_copy(self, *, deep: bool = False) -> Settings:
        return copy.deepcopy(self) if deep else copy.copy(self)

    def describe(self) -> dict[str, tuple[object, str]]:
        """key -> (value, one-line description)."""
        return {name: (getattr(self, name), f.description) for name, f in type(self).model_fields.items()}

    def set(self, key: str, raw: str) -> object:
        """Set a setting from its text form; raises UserError and changes nothing on bad input."""
        typed, key = key, key.replace("-", "_").replace(".", "_")   # schema.merge == schema_merge
        if key not in type(self).model_fields:
            known = ", ".join(map(dotted, type(self).model_fields))
            raise UserError(f"unknown setting {typed!r}", hint=f"settings: {known}")
        text = raw.strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":   # /set model "qwen2.5:7b"
            text = text[1:-1].strip()
        value: object = text
        if value in ("none", "None", "off", ""):
            value = None if type(self).model_fields[key].default is None or key in _NONE_ALLOWED else value
        try:
            setattr(self, key, value)
        except ValueError as err:
            raise UserError(f"bad value {raw!r} for {key}: {err}") from None
        return getattr(self, key)


_NONE_ALLOWED = frozenset({"query_timeout"})   # none as well as a number, though the default is a number

Settings.model_fields = {
    f.name: FieldInfo(f.default, f.metadata["doc"])
    for f in dataclasses.fields(Settings)}


@cache
def _adapter(key: str) -> TypeAdapter[Any]:
    from pydantic import Field, TypeAdapter

    (f,) = [f for f in dataclasses.fields(Settings) if f.name == key]
    shape: Any = Annotated[get_type_hints(Settings)[key], Field(**f.metadata["constraints"])]
    return TypeAdapter(shape)


_PATTERN_HINTS = {"duckdb_memory": "expected a size such as 2GB or 512MB",
                  "spark_master": "expected local[*], local[N], spark://HOST:PORT, k8s://… or yarn"}


def _check(key: str, value: Any) -> Any:
    """The value pydantic makes of `value` for this setting; ValueError with pydantic's message."""
    from pydantic import ValidationError

    try:
        return _adapter(key).validate_python(value)
    except ValidationError as err:
        problem = err.errors()[0]
        if problem["type"] == "string_pattern_mismatch":
            raise ValueError(_PATTERN_HINTS.get(key, "expected a URL such as http://127.0.0.1:8000/v1")) from None
        raise ValueError(problem["msg"]) from None


def config_path() -> Path:
    """Where the user's defaults live: `$SYM_CONFIG`, else `config.toml` in the data dir."""
    explicit = os.environ.get("SYM_CONFIG")
    if explicit:
        return Path(explicit).expanduser()

    return data_dir() / "config.toml"


def load_settings(given: Mapping[str, str] | None = None) -> Settings:
    """Settings with the user's defaults from the config file (`[settings]` table, same keys as
    /set: `model = "qwen2.5:7b"`, `ollama_host = "http://gpu:11434"`, `world = "open"`), then
    `given`: what the command line set (--model, --ollama-host, --backend, --base-url), which wins
    over the file. A bad file is one UsageError naming the file and key; a bad given value one
    UsageError naming the key."""
    given = dict(given or {})
    settings = Settings()
    path = config_path()
    if path.is_file():
        _read_config(settings, path, given)
    for key, raw in given.items():
        try:
            settings.set(key, raw)
        except UserError as err:
            raise UsageError(f"--{key.replace('_', '-')}: {err.message}", hint=err.hint) from None
    return settings


def _read_config(settings: Settings, path: Path, given: Mapping[str, str]) -> None:
    """The config file's [settings] into `settings`, but for what the command line gave or the
    environment names ($SYM_MODEL, $OLLAMA_HOST, $SYM_BACKEND, $SYM_BASE_URL)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UsageError(f"cannot read {path}: {err}", hint="fix or remove the config file") from None
    table = data.get("settings", {})
    if not isinstance(table, dict):
        raise UsageError(f"{path}: [settings] must be a table of KEY = VALUE")
    # the command line (--model / --ollama-host / --backend / --base-url) and these variables win over the file
    overridden = {"model": "SYM_MODEL", "ollama_host": "OLLAMA_HOST", "backend": "SYM_BACKEND",
                  "base_url": "SYM_BASE_URL"}
    for key, value in table.items():
        if str(key) in given or os.environ.get(overridden.get(str(key), "")):
            continue
        raw = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            settings.set(str(key), raw)
        except UserError as err:
            raise UsageError(f"{path}: {err.message}", hint=err.hint) from None



def save_setting(key: str, value: object) -> Path:
    """Write `key = value` into the config file's `[settings]` table (/set --save), keeping every
    other line as it was, comments included; atomically. Raises UserError and leaves the file be."""
    path = config_path()
    value = "none" if value is None else value
    toml = (str(value).lower() if isinstance(value, bool) else repr(value) if isinstance(value, (int, float))
            else json.dumps(str(value), ensure_ascii=False).replace("\x7f", "\\u007f"))
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        before = tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise UserError(f"cannot read {path}: {err}", hint="fix or remove the config file") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    cr = "\r" if "\r\n" in text else ""
    entry = f"{key} = {toml}"
    header = next((i for i, line in enumerate(lines) if line.split("#")[0].replace(" ", "").strip() == "[settings]"), None)
    if header is None:
        lines += ([cr] if lines and lines[-1].strip() else []) + ["[settings]" + cr, entry + cr]
    else:
        end = next((i for i in range(header + 1, len(lines)) if lines[i].lstrip().startswith("[")), len(lines))
        keys = {i: _key_of(lines[i]) for i in range(header + 1, end)}
        mine = [i for i, k in keys.items() if k == key]
        if mine:
            old = lines[mine[0]]
            comment = _comment(old)
            lines[mine[0]] = old[:len(old) - len(old.lstrip())] + entry + (f"  {comment}" if comment else "") + cr
        else:
            lines.insert(max((i for i, k in keys.items() if k), default=header) + 1, entry + cr)
    new = "\n".join(lines) + "\n"
    try:
        after = tomllib.loads(new)
        before.setdefault("settings", {})[key] = tomllib.loads(f"v = {toml}")["v"]
    except (tomllib.TOMLDecodeError, AttributeError, TypeError):
        after = None
    if after != before:     # a layout this line edit cannot keep (dotted keys, an inline table …)
        raise UserError(f"cannot save to {path}: its settings are written in a way this edit would change",
                        hint=f"add the line {entry} under [settings] by hand")
    try:
        write_text_atomic(path, new)
    except OSError as err:
        raise UserError(f"cannot write {path}: {err.strerror or err}") from None
    return path


def _key_of(line: str) -> str | None:
    """The key a `key = value` line sets (bare or quoted), else None."""
    m = re.match(r"\s*(?:([A-Za-z0-9_-]+)|\"([^\"\\]*)\"|'([^']*)')\s*=", line)
    return next((g for g in m.groups() if g is not None), None) if m else None


def _comment(line: str) -> str:
    """The `# comment` ending a `key = value` line (a '#' inside a quoted value is none)."""
    quote, i = None, line.index("=") + 1
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[i:].rstrip("\r")
        i += 1
    return ""
