"""Policy rules and the book that holds them (`policies.yaml` of a workspace).

A rule is data: `{name, target, filter, attributes, enabled, priority}`. Filters match run
attributes by exact value, any-of list, or a comparison written as a string (">= 3").
Files are read with a safe YAML loader that knows only JSON's types (no timestamps, sets or
binary; integers of at most 100 digits; at most 20 levels deep; aliases expanding to at most a
million values), in time linear in its size; a bad file is one UserError
naming the rule and field, and the policies in force stay as they were. A rule sets only the
attributes its target allows (TARGET_ATTRIBUTES): never a host or a path.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, field_validator

from sym.core.errors import UserError
from sym.core.files import write_text_atomic
from sym.core.reason.policy.loader import load_yaml
from sym.core.settings import Settings

Scalar = bool | int | float | str | None
TARGETS = ("llm", "prompter", "reasoner")
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.~+-]{0,63}$")
_KEY = re.compile(r"^[a-z_][a-z0-9_]{0,63}$")
_COMPARE = re.compile(r"^\s*(>=|<=|!=|==|>|<)\s*(.*?)\s*$")


# what each target may set: settings (changed for the run only) and hints the commands read
# (`mode` by /ask, `prompter` by /explore). Hosts, paths and anything else are refused by name.
_MODEL = ("model", "temperature")
TARGET_ATTRIBUTES: dict[str, frozenset[str]] = {
    "llm": frozenset({*_MODEL, "llm_timeout", "llm_retries", "llm_cache", "llm_max_tokens", "repair_temperature",
                      "judge_model"}),
    "prompter": frozenset({*_MODEL, "prompter"}),
    "reasoner": frozenset({*_MODEL, "mode", "max_steps", "world", "max_answers", "proof_depth", "proof_attempts",
                           "proof_timeout", "math_timeout", "max_facts", "search_k"}),
}


def normalise_key(key: str) -> str:
    """`proof.attempts`, `proof-attempts` and `Proof_Attempts` are one key."""
    return str(key).strip().lower().replace("-", "_").replace(".", "_")


@dataclass(frozen=True)
class Test:
    """One condition on a run attribute: `op` is "=" (exact) or a comparison operator."""

    op: str
    value: object

    def holds(self, actual: object) -> bool:
        if actual is None:
            return False
        if self.op == "=":
            return _same(actual, self.value)
        if self.op == "==":
            return _same(actual, self.value)
        if self.op == "!=":
            return not _same(actual, self.value)
        a, b = _number(actual), _number(self.value)
        if a is None or b is None:
            return False
        return {">": a > b, "<": a < b, ">=": a >= b, "<=": a <= b}[self.op]

    def __str__(self) -> str:
        return str(self.value) if self.op == "=" else f"{self.op} {self.value}"


def _number(v: object) -> float | None:
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v))
    except ValueError:
        return None


def _same(actual: object, expected: object) -> bool:
    if isinstance(actual, str) or isinstance(expected, str):
        return str(actual).strip().lower() == str(expected).strip().lower()
    return actual == expected


def _scalar(v: object) -> bool:
    return v is None or isinstance(v, (bool, int, float, str))


def parse_test(raw: Scalar) -> Test:
    """A filter value: a comparison string (">= 3", "!= proof") or an exact value."""
    if isinstance(raw, str):
        m = _COMPARE.match(raw)
        if m:
            op, rhs = m.groups()
            if not rhs:
                raise ValueError(f"comparison {raw!r} has no value")
            if op in (">", "<", ">=", "<=") and _number(rhs) is None:
                raise ValueError(f"comparison {raw!r} needs a number")
            value: object = rhs
            number = _number(rhs)
            if number is not None and op in (">", "<", ">=", "<="):
                value = number
            return Test(op, value)
    return Test("=", raw)


class PolicyRule(BaseModel):
    """One steering rule. Attributes that name a setting change that setting for the run;
    any other attribute (prompter, mode, …) is a hint the command reads."""

    model_config = ConfigDict(extra="forbid")

    name: str
    target: Literal["llm", "prompter", "reasoner"]
    filter: dict[str, Any] = Field(default_factory=dict)      # values: Scalar or list[Scalar]
    attributes: dict[str, Any]                                # values: Scalar
    enabled: bool = True
    priority: int = 0
    description: str = ""
    _tests: dict[str, list[Test]] = PrivateAttr(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not _NAME.match(v):
            raise ValueError("use letters, digits and _ . ~ + - (at most 64)")
        return v

    @field_validator("filter")
    @classmethod
    def _filter(cls, v: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for key, raw in v.items():
            k = normalise_key(key)
            if not _KEY.match(k):
                raise ValueError(f"bad filter key {key!r}")
            values = raw if isinstance(raw, list) else [raw]
            if not values:
                raise ValueError(f"{k}: an empty list matches nothing")
            if not all(_scalar(x) for x in values):
                raise ValueError(f"{k}: a value, a list of values or a comparison such as \">= 3\"")
            for one in values:
                parse_test(one)   # raises ValueError on a bad comparison
            if k == "command":
                values = [x if not isinstance(x, str) or x.startswith(("/", ">", "<", "!", "=")) else "/" + x
                          for x in values]
            out[k] = values if isinstance(raw, list) else values[0]
        return out

    @field_validator("attributes")
    @classmethod
    def _attributes(cls, v: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        if not v:
            raise ValueError("a rule must set at least one attribute")
        fields = Settings.model_fields
        probe = _probe()
        target = info.data.get("target")
        out = {}
        for key, value in v.items():
            k = normalise_key(key)
            if not _KEY.match(k):
                raise ValueError(f"bad attribute name {str(key)[:40]!r}")
            allowed = TARGET_ATTRIBUTES.get(target) if isinstance(target, str) else None
            if allowed is not None and k not in allowed:
                if any(k == a for t in TARGET_ATTRIBUTES.values() for a in t):
                    owner = ", ".join(t for t, names in TARGET_ATTRIBUTES.items() if k in names)
                    raise ValueError(f"a {target} rule cannot set {k} (target {owner} can)")
                if _is_place(k):
                    raise ValueError(f"{k}: a policy never sets hosts or paths")
                raise ValueError(f"unknown attribute {k!r} (a {target} rule sets {', '.join(sorted(allowed))})")
            if not _scalar(value):
                raise ValueError(f"{k}: one value (text, number, true/false), not {type(value).__name__}")
            if k in fields:
                try:
                    setattr(probe, k, value)
                except ValueError as err:      # the setting's own check, in pydantic's words
                    raise ValueError(f"{k}: {err}") from None
                value = getattr(probe, k)
            out[k] = value
        return out

    def model_post_init(self, _context: Any) -> None:
        self._tests = {k: [parse_test(x) for x in (raw if isinstance(raw, list) else [raw])]
                       for k, raw in self.filter.items()}

    @property
    def specificity(self) -> int:
        return len(self.filter)

    def matches(self, attributes: dict[str, Any]) -> bool:
        """Every filter key holds (a list: any of its values); an absent attribute never matches."""
        return all(any(t.holds(attributes.get(k)) for t in tests) for k, tests in self._tests.items())

    def to_yaml_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "target": self.target}
        if self.filter:
            out["filter"] = dict(self.filter)
        out["attributes"] = dict(self.attributes)
        if not self.enabled:
            out["enabled"] = False
        if self.priority:
            out["priority"] = self.priority
        if self.description:
            out["description"] = self.description
        return out

    def summary(self) -> str:
        cond = ", ".join(f"{k}: {v}" for k, v in self.filter.items()) or "every run"
        sets = ", ".join(f"{k}={v}" for k, v in self.attributes.items())
        return f"when {cond} set {sets}"


_PROBES = threading.local()


def _probe() -> Any:
    """A Settings to check attribute values on (one per thread: building one per rule costs more than the rule)."""
    probe = getattr(_PROBES, "settings", None)
    if probe is None:
        probe = _PROBES.settings = Settings()
    return probe


def _is_place(key: str) -> bool:
    return key.endswith(("_host", "_url", "_path", "_dir", "_file", "_home")) or key in ("host", "url", "path")


class PolicyFile(BaseModel):
    """The top level of policies.yaml (the rules themselves are checked one by one)."""

    model_config = ConfigDict(extra="forbid")

    classifier: Literal["keywords", "llm"] = "keywords"
    goal_types: list[str] = Field(default_factory=list)
    classify: dict[str, list[str]] = Field(default_factory=dict)
    rules: list[dict[str, Any]] = Field(default_factory=list)


def _first_problem(err: ValidationError) -> str:
    e = err.errors()[0]
    where = ".".join(str(p) for p in e["loc"])
    msg = e["msg"].removeprefix("Value error, ")
    return f"{where}: {msg}" if where else msg


def rule_from_data(data: object, *, where: str = "rule") -> PolicyRule:
    """Validate one rule mapping; UserError names the rule and the field."""
    if not isinstance(data, dict):
        raise UserError(f"{where}: a rule is a mapping {{name, target, filter, attributes}}",
                        hint="e.g. {name: cheap, target: llm, filter: {command: /ask}, attributes: {temperature: 0}}")
    label = f"{where} {data.get('name')!r}" if isinstance(data.get("name"), str) else where
    try:
        return PolicyRule.model_validate(data)
    except ValidationError as err:
        raise UserError(f"{label}: {_first_problem(err)}") from None


def parse_policies(text: str, *, source: str = "policies.yaml") -> tuple[PolicyFile, list[PolicyRule]]:
    """Parse and validate a whole file. A top-level list is read as the rules alone."""
    data = load_yaml(text, source=source)
    if data is None:
        data = {}
    if isinstance(data, list):
        data = {"rules": data}
    if not isinstance(data, dict):
        raise UserError(f"{source}: expected a mapping with a 'rules' list")
    try:
        head = PolicyFile.model_validate(data)
    except ValidationError as err:
        raise UserError(f"{source}: {_first_problem(err)}",
                        hint="fix the file; the previous policies stay in force") from None
    rules: list[PolicyRule] = []
    names: set[str] = set()
    for number, raw in enumerate(head.rules, start=1):
        try:
            rule = rule_from_data(raw, where=f"{source}: rule #{number}")
        except UserError as err:
            raise UserError(err.message, hint="fix the file; the previous policies stay in force") from None
        if rule.name in names:
            raise UserError(f"{source}: rule #{number}: the name {rule.name!r} is used twice")
        names.add(rule.name)
        rules.append(rule)
    return head, rules


class PolicyBook:
    """The rules and classifier settings of one workspace; `path` None keeps them in memory.

    `refresh()` re-reads the file only when its mtime or size changed; a bad file sets
    `error` and keeps the rules that were in force."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.head = PolicyFile()
        self.rules: list[PolicyRule] = []
        self.error: UserError | None = None
        self._stamp: tuple[Any, ...] | None = None
        self.version = 0            # bumped on every change (cheap "did anything change?")
        self.reported_now = False   # the last refresh() found a new error (reported in full just now)

    # -- reading ---------------------------------------------------------------------

    def _current_stamp(self) -> tuple[Any, ...] | None:
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def refresh(self) -> bool:
        """Reload if the file changed. Returns True when a new error appeared (report it once)."""
        if self.path is None:
            return False
        self.reported_now = False
        stamp = self._current_stamp()
        if stamp == self._stamp:
            return False
        self._stamp = stamp
        if stamp is None:   # the file is gone: no policies
            self.head, self.rules, self.error = PolicyFile(), [], None
            self.version += 1
            return False
        try:
            text = self.path.read_text(encoding="utf-8")
            self.head, self.rules = parse_policies(text, source=self.path.name)
        except UserError as err:
            self.error, self.reported_now = err, True
            return True
        except (OSError, UnicodeDecodeError) as err:
            self.error, self.reported_now = UserError(f"cannot read it: {getattr(err, 'strerror', None) or err}"), True
            return True
        self.error = None
        self.version += 1
        return False

    def check(self) -> None:
        """Raise the file's error, if it has one (before changing a broken file)."""
        self.refresh()
        if self.error is not None:
            raise self.error

    @property
    def active(self) -> list[PolicyRule]:
        return [r for r in self.rules if r.enabled]

    def get(self, name: str) -> PolicyRule:
        for r in self.rules:
            if r.name == name:
                return r
        known = ", ".join(r.name for r in self.rules) or "none yet"
        raise UserError(f"no policy rule named {name!r}", hint=f"rules: {known}")

    # -- changing ----------------------------------------------------------------------

    def add(self, rule: PolicyRule, *, replace: bool = False) -> None:
        self.check()
        for i, r in enumerate(self.rules):
            if r.name == rule.name:
                if not replace:
                    raise UserError(f"a rule named {rule.name!r} exists already",
                                    hint=f"/policy rm {rule.name} first, or pick another name")
                self.rules[i] = rule
                break
        else:
            self.rules.append(rule)
        self.save()

    def remove(self, name: str) -> PolicyRule:
        self.check()
        rule = self.get(name)
        self.rules = [r for r in self.rules if r.name != name]
        self.save()
        return rule

    def set_keywords(self, goal_type: str, keywords: list[str]) -> None:
        self.check()
        merged = list(dict.fromkeys([*self.head.classify.get(goal_type, []), *keywords]))
        self.head = self.head.model_copy(update={"classify": {**self.head.classify, goal_type: merged}})
        self.save()

    def set_classifier(self, classifier: str) -> None:
        self.check()
        self.head = self.head.model_copy(update={"classifier": classifier})
        self.save()

    def to_yaml(self) -> str:
        import yaml

        data: dict[str, Any] = {}
        if self.head.classifier != "keywords":
            data["classifier"] = self.head.classifier
        if self.head.goal_types:
            data["goal_types"] = list(self.head.goal_types)
        if self.head.classify:
            data["classify"] = {k: list(v) for k, v in self.head.classify.items()}
        data["rules"] = [r.to_yaml_dict() for r in self.rules]
        return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)

    def save(self) -> None:
        self.version += 1
        if self.path is None:
            return
        write_text_atomic(self.path, self.to_yaml())
        self._stamp = self._current_stamp()
        self.error = None
