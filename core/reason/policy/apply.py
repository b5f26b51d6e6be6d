"""Applying policies to one run: which rules match, in what order, what they set, how a run
is scored. The front-end (repl/steering.py) wraps each command with these pieces; everything
here takes explicit inputs and knows no shell.

Order (later wins): lower `priority` first, then fewer filter keys before more (the more
specific rule wins), then file order. Two matching rules that set one attribute to
different values are a conflict: reported as a Warning, the later rule's value holds.
Setting attributes go to a copy of the settings used for this run only; other attributes
are hints for the command. With no rules this costs one stat().
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sym.core.errors import Cancelled, UserError
from sym.core.events import Warning
from sym.core.reason.policy.rules import PolicyBook, PolicyRule
from sym.core.reason.policy.store import PolicyStore, score_result
from sym.core.settings import Settings

if TYPE_CHECKING:
    from sym.core.llm.facade import LLM
    from sym.core.reason.policy.store import PolicyStore
    from sym.core.settings import Settings

Warn = Callable[[Warning], None]
# settings recorded with every run (so stats can compare values a rule did not set)
RECORDED = ("model", "temperature", "max_steps", "proof_attempts", "proof_timeout", "world")


@dataclass
class Application:
    rule: PolicyRule
    changes: dict[str, Any]                  # attributes in force because of this rule
    overridden: dict[str, Any]               # attributes a later rule replaced

    def label(self) -> str:
        sets = ", ".join(f"{k}={v}" for k, v in self.changes.items())
        text = f"policy '{self.rule.name}' set {sets}" if sets else f"policy '{self.rule.name}' set nothing"
        if self.overridden:
            text += " (overridden: " + ", ".join(self.overridden) + ")"
        return text


@dataclass(frozen=True)
class Conflict:
    attribute: str
    winner: str
    winner_value: object
    loser: str
    loser_value: object

    def __str__(self) -> str:
        return (f"policy conflict on {self.attribute}: '{self.loser}' sets {self.loser_value}, "
                f"'{self.winner}' sets {self.winner_value}; '{self.winner}' wins")


@dataclass
class PolicyPlan:
    applications: list[Application] = field(default_factory=list)
    settings: dict[str, Any] = field(default_factory=dict)
    hints: dict[str, Any] = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)


def ordered(rules: list[PolicyRule]) -> list[PolicyRule]:
    """The application order: priority, then specificity, then file order (stable sort)."""
    return sorted(rules, key=lambda r: (r.priority, r.specificity))


def plan(rules: list[PolicyRule], attributes: dict[str, Any]) -> PolicyPlan:
    """Which enabled rules match `attributes`, what each changes, and the conflicts."""
    matched = [r for r in ordered([r for r in rules if r.enabled]) if r.matches(attributes)]
    values: dict[str, Any] = {}
    setter: dict[str, PolicyRule] = {}
    out = PolicyPlan()
    for rule in matched:
        for key, value in rule.attributes.items():
            if key in setter and values[key] != value:
                out.conflicts.append(Conflict(key, rule.name, value, setter[key].name, values[key]))
            values[key], setter[key] = value, rule
    for rule in matched:
        mine = {k: v for k, v in rule.attributes.items() if setter[k] is rule}
        lost = {k: v for k, v in rule.attributes.items() if setter[k] is not rule}
        out.applications.append(Application(rule, mine, lost))
    fields = Settings.model_fields
    out.settings = {k: v for k, v in values.items() if k in fields}
    out.hints = {k: v for k, v in values.items() if k not in fields}
    return out


class PolicyState:
    """One shell's policies: the current workspace's book, the log (opened lazily), the shell id."""

    def __init__(self) -> None:
        self.book: PolicyBook | None = None
        self.workspace: str | None = None
        self.store: PolicyStore | None = None
        self.shell = uuid.uuid4().hex[:12]

    def book_for(self, workspace: str, directory: Path | None, emit: Warn) -> PolicyBook:
        """The book of `workspace` (policies.yaml in `directory`; in the process only when None),
        re-read only when the file changed; a file that no longer reads is reported to `emit`."""
        if self.book is None or workspace != self.workspace:
            if self.store is not None:
                self.store.close()
                self.store = None
            self.book = PolicyBook(directory / "policies.yaml" if directory is not None else None)
            self.workspace = workspace
        if self.book.refresh():
            emit(Warning(self.problem()))
        return self.book

    def problem(self) -> str:
        """What is wrong with the workspace's policies.yaml and what is in force meanwhile."""
        book = self.book
        assert book is not None and book.error is not None
        meanwhile = (f"the {len(book.rules)} rules read before stay in force" if book.rules
                     else "no policy rule applies")
        where = book.path or "policies.yaml"
        return f"policies not reloaded from {where}: {book.error.message}; {meanwhile} until it is fixed"

    def store_for(self, workspace: str, directory: Path | None, emit: Warn) -> PolicyStore:
        """The run log of `workspace` (policy.sqlite in `directory`; in memory when None)."""
        if self.store is None:
            self.book_for(workspace, directory, emit)
            self.store = PolicyStore(directory / "policy.sqlite" if directory is not None else None)
        return self.store


