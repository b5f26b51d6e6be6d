"""Replay a recorded session: re-run its inputs in a scratch data dir and compare with the record.

`--verify` compares every command's result and every memory change with what was recorded
(ignoring timestamps) and exits 0 only when all are equal. Inputs are re-typed into the
dispatcher exactly as recorded; nothing from the file is evaluated. `--offline` answers
every model call from the recording (`sym.sessions.replay.answer_offline`). Unless `trust` is
given, the replay runs in its scratch directory and `sym.sessions.guard` skips every input
(and header setting) that would reach a file outside it or another host; the model server (backend,
base URL, Ollama host) is always this machine's, as its settings and environment say, and the API
key only ever comes from this machine's environment. Even with `trust`, `/set --save` writes a
config file in the scratch directory, never the user's.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from sym.core.errors import UserError
from sym.core.memory.ops import resumable
from sym.core.memory.workspace import Workspaces
from sym.core.settings import Settings, load_settings
from sym.repl.dispatcher import MemoryOptions, open_shell
from sym.repl.render import to_text
from sym.sessions.bounds import bound_payload, is_bounded, normalise
from sym.sessions.guard import HOST_SETTINGS, SERVER_SETTINGS, TRUST_HINT, ReplayGuard, is_host_or_path_setting
from sym.sessions.log import Recording
from sym.sessions.replay import answer_offline, memory_change


@dataclass
class ReplayReport:
    commands: int = 0
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)   # one line per input or setting not replayed
    cancelled: list[str] = field(default_factory=list)  # inputs stopped when recorded: not run, not compared


def replay(rec: Recording, *, verify: bool = False, offline: bool = False, until: int | None = None,
           out: TextIO, err: TextIO, echo: bool = False, trust: bool = False) -> ReplayReport:
    """Re-run the recording's inputs in a fresh scratch data directory. Without `trust`, inputs
    that would read or write outside it or change hosts are skipped, one line each on `err`."""
    def skip(line: str) -> None:
        report.skipped.append(line)
        err.write(f"skipped {line} — {TRUST_HINT}\n")

    if rec.truncated:
        err.write(f"warning: {rec.path.name} ends mid-event; replaying up to its last complete event\n")
    report = ReplayReport()
    outputs = {e.get("input"): e for e in rec.outputs()}
    recorded_changes: dict[int | None, list[dict]] = {}
    for e in rec.events:
        if e["t"] == "memory":
            recorded_changes.setdefault(e.get("input"), []).append(
                {k: e.get(k) for k in ("op", "id", "kind", "text")})
    changes: list[dict] = []

    def collect(event) -> None:
        change = memory_change(event)
        if change is not None:
            changes.append(change)

    machine = server_settings()    # read before SYM_HOME and SYM_CONFIG point into the scratch directory
    old_home, old_config, old_cwd = os.environ.get("SYM_HOME"), os.environ.get("SYM_CONFIG"), os.getcwd()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sym-replay-") as scratch:
        os.environ["SYM_HOME"] = scratch
        os.environ["SYM_CONFIG"] = str(Path(scratch) / "config.toml")   # /set --save stays in here, --trust or not
        try:
            if trust:
                where = rec.header.get("base_dir") or rec.header.get("cwd")
                base_dir = Path(where) if isinstance(where, str) else None
            else:   # relative names resolve in the scratch directory, and only there
                os.chdir(scratch)
                base_dir = Path(scratch)
                for key in sorted(HOST_SETTINGS | SERVER_SETTINGS):   # (cwd and base_dir only matter with --trust)
                    if rec.header.get(key) is not None and not (offline and key in SERVER_SETTINGS):
                        skip(f"header field {key}: a replay keeps this machine's hosts and paths")
            for warning in seed_workspaces(rec):      # the memory the session started from
                err.write(f"warning: {warning}\n")
            # the replay records into the scratch directory, so /save and friends work as they did
            given = tuple((k, "none" if v is None else str(v)) for k, v in machine.items())
            shell = open_shell(MemoryOptions(rec.header.get("workspace", "default"), settings=given), emit=collect,
                               record=True, base_dir=base_dir)
            guard = None if trust else ReplayGuard(Path(scratch), shell.registry)
            for key, value in (rec.header.get("settings") or {}).items():
                if guard is not None and is_host_or_path_setting(key):
                    if offline and key in SERVER_SETTINGS:
                        continue   # every model call is answered from the recording: no server is asked
                    if value is not None and value != machine.get(str(key)):   # the same as here: nothing skipped
                        skip(f"header setting {str(key)[:40]}: a replay keeps this machine's model server, "
                             "hosts and paths")
                    continue
                try:
                    shell.ctx.settings.set(key, "none" if value is None else str(value))
                except UserError:
                    pass  # a setting this sym does not know: the outputs will tell
            if offline:
                answer_offline(rec, shell.ctx)
            shell.ctx.approver = recorded_approvals(rec)
            try:
                inputs = rec.inputs()
                for n, event in enumerate(inputs, start=1):
                    if until is not None and n > until:
                        break
                    changes.clear()
                    if echo:
                        out.write(f"» {event['text']}\n")
                    reason = guard.check(event["text"]) if guard is not None else None
                    if reason is not None:
                        skip(f"input {n} ({_shown(event['text'])}): {reason}")
                        continue
                    if _was_cancelled(outputs.get(event.get("seq"))):   # it changed nothing then: not run now
                        report.cancelled.append(f"input {n} ({_shown(event['text'])})")
                        err.write(f"input {n} ({_shown(event['text'])}) was cancelled when recorded: not replayed\n")
                        continue
                    name, result = shell.execute(event["text"], source=event.get("source", "typed"))
                    report.commands += 1
                    if not verify:
                        body = to_text(result)
                        if body:
                            out.write(body + "\n")
                        continue
                    recorded = outputs.get(event.get("seq"))
                    if recorded is None and n == len(inputs):
                        continue  # the run ended (or crashed) before recording this output: nothing to compare
                    report.differences += _compare(n, event["text"], name, result, recorded,
                                                   recorded_changes.get(event.get("seq"), []), changes)
            finally:
                shell.close()
        finally:
            os.chdir(old_cwd)
            for name, old in (("SYM_HOME", old_home), ("SYM_CONFIG", old_config)):
                if old is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = old
    report.seconds = time.perf_counter() - started
    return report


def seed_workspaces(rec: Recording) -> list[str]:
    """Put each workspace the session opened back in the scratch data directory as it was when
    the session first opened it (items, English, templates); returns a warning per workspace
    whose start was not recorded whole."""
    warnings = []
    for name, note in rec.started_with().items():
        items = note.get("items")
        if not isinstance(items, list):
            warnings.append(f"workspace {name} began with {note.get('count', 'many')} items, more than a session "
                            "records; the replay starts it empty")
            continue
        kept = {str(i): e for i, e in enumerate(items) if isinstance(e, dict) and isinstance(e.get("text"), str)
                and not is_bounded(e["text"])}
        templates = note.get("templates") if isinstance(note.get("templates"), dict) else {}
        if not kept and not templates:
            continue
        try:
            ws = Workspaces()
            memory = ws.open(name)
            try:
                memory.add([(c, src) for c, src, _ in resumable(kept, source=rec.path.name)], merge="off",
                           nls={e["id"]: e["nl"] for e in kept.values() if isinstance(e.get("nl"), str)})
                if templates:
                    memory.set_templates({str(k): str(v) for k, v in templates.items()})
            finally:
                ws.close()
        except UserError as e:
            warnings.append(f"workspace {name}: its starting memory could not be rebuilt ({e.message}); "
                            "the replay starts it empty")
    return warnings


def _was_cancelled(recorded: dict | None) -> bool:
    """Whether a recorded output is a job the user stopped (Esc / Ctrl+C: a Failure of exit 130)."""
    result = recorded.get("result") if isinstance(recorded, dict) else None
    return isinstance(result, dict) and result.get("ok") is False and (
        result.get("cancelled") is True or result.get("error") == "cancelled")   # (a log from before the flag)


def server_settings() -> dict[str, object]:
    """This machine's model server (backend, base URL, Ollama host) and Spark master, from its config
    file and environment (the defaults when the config file cannot be read)."""
    try:
        settings = load_settings()
    except UserError:
        settings = Settings()
    return {key: getattr(settings, key) for key in ("backend", "base_url", "ollama_host", "spark_master")}


def recorded_approvals(rec: Recording):
    """Answers to a chat turn's y/n questions as the user gave them in the recording, in order,
    matched by the command line (a line never asked then is declined)."""
    given: dict[str, list[bool]] = {}
    for e in rec.events:
        if e["t"] == "note" and e.get("kind") == "approval" and e.get("by") == "user":
            given.setdefault(str(e.get("line")), []).append(bool(e.get("allowed")))

    def answer(line: str) -> bool:
        answers = given.get(line)
        return answers.pop(0) if answers else False
    return answer


def first_difference(expected: object, got: object, where: str = "") -> str:
    """Where two outputs first differ, with the expected and the actual value (each cut short)."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in list(expected) + [k for k in got if k not in expected]:
            if expected.get(key) != got.get(key):
                return first_difference(expected.get(key), got.get(key), f"{where}.{key}" if where else str(key))
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (a, b) in enumerate(zip(expected, got, strict=True)):
            if a != b:
                return first_difference(a, b, f"{where}[{i}]")
    return f"{where or 'the output'}: expected {_cut(expected)}, got {_cut(got)}"


def _cut(value: object, limit: int = 80) -> str:
    shown = repr(value)
    return shown if len(shown) <= limit else shown[:limit - 1] + "…"


def _shown(text: str) -> str:
    one = " ".join(text.split())
    return repr(one if len(one) <= 60 else one[:57] + "…")


def _compare(n: int, text: str, name: str, result, recorded: dict | None, recorded_changes: list, changes: list) -> list[str]:
    label = f"input {n} ({text[:60]!r})"
    if recorded is None:
        return [f"{label}: no recorded output"]
    out = []
    try:
        got = normalise(result.log_payload(name) if hasattr(result, "log_payload") else
                        bound_payload({"command": name, "ok": result.ok, "kind": result.kind, **result.log_dict()}))
        expected = normalise(recorded.get("result"))
        if expected != got:
            out.append(f"{label}: output differs: {first_difference(expected, got)}")
    except RecursionError:
        out.append(f"{label}: the recorded output is nested too deeply to compare")
    if recorded_changes != changes:
        out.append(f"{label}: memory changes differ")
    return out
