"""Steering: the dispatcher runs every command through `steer`, which applies the workspace's
policies around it — match, announce, run on a copy of the settings, restore, score, judge.

The rules, their matching, the run log and the scores live in core/reason/policy and take
explicit inputs; this room is the front-end's side: it swaps the shell's settings for one run
and writes what was applied into the trace and the session log.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from sym.core.errors import UserError
from sym.core.events import PolicyApplied, TraceNode, Warning
from sym.core.reason.policy import POLICY_FILE

if TYPE_CHECKING:
    from sym.core.reason.policy.apply import Plan, PolicyState

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
    from sym.core.memory.workspace import workspace_dir

    return name, workspace_dir(ctx.memory.workspace)


def book(ctx):
    """The current workspace's policy book (re-read when its file changed)."""
    return policy_state(ctx).book_for(*_where(ctx), ctx.emit)


def store(ctx):
    """The current workspace's policy run log."""
    return policy_state(ctx).store_for(*_where(ctx), ctx.emit)


def run_hints(ctx) -> dict:
    """Reasoner hints the policies set for the command now running (prompter, mode, …);
    empty when no rule applied. Commands read it as `run_hints(ctx).get("prompter")`."""
    return dict(ctx.run_attributes or {})


def steer(ctx, cmd, arg: str):
    """Run `cmd.handler(ctx, arg)` under the workspace's policies (the dispatcher's hook)."""
    if ctx.policy_state is None:      # no policy touched yet in this shell, and none on disk: nothing
        directory = _where(ctx)[1]    # to steer (and the policy machinery is not even imported)
        if directory is None or not (directory / POLICY_FILE).exists():
            return cmd.handler(ctx, arg)
    rules = book(ctx)    # read (when changed) before any command, so a bad file is reported at once
    if not getattr(cmd, "steerable", True) or getattr(cmd, "group", "") in EXEMPT_GROUPS:
        return cmd.handler(ctx, arg)
    if rules.error is not None and not rules.reported_now:
        ctx.emit(Warning(f"policies.yaml still has an error (/policy list shows it); "
                         f"{'older rules' if rules.rules else 'no rules'} in force"))
    if not rules.rules:
        return cmd.handler(ctx, arg)
    return _steered_run(ctx, rules, cmd, arg)


def _steered_run(ctx, rules, cmd, arg: str):
    from sym.core.reason.policy.apply import effective, finish, goal_type, keep_own_changes, plan, run_settings
    from sym.core.reason.policy.classify import run_attributes

    run = ctx.new_run(cmd.name.lstrip("/") or "run")
    attributes = run_attributes(cmd.name, arg, workspace=getattr(ctx.memory, "workspace", "default"),
                                source=ctx.source, goal_type=goal_type(rules, arg, lambda: ctx.llm, ctx.emit))
    steps = plan(rules.rules, attributes)
    original = ctx.settings
    settings = run_settings(original, steps, ctx.emit)
    log = store(ctx)
    run_row = log.start_run(run, cmd.name, arg, attributes, effective(settings, steps),
                            shell=policy_state(ctx).shell)
    _announce(ctx, log, run_row, run, steps)

    before = settings.model_dump()
    ctx.settings, ctx.run_attributes, ctx.run_id = settings, dict(steps.hints), run
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
        keep_own_changes(settings.model_dump(), before, original)
        ctx.settings, ctx.run_attributes, ctx.run_id = original, {}, None
        if finish(log, run_row, result, error, time.monotonic() - started):
            judge_run(ctx, log, run_row, arg, result)


def _announce(ctx, log, run_row: int, run: str, steps: Plan) -> None:
    """Log, emit and trace each application; report conflicts."""
    session = ctx.session
    for i, app in enumerate(steps.applications, start=1):
        log.log_application(run_row, run, app.rule.name, app.rule.target, app.changes, app.overridden)
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
