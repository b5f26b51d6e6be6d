"""The DSL's shape as pydantic models: what a program may contain, not what it means.

Programs in the shape of the Proof of Thought appendix load unchanged (including the
`knowledgebase` spelling). Loading checks structure and names only; `build` checks the
expressions against the declared sorts. Errors name the JSON path of the bad entry.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from sym.core.errors import UserError
from sym.core.text import valid_json

MAX_PROGRAM_CHARS = 1_000_000
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
BUILTIN_SORTS = {"BoolSort": "Bool", "IntSort": "Int", "RealSort": "Real", "Bool": "Bool", "Int": "Int", "Real": "Real"}
# names the expression language owns; a program may not declare them
RESERVED = frozenset({"And", "Or", "Not", "Implies", "Xor", "If", "Distinct", "ForAll", "Exists", "Sum",
                      "True", "False", *BUILTIN_SORTS,
                      "and", "or", "not", "implies", "xor"})   # read as the connectives (expr.py)


def _ident(name: str) -> str:
    if not IDENT.match(name) or "__" in name:
        raise ValueError(f"{name!r} is not a plain identifier (letters, digits, single underscores)")
    if name in RESERVED:
        raise ValueError(f"{name!r} is a reserved word of the expression language")
    return name


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Sort(_Strict):
    name: str
    type: Literal["DeclareSort", "EnumSort", "IntSort", "RealSort", "BoolSort"]
    values: list[str] = Field(default_factory=list, max_length=2000)
    description: str = ""

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if v in BUILTIN_SORTS:   # {"name": "Real", "type": "RealSort"} re-declares a builtin: fine
            return v
        return _ident(v)

    @field_validator("values")
    @classmethod
    def _values(cls, v: list[str]) -> list[str]:
        return [_ident(x) for x in v]


class Function(_Strict):
    name: str
    domain: list[str] = Field(default_factory=list, max_length=16)
    range: str
    description: str = ""

    _n = field_validator("name")(classmethod(lambda cls, v: _ident(v)))


class ConstantGroup(_Strict):
    sort: str
    members: list[str] = Field(max_length=2000)
    description: str = ""

    _m = field_validator("members")(classmethod(lambda cls, v: [_ident(x) for x in v]))


class Variable(_Strict):
    name: str
    sort: str

    _n = field_validator("name")(classmethod(lambda cls, v: _ident(v)))


class Implication(_Strict):
    antecedent: str
    consequent: str


class Assertion(_Strict):
    assertion: str
    value: bool = True
    variables: list[Variable] = Field(default_factory=list)
    name: str = ""


class Rule(_Strict):
    name: str = ""
    forall: list[Variable] = Field(default_factory=list)
    implies: Implication | None = None
    constraint: str | None = None
    description: str = ""

    def model_post_init(self, _ctx: Any) -> None:
        if (self.implies is None) == (self.constraint is None):
            raise ValueError("a rule has either `implies` or `constraint`")


class Verification(_Strict):
    name: str = ""
    forall: list[Variable] = Field(default_factory=list)
    exists: list[Variable] = Field(default_factory=list)
    implies: Implication | None = None
    constraint: str | None = None
    description: str = ""

    def model_post_init(self, _ctx: Any) -> None:
        if (self.implies is None) == (self.constraint is None):
            raise ValueError("a verification has either `constraint` or `implies`")
        if self.forall and self.exists:
            raise ValueError("a verification quantifies with `forall` or `exists`, not both")


class Objective(_Strict):
    type: Literal["minimize", "maximize"]
    expression: str


class Optimization(_Strict):
    variables: list[Variable] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)
    objectives: list[Objective] = Field(default_factory=list)


class Program(_Strict):
    """A Proof-of-Thought program. Expressions are strings such as
    `ForAll([p], Implies(Worker(p), Wearing(p, hardHat)))`."""

    sorts: list[Sort] = Field(default_factory=list, max_length=100)
    functions: list[Function] = Field(default_factory=list, max_length=500)
    constants: dict[str, ConstantGroup] = Field(default_factory=dict)
    variables: list[Variable] = Field(default_factory=list, max_length=500)
    knowledge_base: list[str | Assertion] = Field(default_factory=list, max_length=2000,
                                                  validation_alias=AliasChoices("knowledge_base", "knowledgebase"))
    rules: list[Rule] = Field(default_factory=list, max_length=2000)
    verifications: list[Verification] = Field(default_factory=list, max_length=200)
    optimization: Optimization | None = None
    actions: list[Literal["verify_conditions", "optimize"]] = Field(default_factory=list)
    description: str = ""


def json_path(loc: tuple[Any, ...]) -> str:
    """('knowledge_base', 3, 'assertion') -> 'knowledge_base[3].assertion'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part in ("str", "Assertion", "function-after", "function-plain") or "[" in str(part):
            continue   # pydantic's union-branch labels say nothing to a reader
        else:
            out += ("." if out else "") + str(part)
    return out or "program"


