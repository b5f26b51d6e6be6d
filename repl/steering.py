"""Steering: before every command the dispatcher asks `steer` what the workspace's policies
make of it — match, announce, the run's settings (a copy with the policies' values) and hints —
and closes the run through it afterwards: score, judge.

The rules, their matching, the run log and the scores live in core/reason/policy and take
explicit inputs; this room is the front-end's side: it returns the run's settings and hints
(nothing on the shell is swapped) and writes what was applied into the trace and the session log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sym.core.errors import UserError
from sym.core.events import PolicyApplied, PolicyConflict, TraceNode, Warning
from sym.core.memory.workspace import workspace_dir
from sym.core.reason.policy import POLICY_FILE

if TYPE_CHECKING:
    from sym.core.reason.policy.apply import PolicyPlan, PolicyState
    from sym.core.settings import Settings

# commands that manage the shell itself (Command.steerable False, or of these groups) are never
# steered nor counted as runs
EXEMPT_GROUPS = frozenset({"shell", "session"})


def policy_state(ctx) -> PolicyState:
    """The shell's policy state (made on first use)."""
    if ctx.policy_state is None:
        from sym.core.reason.policy.apply import PolicyState

        ctx.policy_state = PolicyState()
    return ctx.policy_state


def _where(ctx) -> tuple[str, object]:
    """(workspace name, its directory or None when memory lives in the process only)."""
    name = getattr(ctx.memory, "workspace", "default")
    if ctx.workspaces is None:
        return name, None

    return name, workspace_dir(ctx.memory.workspace)


def book(ctx):
    """The current workspace's policy book (re-read when its file changed)."""
    return policy_state(ctx).book_for(*_where(ctx), ctx.emit)


def store(ctx):
    """The current workspace's policy run log."""
    return policy_state(ctx).store_for(*_where(ctx), ctx.emit)


@dataclass
class Steered:
    """What the workspace's policies make of one command: the settings and hints its run gets,
    the policy run's id, and `close(result, error)`, which records how the run ended (and has
    the judge score it)."""

    settings: Settings
    hints: dict[str, Any]
    run_id: str
    close: Callable[[object, BaseException | None], None]


def steer(ctx, cmd, arg: str, source: str = "typed") -> Steered | None:
    """The policies' course for `cmd` (the dispatcher builds the command's run from it); None when
    no rule applies, and the run takes the shell's settings."""
    if ctx.policy_state is None:      # no policy touched yet in this shell, and none on disk: nothing
        directory = _where(ctx)[1]    # to steer (and the policy machinery is not even imported)
        if directory is None or not (directory / POLICY_FILE).exists():
            return None
    rules = book(ctx)    # read (when changed) before any command, so a bad file is reported at once
    if not getattr(cmd, "steerable", True) or getattr(cmd, "group", "") in EXEMPT_GROUPS:
        return None
    if rules.error is not None and not rules.reported_now:
        ctx.emit(Warning(f"policies.yaml still has an error (/policy list shows it); "
                         f"{'older rules' if rules.rules else 'no rules'} in force"))
    if not rules.rules:
        return None
    return _steered(ctx, rules, cmd, arg, source)


def _steered(ctx, rules, cmd, arg: str, source: str) -> Steered:
    from sym.core.reason.policy.apply import effective, finish, goal_type, plan, run_settings
    from sym.core.reason.policy.classify import run_attributes

    run = ctx.new_run(cmd.name.lstrip("/") or "run")
    attributes = run_attributes(cmd.name, arg, workspace=getattr(ctx.memory, "workspace", "default"),
                                source=source, goal_type=goal_type(rules, arg, lambda: ctx.llm, ctx.emit))
    steps = plan(rules.rules, attributes)
    settings = run_settings(ctx.settings, steps, ctx.emit)
    log = store(ctx)
    run_row = log.start_run(run, cmd.name, arg, attributes, effective(settings, steps),
                            shell=policy_state(ctx).shell)
    _announce(ctx, log, run_row, run, steps)
    started = time.monotonic()

    def close(result: object, error: BaseException | None) -> None:
        if finish(log, run_row, result, error, time.monotonic() - started):
            judge_run(ctx, log, run_row, arg, result)

    return Steered(settings, dict(steps.hints), run, close)


def _announce(ctx, log, run_row: int, run: str, steps: PolicyPlan) -> None:
    """Log, emit and trace each application; report conflicts (the session log hears both)."""
    for i, app in enumerate(steps.applications, start=1):
        log.log_application(run_row, run, app.rule.name, app.rule.target, app.changes, app.overridden)
        ctx.emit(PolicyApplied(run, app.rule.name, app.rule.target, dict(app.changes), dict(app.overridden)))
        ctx.emit(TraceNode(run, f"policy-{i}", None, "policy", app.label(),
                           detail=app.rule.summary(), status="overridden" if not app.changes else "applied"))
    for conflict in steps.conflicts:
        ctx.emit(PolicyConflict(str(conflict), run, conflict.attribute, conflict.winner, conflict.loser))


def judge_run(ctx, log, run_row: int, text: str, result) -> float | None:
    """Score a run with `judge_model` (when set) and store it; failures only warn."""
    from sym.core.reason.policy.apply import judge

    model = getattr(ctx.settings, "judge_model", None)
    if not model or not text.strip():
        return None
    to_dict = getattr(result, "to_dict", None)
    try:
        score, detail = judge(ctx.llm, model, text, to_dict() if callable(to_dict) else {})
    except UserError as err:
        ctx.emit(Warning(f"judge {model} failed: {err.message}"))
        return None
    log.add_outcome(run_row, "judge", score, detail)
    return score