def goal_type(book: PolicyBook, text: str, llm: Callable[[], LLM], emit: Warn) -> str:
    """The goal type of a run's text: the user's keywords, then (classifier llm) the model via
    `llm` (a callable returning one, asked only then); a failing model falls back to keywords."""
    from sym.core.reason.policy.classify import classify_goal

    model = llm() if book.head.classifier == "llm" and text.strip() else None
    try:
        return classify_goal(text, user=book.head.classify, llm=model, types=book.head.goal_types)[0]
    except UserError as err:   # the model is away or answered nonsense: fall back to keywords
        emit(Warning(f"goal classifier failed ({err.message}); using keywords"))
        return classify_goal(text, user=book.head.classify)[0]


def run_settings(original: Settings, steps: PolicyPlan, emit: Warn) -> Settings:
    """A copy of `original` with the plan's settings set; one that does not validate is dropped
    from `steps.settings` with a warning."""
    settings = original.model_copy(deep=True)
    for key, value in list(steps.settings.items()):
        try:
            setattr(settings, key, value)
        except ValueError as err:  # pydantic's ValidationError is a ValueError
            emit(Warning(f"policy could not set {key}={value}: {err}"))
            steps.settings.pop(key)
    return settings


def effective(settings: Settings, steps: PolicyPlan) -> dict[str, Any]:
    """What a run is recorded with: the RECORDED settings, the ones the plan set, its hints."""
    return {k: getattr(settings, k, None) for k in (*RECORDED, *steps.settings)} | steps.hints


def finish(store: PolicyStore, run_row: int, result: object, error: BaseException | None, seconds: float) -> bool:
    """Record how a run ended (its automatic score); True when it succeeded (worth judging)."""
    if error is None:
        score, detail = score_result(result)
        ok = bool(getattr(result, "ok", True))
        store.finish_run(run_row, ok=ok, status=detail.get("status"), seconds=seconds)
        store.add_outcome(run_row, "auto", score, detail)
        return ok
    if isinstance(error, Cancelled):
        store.finish_run(run_row, ok=False, status="cancelled", seconds=seconds)
    else:
        message = error.message if isinstance(error, UserError) else type(error).__name__
        store.finish_run(run_row, ok=False, status="error", seconds=seconds)
        store.add_outcome(run_row, "auto", 0.0, {"ok": False, "error": message})
    return False


# -- the optional LLM judge -----------------------------------------------------------------

RUBRIC = """You grade one answer of a reasoning assistant. Score 1-5:
5 = correct, complete and justified; 4 = correct with minor gaps; 3 = partly correct or unsupported;
2 = mostly wrong or evasive; 1 = wrong, irrelevant or empty.
Reply with JSON {"score": N, "reason": "one sentence"}."""


def judge(llm: LLM, model: str, text: str, answer: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """(score 0..1, detail) for `answer` (a result as data) to the request `text`, from `model`
    through `llm`; raises UserError (LLMError) when the judge fails."""
    from pydantic import BaseModel, Field

    class Judgement(BaseModel):
        score: int = Field(ge=1, le=5)
        reason: str = ""

    shown = json.dumps(answer, default=str, ensure_ascii=False)[:4000]
    messages = [{"role": "system", "content": RUBRIC},
                {"role": "user", "content": f"Request:\n{text}\n\nAnswer (as data):\n{shown}"}]
    verdict = llm.json(messages, Judgement, purpose="policy.judge", model=model)
    return (verdict.score - 1) / 4, {"model": model, "rating": verdict.score, "reason": verdict.reason}