def validation_message(err: ValidationError) -> str:
    errors = err.errors()
    # for a union (string or object) the deepest error is the one that explains the mistake
    typed = [e for e in errors if e["type"] != "string_type"] or errors
    first = max(typed, key=lambda e: len(e["loc"]))
    msg = first["msg"].removeprefix("Value error, ")
    return f"{json_path(first['loc'])}: {msg}" + (f" (and {len(typed) - 1} more)" if len(typed) > 1 else "")


def load_program(data: str | bytes | dict[str, Any], *, source: str = "program") -> Program:
    """A Program from JSON text or an already-decoded object; raises UserError naming the path."""
    if isinstance(data, (str, bytes)):
        if len(data) > MAX_PROGRAM_CHARS:
            raise UserError(f"{source}: program is larger than {MAX_PROGRAM_CHARS} characters")
        try:
            data = json.loads(data)
        except (ValueError, RecursionError) as err:
            raise UserError(f"{source}: not JSON: {err}", hint="a program is one JSON object") from None
    if not isinstance(data, dict):
        raise UserError(f"{source}: a program is a JSON object, not {type(data).__name__}")
    data = valid_json(data)[0]   # a "\ud800" escape decodes to what no file or solver can take
    try:
        return Program.model_validate(data)
    except ValidationError as err:
        raise UserError(f"{source}: {validation_message(err)}") from None
    except RecursionError:
        raise UserError(f"{source}: program nests too deeply") from None


MODEL_LIST_LIMIT = 64     # lists a model may write; servers turn maxItems into grammar rules one by one


IDENT_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$"     # IDENT, as a JSON-schema pattern for constrained output
_IDENTIFIERS = (("Sort", "name"), ("Sort", "values"), ("Function", "name"), ("ConstantGroup", "members"),
                ("Variable", "name"))


def program_json_schema(limit: int = MODEL_LIST_LIMIT, *, verifications: list[str] | None = None) -> dict[str, Any]:
    """The JSON schema handed to the model as structured-output `format`: every list at most
    `limit` items (the file format allows more; a model-written program never needs them), and
    every declared name an identifier (a pattern: "Art Historian" cannot be written). With
    `verifications`, the program must have exactly one verification per name given, each named
    by one of them (a choice, not free text: the model cannot leave one out or misname it)."""
    bounded: dict[str, Any] = bounded_schema(Program.model_json_schema(by_alias=False), limit)
    defs = bounded["$defs"]
    for where, key in _IDENTIFIERS:      # names the model declares: identifiers by construction
        node = defs[where]["properties"][key]
        (node["items"] if node.get("type") == "array" else node)["pattern"] = IDENT_PATTERN
    # a function's domain is written, not left out: a model that skips it declares a constant and then
    # calls it with arguments ("position takes 0 argument(s), got 1"); [] still declares a constant
    defs["Function"]["required"] = ["name", "domain", "range"]
    if verifications:
        names = list(dict.fromkeys(verifications))
        checks = bounded["properties"]["verifications"]
        checks.pop("default", None)
        checks["minItems"] = checks["maxItems"] = len(names)
        # grammar converters write required keys first, in order: require the sections every program
        # has, so the model still declares sorts and functions before it states what to verify
        bounded["required"] = ["sorts", "functions", "variables", "knowledge_base", "rules", "verifications"]
        one = bounded["$defs"]["Verification"]
        one["properties"]["name"] = {"title": "Name", "type": "string", "enum": names}
        one["required"] = sorted({*one.get("required", []), "name"})
    return bounded


def bounded_schema(schema: Any, limit: int = MODEL_LIST_LIMIT) -> Any:
    """A copy of a JSON schema with every list's maxItems at most `limit`."""
    if isinstance(schema, dict):
        out = {k: bounded_schema(v, limit) for k, v in schema.items()}
        if out.get("type") == "array":
            out["maxItems"] = min(int(out.get("maxItems", limit)), limit)
        return out
    if isinstance(schema, list):
        return [bounded_schema(v, limit) for v in schema]
    return schema
