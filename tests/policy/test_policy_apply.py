"""Policies applied around real commands: what the command sees, what is restored, what is
traced, logged in SQLite and written to the session log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sym.core.events import PolicyApplied, TraceNode, Warning
from sym.repl.dispatcher import MemoryOptions, Shell, open_shell
from sym.repl.registry import Command
from sym.repl.results import Result
from sym.repl.steering import policy_state


@dataclass
class Seen(Result):
    kind: ClassVar[str] = "seen"
    settings: dict
    hints: dict
    run: str | None
    status: str = "proved"


def add_probe(shell: Shell) -> list[Seen]:
    """A /probe command that reports what its run was given (and changes the shell's `world` itself)."""
    seen: list[Seen] = []

    def probe(ctx, arg, run):
        opened = run.id if run.numbers is None else None     # a run the policies opened has their id already
        result = Seen(run.settings.model_dump(), dict(run.hints), opened)
        seen.append(result)
        if arg == "open":
            ctx.settings.world = "open"
        return result

    shell.registry.add(Command("/probe", probe, args="TEXT"))
    return seen


def make_shell(events=None):
    shell = Shell(emit=(events.append if events is not None else lambda e: None))
    return shell, add_probe(shell)


RULES = [
    "/policy add {name: proofs, target: reasoner, filter: {command: /probe, goal_type: proof}, "
    "attributes: {max_steps: 7, mode: paper}}",
    "/policy add {name: cool, target: reasoner, filter: {command: probe}, attributes: {temperature: 0.2, max_steps: 2}}",
]


def test_the_run_gets_the_policy_settings_and_the_shell_keeps_its_own():
    events: list = []
    shell, seen = make_shell(events)
    for line in RULES:
        assert shell.execute(line)[1].ok
    shell.execute("/probe prove that socrates is mortal")
    run = seen[-1]
    assert run.settings["max_steps"] == 7 and run.settings["temperature"] == 0.2   # 'proofs' is more specific
    assert run.hints == {"mode": "paper"}
    assert run.run == "probe-1"
    assert shell.ctx.settings.max_steps is None and shell.ctx.settings.temperature == 0.0
    assert not hasattr(shell.ctx, "run_id") and not hasattr(shell.ctx, "run_attributes")   # nothing swapped on the shell
    # a different goal type: only the general rule applies
    shell.execute("/probe bob likes tea")
    assert seen[-1].settings["max_steps"] == 2 and seen[-1].hints == {}


def test_what_the_command_itself_changes_outlives_the_run():
    shell, seen = make_shell()
    shell.execute(RULES[1])
    shell.execute("/probe open")
    assert shell.ctx.settings.world == "open"            # the command's own change stays
    assert shell.ctx.settings.temperature == 0.0         # the policy's change does not


def test_settings_are_restored_when_the_command_fails():
    shell, _ = make_shell()
    shell.execute("/policy add {name: q, target: reasoner, filter: {command: /why}, attributes: {max_steps: 1}}")
    name, result = shell.execute("/why no_such(thing)")     # raises a UserError inside the run
    assert not result.ok and "no_such" in result.message
    assert shell.ctx.settings.max_steps is None
    (record,) = policy_state(shell.ctx).store.runs()
    assert (record.command, record.ok, record.status, record.score) == ("/why", False, "error", 0.0)
    assert record.rules == ["q"]


def test_applications_are_traced_emitted_and_conflicts_reported():
    events: list = []
    shell, _ = make_shell(events)
    for line in RULES:
        shell.execute(line)
    shell.execute("/probe prove it")
    applied = [e for e in events if isinstance(e, PolicyApplied)]
    assert [(e.run, e.rule, e.changes) for e in applied] == [
        ("probe-1", "cool", {"temperature": 0.2}), ("probe-1", "proofs", {"max_steps": 7, "mode": "paper"})]
    traced = [e for e in events if isinstance(e, TraceNode) and e.kind == "policy"]
    assert [e.label for e in traced] == ["policy 'cool' set temperature=0.2 (overridden: max_steps)",
                                         "policy 'proofs' set max_steps=7, mode=paper"]
    warnings = [e.message for e in events if isinstance(e, Warning)]
    assert warnings == ["policy conflict on max_steps: 'cool' sets 2, 'proofs' sets 7; 'proofs' wins"]


def test_applications_and_outcomes_are_logged_with_the_run_id_and_rated():
    shell, _ = make_shell()
    shell.execute(RULES[1])
    shell.execute("/probe a")
    shell.execute("/probe b")
    assert shell.execute("/rate 2")[1].ok
    store = policy_state(shell.ctx).store
    rows = store.db.execute("SELECT run, rule, changes FROM applications ORDER BY id").fetchall()
    assert rows == [("probe-1", "cool", '{"temperature": 0.2, "max_steps": 2}'),
                    ("probe-2", "cool", '{"temperature": 0.2, "max_steps": 2}')]
    first, second = store.runs()
    assert (first.score, first.score_source) == (1.0, "auto")      # status "proved"
    assert (second.score, second.score_source) == (0.25, "user")   # /rate 2 rated the last run
    stats = shell.execute("/policy stats --threshold 0.6")[1]
    assert stats.rules[0]["applied"]["mean"] == 0.625 and stats.rules[0]["applied"]["success"] == 0.5


def test_no_policies_means_no_log_and_no_run_ids_taken(sym):
    sym("p(a).")
    sym("?- p(a).")
    state = policy_state(sym.shell.ctx)
    assert state.store is None
    assert sym.shell.ctx.new_run("ask") == "ask-1"
    assert not sym("/rate 3").ok


def test_policy_applications_appear_in_the_session_log(sym_home):
    from sym.sessions.log import read_session

    shell = open_shell(MemoryOptions(persistent=False), record=True)
    try:
        add_probe(shell)
        shell.execute(RULES[1])
        shell.execute("/probe hello")
        path = shell.ctx.session.path
    finally:
        shell.close()
    rec = read_session(path)
    notes = [e for e in rec.events if e["t"] == "note" and e.get("kind") == "policy"]
    assert [(n["run"], n["rule"], n["changes"]) for n in notes] == [
        ("probe-1", "cool", {"temperature": 0.2, "max_steps": 2})]
    probe_input = [e for e in rec.inputs() if e["text"] == "/probe hello"][0]
    assert notes[0]["input"] == probe_input["seq"]


def test_policy_commands_list_show_rm_and_reject_bad_rules(sym):
    assert sym(RULES[1]).ok
    bad = sym("/policy add {name: x, target: llm, attributes: {temperature: hot}}")
    assert not bad.ok and "temperature" in bad.message
    assert not sym("/policy add {name: x, target: llm").ok
    assert not sym(RULES[1]).ok                          # the name is taken
    listing = sym("/policy list")
    assert [r["name"] for r in listing.rules] == ["cool"]
    assert sym("/policy disable cool").ok and not sym("/policy list").rules[0]["enabled"]
    assert "cool" in sym("/policy show cool").text
    assert sym("/policy rm cool").ok and sym("/policy list").rules == []
    assert not sym("/policy rm cool").ok


def test_user_goal_types_steer_runs():
    shell, seen = make_shell()
    shell.execute("/policy classify legal contract tort")
    shell.execute("/policy add {name: law, target: llm, filter: {goal_type: legal}, attributes: {model: lawyer}}")
    shell.execute("/probe is the contract void?")
    assert seen[-1].settings["model"] == "lawyer"
    shell.execute("/probe is the sky blue?")
    assert seen[-1].settings["model"] == "llama3.1:8b"


def test_a_persistent_workspace_keeps_policies_in_its_yaml_and_rereads_edits(sym_home):
    import os

    from sym.core.memory.workspace import workspace_dir

    events: list = []
    shell = open_shell(MemoryOptions(workspace="w"), record=False, emit=events.append)
    try:
        seen = add_probe(shell)
        shell.execute(RULES[1])
        path = workspace_dir("w") / "policies.yaml"
        assert "cool" in path.read_text()
        shell.execute("/probe x")
        assert (workspace_dir("w") / "policy.sqlite").exists()
        path.write_text(path.read_text().replace("0.2", "0.3"))
        os.utime(path, ns=(10**18, 10**18))
        shell.execute("/probe x")
        assert seen[-1].settings["temperature"] == 0.3
        path.write_text("rules: [broken")
        os.utime(path, ns=(2 * 10**18, 2 * 10**18))
        shell.execute("/probe x")
        assert seen[-1].settings["temperature"] == 0.3       # the previous policies stay in force
        assert any(isinstance(e, Warning) and "policies not reloaded" in e.message for e in events)
        assert not shell.execute("/policy add {name: n, target: llm, attributes: {model: m}}")[1].ok
    finally:
        shell.close()


def test_a_command_marked_not_steerable_runs_without_policies():
    shell, seen = make_shell()
    shell.registry.add(Command("/probe2", shell.registry.get("/probe").handler, args="TEXT", steerable=False))
    shell.execute("/policy add {name: any, target: llm, attributes: {model: steered}}")
    shell.execute("/probe2 plain")
    shell.execute("/probe steered")
    assert [(s.settings["model"] == "steered", s.run) for s in seen] == [(False, None), (True, "probe-1")]
    assert not any(cmd.steerable for cmd in map(shell.registry.get, ("/workspace", "/workspaces", "/policy", "/rate")))
