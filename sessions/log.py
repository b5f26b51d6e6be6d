"""The session log: one JSON object per line, appended and flushed per event.

Events: `header` (format, sym version, workspace, settings), `input` (what the user typed),
`output` (the command's result as data), `memory` (items added or removed, with content; the
items one command adds are one event, `op: adds`, read back as one `add` event each),
`llm` (one per model call: request key, purpose, model, request, reply or error), `note` (a policy
applied, a conflict, an approval, and `opened`: a workspace's items and templates as it opened, so
a replay starts from the memory the session started from). A shell's log is a subscriber of its
event stream (`SessionLog.hear`): it writes what it hears, and nothing else writes it. Reading
never evaluates anything: it is `json.loads` per line and a check of the shape. Long texts and
payloads are logged bounded (sessions.bounds).
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from sym.core import __version__
from sym.core.errors import DiskFull, UsageError, UserError, disk_full
from sym.core.events import (
    Approval,
    InputReceived,
    ItemAdded,
    ItemRemoved,
    LLMExchange,
    PolicyApplied,
    PolicyConflict,
    ResultReady,
    WorkspaceOpened,
)
from sym.core.home import data_dir
from sym.core.routes import Routes
from sym.sessions.bounds import bound_payload, bound_text

FORMAT = 2                    # 2: the items one command adds are one `adds` event (1 had an event each)
EVENT_TYPES = ("header", "input", "output", "memory", "llm", "note")
OPENED_LIMIT = 10_000         # a workspace that opens with more items is logged as its count only
ADDS_LIMIT = 50_000           # items held for one `adds` event before it is written (a bulk add's memory)
ADDED_FIELDS = ("id", "kind", "text", "source", "nl")   # an `adds` event's items: these, in this order


def sessions_dir() -> Path:
    return data_dir() / "sessions"


# Sessions nobody named (`/save NAME` names one) are rotated: when a new one starts, the oldest go
# until at most KEEP_UNNAMED of them, together at most KEEP_UNNAMED_MB, remain. Named ones stay.
KEEP_UNNAMED = 200
KEEP_UNNAMED_MB = 100
_UNNAMED = re.compile(r"\d{8}-\d{6}-\d+")


def is_unnamed(path: Path) -> bool:
    return _UNNAMED.fullmatch(path.stem) is not None


def rotate(folder: Path, *, keep: int | None = None, keep_mb: float | None = None) -> list[Path]:
    """Remove the oldest unnamed sessions beyond the caps (KEEP_UNNAMED, KEEP_UNNAMED_MB unless
    given); returns what was removed."""
    keep = KEEP_UNNAMED if keep is None else keep
    keep_mb = KEEP_UNNAMED_MB if keep_mb is None else keep_mb
    found = []
    for path in folder.glob("*.jsonl") if folder.is_dir() else []:
        if is_unnamed(path):
            try:
                found.append((path.stat(), path))
            except OSError:
                continue            # removed meanwhile by another shell
    found.sort(key=lambda sp: sp[0].st_mtime, reverse=True)       # newest first
    removed, total = [], 0
    for n, (stat, path) in enumerate(found):
        total += stat.st_size
        if n >= keep or total > keep_mb * 1_000_000:
            try:
                path.unlink()
                removed.append(path)
            except OSError:
                pass
    return removed


def list_sessions(folder: Path | None = None) -> list[Path]:
    """Every session file, newest first."""
    folder = folder or sessions_dir()
    stamped = []
    for path in folder.glob("*.jsonl") if folder.is_dir() else []:
        try:
            stamped.append((path.stat().st_mtime, path))
        except OSError:
            continue
    return [path for _, path in sorted(stamped, key=lambda tp: (tp[0], tp[1].name), reverse=True)]


class SessionLog:
    """Appends events to a session file; each line is written whole or not at all, at once.

    A write the disk refuses (full, or any other error) is taken back to the last whole line and
    recording stops: `stopped` says why, once, for the front-end (EventStream passes it on)."""

    def __init__(self, path: Path, *, workspace: str, settings: dict, extra: dict | None = None):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as err:   # SYM_HOME under a file, read-only, full: one line (exit 2), no traceback
            raise UsageError(f"cannot write the session log in {path.parent}: {err.strerror or err}",
                             hint="set SYM_HOME to a writable directory") from None
        self.path = path
        self._lock = threading.Lock()   # parallel model calls record from several threads
        self.seq = 0
        self.current_input: int | None = None
        self.stopped = ""               # why recording stopped (a full disk), once it has
        self._told = False
        self._added: list[ItemAdded] = []   # items added since the last other event: written as one
        self._routes: Routes | None = None   # what each other event writes (built on first use)
        self.write("header", format=FORMAT, sym=__version__, workspace=workspace, settings=settings,
                   started=time.time(), pid=os.getpid(), **(extra or {}))

    @classmethod
    def start(cls, *, workspace: str, settings: dict, extra: dict | None = None) -> SessionLog:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        rotate(sessions_dir(), keep=KEEP_UNNAMED - 1)       # with this one: KEEP_UNNAMED
        return cls(sessions_dir() / f"{stamp}-{os.getpid()}.jsonl", workspace=workspace, settings=settings,
                   extra=extra)

    def write(self, event_type: str, /, **fields) -> None:
        with self._lock:
            if self._fd is None:
                return
            self.seq += 1
            # ASCII escapes keep any text writable, lone surrogates from undecodable input included
            data = (json.dumps({"t": event_type, "seq": self.seq, **fields}, ensure_ascii=True, default=str)
                    + "\n").encode("ascii")
            try:
                end = os.lseek(self._fd, 0, os.SEEK_END)
            except OSError as err:
                self._stop(err, None)
                return
            try:
                done = 0
                while done < len(data):      # a short write goes on where it stopped; ENOSPC raises
                    done += os.write(self._fd, data[done:])
            except OSError as err:   # a full disk stops the log, never the command being logged
                self._stop(err, end)

    def _stop(self, err: OSError, end: int | None) -> None:
        """Take the file back to its last whole line and stop recording (once)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            if end is not None:
                os.ftruncate(fd, end)    # (freeing space never needs space)
        except OSError:
            pass
        os.close(fd)
        why = "disk full" if disk_full(err) else (err.strerror or str(err))
        self.stopped = f"{why}: the session log stopped recording at event {self.seq - 1} ({self.path.name}); " \
                       "the session goes on unrecorded"

    def notice(self) -> str:
        """Why recording stopped, the first time it is asked after it did (else "")."""
        if self.stopped and not self._told:
            self._told = True
            return self.stopped
        return ""

    # -- what a shell records: it hears the shell's event stream -----------------------

    def hear(self, event: object) -> None:
        """Record what an event of the shell's stream means for the log: inputs, results, memory
        changes, model calls and policy applications (one table: `_routes`); other events are not
        logged. This is the only way a shell writes its session."""
        if type(event) is ItemAdded:
            self._added.append(event)       # written with the others of its command, as one event
            if len(self._added) >= ADDS_LIMIT:
                self.flush()
            return
        self.flush()
        if self._routes is None:
            self._routes = Routes({
                InputReceived: self._input,
                ResultReady: self._result,
                ItemRemoved: lambda e: self.write("memory", op="remove", input=self.current_input, id=e.item_id,
                                                  kind=e.kind, text=e.text, workspace=e.workspace),
                LLMExchange: lambda e: self.write("llm", input=self.current_input, key=e.key, purpose=e.purpose,
                                                  model=e.model, request=bound_payload(e.request),
                                                  reply=bound_payload(e.reply), cached=e.cached, error=e.failure),
                Approval: lambda e: self.write("note", kind="approval", input=self.current_input, run=e.run,
                                               line=e.line, allowed=e.allowed, by=e.by),
                WorkspaceOpened: lambda e: self.write("note", kind="opened", input=self.current_input,
                                                      **opened_fields(e)),
                PolicyApplied: lambda e: self.write("note", kind="policy", input=self.current_input, run=e.run,
                                                    rule=e.rule, target=e.target, changes=e.changes,
                                                    overridden=e.overridden),
                PolicyConflict: lambda e: self.write("note", kind="policy.conflict", input=self.current_input,
                                                     run=e.run, attribute=e.attribute, winner=e.winner,
                                                     loser=e.loser),
            })
        self._routes(event)

    def _input(self, event: InputReceived) -> None:
        self.write("input", text=event.text, source=event.source, ts=time.time())
        self.current_input = self.seq

    def _result(self, event: ResultReady) -> None:
        result = event.result
        if getattr(result, "cancelled", False) is not True and hasattr(result, "log_payload"):
            self.write("output", input=self.current_input, result=result.log_payload(event.command))
            return
        payload = {"command": event.command, "ok": result.ok, "kind": result.kind, **result.log_dict()}
        if getattr(result, "cancelled", False) is True:
            payload["cancelled"] = True      # a replay neither runs nor compares it
        self.write("output", input=self.current_input, result=bound_payload(payload))

    def flush(self) -> None:
        """Write the items added since the last other event: one `add` event, or for several one
        `adds` event per workspace (a /consult of 100k facts is one line, not 100k)."""
        added, self._added = self._added, []
        if len(added) == 1:
            (event,) = added
            self.write("memory", op="add", input=self.current_input, id=event.item_id, kind=event.kind,
                       text=event.text, source=event.source, workspace=event.workspace,
                       **({"nl": event.nl} if event.nl else {}))     # /resume gives it back
            return
        by_workspace: dict[str, list[list[str]]] = {}
        for event in added:
            by_workspace.setdefault(event.workspace, []).append(
                [event.item_id, event.kind, event.text, event.source, event.nl])
        for workspace, items in by_workspace.items():
            self.write("memory", op="adds", input=self.current_input, workspace=workspace, items=items)

    def rename(self, name: str) -> Path:
        """Give the session a name: the file moves to NAME.jsonl and logging goes on there."""
        target = self.path.with_name(f"{name}.jsonl")
        if target.exists() and target != self.path:
            raise UserError(f"a session named {name!r} exists already", hint="/sessions lists them; pick another name")
        with self._lock:
            if self._fd is None:
                if self.stopped.startswith("disk full"):
                    raise DiskFull("the session log", hint=f"it stopped recording when the disk filled; free some "
                                                           f"space: {self.path} holds the session up to then")
                raise UserError(f"the session log is not recording ({self.stopped or 'closed'})")
            try:
                os.replace(self.path, target)
            except OSError as err:
                if disk_full(err):
                    raise DiskFull("the session log's new name") from None
                raise UserError(f"cannot rename {self.path.name}: {err.strerror or err}") from None
            self.path = target        # (the open descriptor follows the file)
        return target

    def close(self) -> None:
        self.flush()
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


