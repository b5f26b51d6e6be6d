"""Replay a recorded session: re-run its inputs in a scratch data dir and compare with the record.

`--verify` compares every command's result and every memory change with what was recorded
(ignoring timestamps) and exits 0 only when all are equal. Inputs are re-typed into the
dispatcher exactly as recorded; nothing from the file is evaluated. `--offline` answers
every model call from the recorded `llm` events (matched by request key) and never opens a
connection; a request the recording lacks fails with LLMError(reason="offline").
Unless `trust` is given, the replay runs in its scratch directory and `sessions.guard` skips
every input (and header setting) that would reach a file outside it or another host.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from core.errors import UserError
from core.events import ItemAdded, ItemRemoved
from sessions.log import VOLATILE, Recording, bound_payload, is_bounded, normalise  # noqa: F401


def memory_change(event) -> dict | None:
    if isinstance(event, ItemAdded):
        return {"op": "add", "id": event.item_id, "kind": event.kind, "text": event.text}
    if isinstance(event, ItemRemoved):
        return {"op": "remove", "id": event.item_id, "kind": event.kind, "text": event.text}
    return None


class OfflineBackend:
    """A Backend that answers from a recording's `llm` events: each request key gets its recorded
    outcomes in order (the last one repeats); recorded failures fail the same way again."""

    name = "offline"
    host = "the recording"

    def __init__(self, events: list[dict]):
        self._outcomes: dict[str, list[dict]] = defaultdict(list)
        for event in events:
            if isinstance(event.get("reply"), dict) or isinstance(event.get("error"), dict):
                self._outcomes[event["key"]].append(event)
        self._served: dict[str, int] = defaultdict(int)

    def _outcome(self, model: str, messages: list, format, options: dict | None) -> dict:
        from core.llm import LLMError
        from core.llm.calllog import request_key

        key = request_key(model, messages, format, options)
        outcomes = self._outcomes.get(key)
        if not outcomes:
            raise LLMError(f"the recording has no reply for this request to {model}", reason="offline",
                           hint="replay without --offline to ask the model")
        n = self._served[key]
        self._served[key] = n + 1
        event = outcomes[min(n, len(outcomes) - 1)]
        if isinstance(event.get("reply"), dict) and is_bounded(event["reply"].get("text")):
            raise LLMError("the recording keeps only the start of this reply (it was too long to log whole)",
                           reason="offline", hint="replay without --offline to ask the model")
        error = event.get("error")
        if isinstance(error, dict):
            raise LLMError(str(error.get("message") or "the recorded call failed"),
                           reason=str(error.get("reason") or "server"),
                           hint=error.get("hint") if isinstance(error.get("hint"), str) else None)
        return event["reply"]

    def chat(self, messages, *, model, format=None, options=None, timeout=None):
        from core.llm import Reply

        reply = self._outcome(model, messages, format, options)
        return Reply(str(reply.get("text") or ""), model, _count(reply.get("prompt_tokens")),
                     _count(reply.get("completion_tokens")))

    def stream(self, messages, *, model, options=None, timeout=None) -> Iterator:
        reply = self.chat(messages, model=model, options=options)
        if reply.text:
            yield reply.text
        yield reply

    def embed(self, texts, *, model):
        from core.llm import LLMError

        raise LLMError("embeddings are not recorded in a session", reason="offline",
                       hint="replay without --offline")

    def models(self):
        from core.llm import LLMError

        raise LLMError("the model list is not recorded in a session", reason="offline",
                       hint="replay without --offline")

    def ping(self) -> bool:
        return False


def _count(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def offline_llm(rec: Recording, ctx):
    """An LLM for `ctx` whose every call is answered from `rec`."""
    from core.llm.facade import LLM

    return LLM(OfflineBackend(rec.llm_calls()), ctx.settings, emit=lambda event: ctx.emit(event),
               session=ctx.session, cancel=ctx.cancel)


@dataclass
class ReplayReport:
    commands: int = 0
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0
    skipped: list[str] = field(default_factory=list)   # one line per input or setting not replayed


def replay(rec: Recording, *, verify: bool = False, offline: bool = False, until: int | None = None,
           out: TextIO, err: TextIO, echo: bool = False, trust: bool = False) -> ReplayReport:
    """Re-run the recording's inputs in a fresh scratch data directory. Without `trust`, inputs
    that would read or write outside it or change hosts are skipped, one line each on `err`."""
    from repl.dispatcher import MemoryOptions, open_shell
    from repl.render import to_text
    from sessions.guard import HOST_SETTINGS, TRUST_HINT, ReplayGuard, is_host_or_path_setting

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

    old_home, old_cwd = os.environ.get("SYM_HOME"), os.getcwd()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="sym-replay-") as scratch:
        os.environ["SYM_HOME"] = scratch
        try:
            if trust:
                where = rec.header.get("base_dir") or rec.header.get("cwd")
                base_dir = Path(where) if isinstance(where, str) else None
            else:   # relative names resolve in the scratch directory, and only there
                os.chdir(scratch)
                base_dir = Path(scratch)
                for key in HOST_SETTINGS:    # (the header's cwd and base_dir only matter with --trust)
                    if rec.header.get(key) is not None:
                        skip(f"header field {key}: a replay keeps this machine's hosts and paths")
            # the replay records into the scratch directory, so /save and friends work as they did
            shell = open_shell(MemoryOptions(rec.header.get("workspace", "default")), emit=collect, record=True,
                               base_dir=base_dir)
            guard = None if trust else ReplayGuard(Path(scratch), shell.registry)
            for key, value in (rec.header.get("settings") or {}).items():
                if guard is not None and is_host_or_path_setting(key) and value is not None:
                    skip(f"header setting {str(key)[:40]}: a replay keeps this machine's hosts and paths")
                    continue
                try:
                    shell.ctx.settings.set(key, "none" if value is None else str(value))
                except UserError:
                    pass  # a setting this sym does not know: the outputs will tell
            if offline:
                shell.ctx.llm_override = offline_llm(rec, shell.ctx)
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
            if old_home is None:
                os.environ.pop("SYM_HOME", None)
            else:
                os.environ["SYM_HOME"] = old_home
    report.seconds = time.perf_counter() - started
    return report


def _shown(text: str) -> str:
    one = " ".join(text.split())
    return repr(one if len(one) <= 60 else one[:57] + "…")


def _compare(n: int, text: str, name: str, result, recorded: dict | None, recorded_changes: list, changes: list) -> list[str]:
    label = f"input {n} ({text[:60]!r})"
    if recorded is None:
        return [f"{label}: no recorded output"]
    out = []
    try:
        got = normalise(bound_payload({"command": name, "ok": result.ok, "kind": result.kind, **result.to_dict()}))
        if normalise(recorded.get("result")) != got:
            out.append(f"{label}: output differs")
    except RecursionError:
        out.append(f"{label}: the recorded output is nested too deeply to compare")
    if recorded_changes != changes:
        out.append(f"{label}: memory changes differ")
    return out
