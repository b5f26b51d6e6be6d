"""Applying policies to one command run: match, order, report, run on a copy, score, restore.

Order (later wins): lower `priority` first, then fewer filter keys before more (the more
specific rule wins), then file order. Two matching rules that set one attribute to
different values are a conflict: reported as a Warning, the later rule's value holds.
Setting attributes go to a copy of the settings used for this run only; other attributes
are hints the command reads with `run_hints(ctx)`. With no rules this costs one stat().
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from core.errors import Cancelled, UserError
from core.events import PolicyApplied, TraceNode, Warning
from core.reason.policy.rules import PolicyBook, PolicyRule

# commands that manage the shell itself are never steered nor counted as runs
EXEMPT_COMMANDS = frozenset({"/policy", "/rate", "/workspace", "/workspaces"})
EXEMPT_GROUPS = frozenset({"shell", "session"})
# settings recorded with every run (so stats can compare values a rule did not set)
RECORDED = ("model", "temperature", "max_steps", "proof_attempts", "proof_timeout", "world")


@dataclass
class Application:
    rule: PolicyRule
    changes: dict                  # attributes in force because of this rule
    overridden: dict               # attributes a later rule replaced

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
class Plan:
    applications: list[Application] = field(default_factory=list)
    settings: dict = field(default_factory=dict)
    hints: dict = field(default_factory=dict)
    conflicts: list[Conflict] = field(default_factory=list)


def ordered(rules: list[PolicyRule]) -> list[PolicyRule]:
    """The application order: priority, then specificity, then file order (stable sort)."""
    return sorted(rules, key=lambda r: (r.priority, r.specificity))


def plan(rules: list[PolicyRule], attributes: dict) -> Plan:
    """Which enabled rules match `attributes`, what each changes, and the conflicts."""
    from core.settings import Settings

    matched = [r for r in ordered([r for r in rules if r.enabled]) if r.matches(attributes)]
    values: dict = {}
    setter: dict[str, PolicyRule] = {}
    out = Plan()
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
    """One shell's policies: the current workspace's book, the log (opened lazily), the last run."""

    def __init__(self):
        self.book: PolicyBook | None = None
        self.workspace: str | None = None
        self.store = None
        self.shell = uuid.uuid4().hex[:12]

    def paths(self, ctx) -> tuple[Path | None, Path | None]:
        """(policies.yaml, policy.sqlite) of the workspace; (None, None) for in-process memory."""
        if getattr(ctx, "workspaces", None) is None:
            return None, None
        from core.memory.workspace import workspace_dir

        directory = workspace_dir(ctx.memory.workspace)
        return directory / "policies.yaml", directory / "policy.sqlite"

    def book_for(self, ctx) -> PolicyBook:
        """The book of the workspace in use (re-read only when the file changed)."""
        name = getattr(ctx.memory, "workspace", "default")
        if self.book is None or name != self.workspace:
            if self.store is not None:
                self.store.close()
                self.store = None
            self.book, self.workspace = PolicyBook(self.paths(ctx)[0]), name
        if self.book.refresh():
            ctx.emit(Warning(self.problem()))
        return self.book

    def problem(self) -> str:
        """What is wrong with the workspace's policies.yaml and what is in force meanwhile."""
        book = self.book
        assert book is not None and book.error is not None
        meanwhile = (f"the {len(book.rules)} rules read before stay in force" if book.rules
                     else "no policy rule applies")
        where = book.path or "policies.yaml"
        return f"policies not reloaded from {where}: {book.error.message}; {meanwhile} until it is fixed"

    def store_for(self, ctx):
        if self.store is None:
            from core.reason.policy.store import PolicyStore

            self.book_for(ctx)
            self.store = PolicyStore(self.paths(ctx)[1])
        return self.store


def policy_state(ctx) -> PolicyState:
    state = getattr(ctx, "policy_state", None)
    if state is None:
        state = PolicyState()
        ctx.policy_state = state
    return state


def steer(ctx, cmd, arg: str):
    """Run `cmd.handler(ctx, arg)` under the workspace's policies (the dispatcher's hook)."""
    state = policy_state(ctx)
    book = state.book_for(ctx)    # read (when changed) before any command, so a bad file is reported at once
    if cmd.name in EXEMPT_COMMANDS or getattr(cmd, "group", "") in EXEMPT_GROUPS:
        return cmd.handler(ctx, arg)
    if book.error is not None and not book.reported_now:
        ctx.emit(Warning(f"policies.yaml still has an error (/policy list shows it); "
                         f"{'older rules' if book.rules else 'no rules'} in force"))
    if not book.rules:
        return cmd.handler(ctx, arg)
    return _steered_run(ctx, state, book, cmd, arg)


def _goal_type(ctx, book: PolicyBook, text: str) -> str:
    from core.reason.policy.classify import classify_goal

    llm = None
    if book.head.classifier == "llm" and text.strip():
        llm = ctx.llm
    try:
        return classify_goal(text, user=book.head.classify, llm=llm, types=book.head.goal_types)[0]
    except UserError as err:   # the model is away or answered nonsense: fall back to keywords
        ctx.emit(Warning(f"goal classifier failed ({err.message}); using keywords"))
        return classify_goal(text, user=book.head.classify)[0]