def opened_fields(event: WorkspaceOpened) -> dict:
    """What an `opened` note keeps of a workspace as it opened: its items (id, kind, text, source,
    English) and templates; past OPENED_LIMIT items only their number (a replay then warns)."""
    fields: dict = {"workspace": event.workspace, "count": len(event.items)}
    if len(event.items) <= OPENED_LIMIT:
        fields["items"] = [{"id": i.item_id, "kind": i.kind, "text": bound_text(i.text), "source": i.source,
                            **({"nl": bound_text(i.nl)} if i.nl else {})} for i in event.items]
        fields["templates"] = {key: template for key, _, template in event.predicates if template}
    return fields


@dataclass
class Recording:
    """A session file read back: its header and events (up to the last complete one)."""

    path: Path
    header: dict
    events: list[dict] = field(default_factory=list)
    truncated: bool = False      # the file ended mid-event; `events` stops before it

    def inputs(self) -> list[dict]:
        return [e for e in self.events if e["t"] == "input"]

    def outputs(self) -> list[dict]:
        return [e for e in self.events if e["t"] == "output"]

    def llm_calls(self) -> list[dict]:
        return [e for e in self.events if e["t"] == "llm"]

    def started_with(self) -> dict[str, dict]:
        """Each workspace the session opened -> the `opened` note of its first opening (what it
        held before the session changed it)."""
        first: dict[str, dict] = {}
        for e in self.events:
            if e["t"] == "note" and e.get("kind") == "opened" and isinstance(e.get("workspace"), str):
                first.setdefault(e["workspace"], e)
        return first