def _steered_run(ctx, state: PolicyState, book: PolicyBook, cmd, arg: str):
    from core.reason.policy.classify import run_attributes
    from core.reason.policy.store import score_result

    run = ctx.new_run(cmd.name.lstrip("/") or "run")
    attributes = run_attributes(cmd.name, arg, workspace=getattr(ctx.memory, "workspace", "default"),
                                source=getattr(ctx, "source", "typed"), goal_type=_goal_type(ctx, book, arg))
    steps = plan(book.rules, attributes)
    original = ctx.settings
    run_settings = original.model_copy(deep=True)
    for key, value in list(steps.settings.items()):
        try:
            setattr(run_settings, key, value)
        except ValueError as err:  # pydantic's ValidationError is a ValueError
            ctx.emit(Warning(f"policy could not set {key}={value}: {err}"))
            steps.settings.pop(key)
    effective = {k: getattr(run_settings, k, None) for k in (*RECORDED, *steps.settings)} | steps.hints
    store = state.store_for(ctx)
    run_row = store.start_run(run, cmd.name, arg, attributes, effective, shell=state.shell)
    _announce(ctx, store, run_row, run, steps)

    before = run_settings.model_dump()
    ctx.settings, ctx.run_attributes, ctx.run_id = run_settings, dict(steps.hints), run
    _repoint_llm(ctx, original, run_settings)
    started = time.monotonic()
    result, error = None, None
    try:
        result = cmd.handler(ctx, arg)
        return result
    except BaseException as err:
        error = err
        raise
    finally:
        # what the command itself set (not what the policies set) outlives the run
        for key, value in run_settings.model_dump().items():
            if value != before[key]:
                setattr(original, key, value)
        ctx.settings, ctx.run_attributes, ctx.run_id = original, {}, None
        _repoint_llm(ctx, run_settings, original)
        seconds = time.monotonic() - started
        if error is None:
            score, detail = score_result(result)
            store.finish_run(run_row, ok=bool(getattr(result, "ok", True)), status=detail.get("status"),
                             seconds=seconds)
            store.add_outcome(run_row, "auto", score, detail)
            if getattr(result, "ok", True):
                judge_run(ctx, store, run_row, arg, result)
        elif isinstance(error, Cancelled):
            store.finish_run(run_row, ok=False, status="cancelled", seconds=seconds)
        else:
            message = error.message if isinstance(error, UserError) else type(error).__name__
            store.finish_run(run_row, ok=False, status="error", seconds=seconds)
            store.add_outcome(run_row, "auto", 0.0, {"ok": False, "error": message})


def _repoint_llm(ctx, old, new) -> None:
    """The shell's LLM keeps the settings object it was built with; point it at the run's
    copy (and back) so a steered temperature or timeout takes effect without a rebuild."""
    llm = getattr(ctx, "_llm", None)
    if llm is not None and getattr(llm, "settings", None) is old:
        llm.settings = new


def _announce(ctx, store, run_row: int, run: str, steps: Plan) -> None:
    """Log, emit and trace each application; report conflicts."""
    session = getattr(ctx, "session", None)
    for i, app in enumerate(steps.applications, start=1):
        store.log_application(run_row, run, app.rule.name, app.rule.target, app.changes, app.overridden)
        ctx.emit(PolicyApplied(run, app.rule.name, app.rule.target, dict(app.changes)))
        ctx.emit(TraceNode(run, f"policy-{i}", None, "policy", app.label(),
                           detail=app.rule.summary(), status="overridden" if not app.changes else "applied"))
        if session is not None:
            # the recorder keeps memory events only; write the application beside them
            session.write("note", kind="policy", input=getattr(session, "current_input", None), run=run,
                          rule=app.rule.name, target=app.rule.target, changes=app.changes,
                          overridden=app.overridden)
    for conflict in steps.conflicts:
        ctx.emit(Warning(str(conflict)))
        if session is not None:
            session.write("note", kind="policy.conflict", input=getattr(session, "current_input", None), run=run,
                          attribute=conflict.attribute, winner=conflict.winner, loser=conflict.loser)


# -- the optional LLM judge -----------------------------------------------------------------

RUBRIC = """You grade one answer of a reasoning assistant. Score 1-5:
5 = correct, complete and justified; 4 = correct with minor gaps; 3 = partly correct or unsupported;
2 = mostly wrong or evasive; 1 = wrong, irrelevant or empty.
Reply with JSON {"score": N, "reason": "one sentence"}."""


def judge_run(ctx, store, run_row: int, text: str, result) -> float | None:
    """Score a run with `judge_model` (when set) and store it; failures only warn."""
    import json

    from pydantic import BaseModel, Field

    model = getattr(ctx.settings, "judge_model", None)
    if not model or not text.strip():
        return None

    class Judgement(BaseModel):
        score: int = Field(ge=1, le=5)
        reason: str = ""

    to_dict = getattr(result, "to_dict", None)
    answer = json.dumps(to_dict() if callable(to_dict) else {}, default=str, ensure_ascii=False)[:4000]
    messages = [{"role": "system", "content": RUBRIC},
                {"role": "user", "content": f"Request:\n{text}\n\nAnswer (as data):\n{answer}"}]
    original = ctx.settings
    ctx.settings = original.model_copy(update={"model": model})
    try:
        verdict = ctx.llm.json(messages, Judgement, purpose="policy.judge")
    except UserError as err:
        ctx.emit(Warning(f"judge {model} failed: {err.message}"))
        return None
    finally:
        ctx.settings = original
    score = (verdict.score - 1) / 4
    store.add_outcome(run_row, "judge", score, {"model": model, "rating": verdict.score, "reason": verdict.reason})
    return score