def read_session(path: Path) -> Recording:
    """Parse a session file. A last line cut short is dropped (with `truncated` set); any other
    damage, or a format newer than this sym understands, is a UserError."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"no such session file: {path}") from None
    except OSError as err:
        raise UserError(f"cannot read {path}: {err.strerror or err}") from None
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    truncated = False
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        truncated = True   # no final newline: the writer died mid-line
        lines.pop()
    first = next((line.strip() for line in lines if line.strip()), "")
    if path.suffix != ".jsonl" and first and not first.startswith("{"):     # a .sym script, not a log
        raise UserError(f"{path.name} is a script or text, not a session log (its lines are not JSON events)",
                        hint=f"run a script with: sym --batch {path}")
    events: list[dict] = []
    numbers: list[int] = []      # the line of each event (those one `adds` line holds share it)
    for number, line in enumerate(lines, start=1):
        try:
            event = json.loads(line)
        except (ValueError, RecursionError):
            raise UserError(f"{path.name}:{number}: not a session event (damaged file?)") from None
        if not isinstance(event, dict) or event.get("t") not in EVENT_TYPES:
            raise UserError(f"{path.name}:{number}: not a session event (damaged file?)")
        if event["t"] == "memory" and event.get("op") == "adds":
            added = _added_events(path.name, number, event)
            events += added
            numbers += [number] * len(added)
            continue
        events.append(event)
        numbers.append(number)
    if not events or events[0]["t"] != "header":
        if not events and truncated:
            raise UserError(f"{path.name} ends before its header was complete")
        raise UserError(f"{path.name} is not a sym session (no header)")
    header = events.pop(0)
    version = header.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise UserError(f"{path.name}: the header has no format version")
    if version > FORMAT:
        raise UserError(f"{path.name} was written by a newer sym (session format {version}, this sym reads {FORMAT})",
                        hint="upgrade sym to replay it")
    _check_shape(path.name, 1, header)
    for number, event in zip(numbers[1:], events):
        _check_shape(path.name, number, event)
    return Recording(path, header, events, truncated)


def _added_events(name: str, number: int, event: dict) -> list[dict]:
    """An `adds` event read back as the `add` event of each of its items."""
    items = event.get("items")
    if not isinstance(items, list):
        raise UserError(f"{name}:{number}: a memory event with a bad 'items' (damaged file?)")
    common = {"t": "memory", "seq": event.get("seq"), "op": "add", "input": event.get("input"),
              "workspace": event.get("workspace")}
    out = []
    for item in items:
        if not isinstance(item, list) or len(item) != len(ADDED_FIELDS) or not all(isinstance(v, str) for v in item):
            raise UserError(f"{name}:{number}: a memory event with a bad item (damaged file?)")
        fields = dict(zip(ADDED_FIELDS, item))
        if not fields["nl"]:
            del fields["nl"]
        out.append({**common, **fields})
    return out


# the fields each event type must have, and their JSON types (None: may be absent)
_FIELDS: dict[str, dict[str, tuple]] = {
    "header": {"workspace": (str,), "settings": (dict, type(None))},
    "input": {"text": (str,), "source": (str, type(None))},
    "output": {"input": (int, type(None)), "result": (dict,)},
    "memory": {"op": (str,), "id": (str,), "kind": (str,), "text": (str,), "input": (int, type(None)),
               "workspace": (str, type(None)), "source": (str, type(None)), "nl": (str, type(None))},
    "llm": {"key": (str,), "purpose": (str,), "model": (str,), "input": (int, type(None)),
            "reply": (dict, type(None)), "error": (dict, type(None))},
}


def _check_shape(name: str, number: int, event: dict) -> None:
    """Refuse an event whose fields have the wrong JSON types (so nothing downstream trips on them)."""
    if not isinstance(event.get("seq"), int) or isinstance(event.get("seq"), bool):
        raise UserError(f"{name}:{number}: an event without a sequence number (damaged file?)")
    for key, types in _FIELDS.get(event["t"], {}).items():
        value = event.get(key)
        optional = type(None) in types
        if (value is None and not optional) or (value is not None and
                                               (not isinstance(value, types) or isinstance(value, bool))):
            raise UserError(f"{name}:{number}: a {event['t']} event with a bad {key!r} (damaged file?)")


def find_session(name_or_path: str) -> Path:
    """A session by name (in the sessions directory) or by path."""
    try:
        p = Path(name_or_path).expanduser()
        if p.exists():
            return p
        named = sessions_dir() / f"{name_or_path}.jsonl"
        if named.exists():
            return named
    except (OSError, ValueError, RuntimeError):  # a name too long for the OS, a NUL, ~nosuchuser
        pass
    shown = name_or_path if len(name_or_path) <= 60 else name_or_path[:57] + "…"
    raise UserError(f"no session {shown!r}", hint="/sessions lists them")


def final_state(rec: Recording) -> tuple[str, dict[str, dict]]:
    """The workspace a session ended in and its items then (id -> memory event), from the log."""
    workspace = rec.header.get("workspace", "default")
    for e in rec.events:
        if e["t"] == "memory" and e.get("workspace"):
            workspace = e["workspace"]
    items: dict[str, dict] = {}
    for e in rec.events:
        if e["t"] != "memory" or e.get("workspace", workspace) != workspace:
            continue
        if e.get("op") == "add" and isinstance(e.get("text"), str):
            items[e["id"]] = e
        elif e.get("op") == "remove":
            items.pop(e.get("id"), None)
    return workspace, items
