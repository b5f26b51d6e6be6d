"""What /resume and /sessions read from a recording beyond its raw events: the items a session
ended with, each with the English it was told in, and the workspaces it used.

It reads a `Recording` (sessions/log.py) and changes nothing; rebuilding memory from it is
core/memory/ops.py (`resumable`, `restore`).
"""

from __future__ import annotations

from sym.sessions.log import Recording, final_state


def ended_with(rec: Recording) -> tuple[str, dict[str, dict]]:
    """The workspace a session ended in and its items then (id -> memory event), each event with
    its English (`nl`): logged with the event, or, in a log written before memory events kept
    it, taken from the result that added the item."""
    workspace, items = final_state(rec)
    missing = [i for i, e in items.items() if not isinstance(e.get("nl"), str)]
    if missing:
        told = _english_in_results(rec)
        items = {i: ({**e, "nl": told[i]} if i in told and not isinstance(e.get("nl"), str) else e)
                 for i, e in items.items()}
    return workspace, items


def _english_in_results(rec: Recording) -> dict[str, str]:
    """item id -> English, from the item lists results carry (`added`, `items`: {id, nl, …})."""
    out: dict[str, str] = {}
    for e in rec.outputs():
        result = e.get("result")
        for value in result.values() if isinstance(result, dict) else ():
            for entry in value if isinstance(value, list) else ():
                if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("nl"), str) \
                        and entry["nl"]:
                    out[entry["id"]] = entry["nl"]
    return out


def workspaces_used(rec: Recording) -> list[str]:
    """The workspaces a session worked in, in the order it first used them: the one it started
    in, each it switched to (a /workspace that succeeded), each its memory changes were made in."""
    seen: dict[str, None] = {}
    start = rec.header.get("workspace")
    if isinstance(start, str) and start:
        seen[start] = None
    for e in rec.events:
        name = None
        if e["t"] == "memory":
            name = e.get("workspace")
        elif e["t"] == "output":
            result = e.get("result")
            if isinstance(result, dict) and result.get("ok") is True and result.get("command") in SWITCHES \
                    and "deleted" not in result:       # /workspace rm NAME names one it did not use
                name = result.get("workspace")
        if isinstance(name, str) and name:
            seen.setdefault(name, None)
    return list(seen)


# commands whose result names the workspace the shell is in afterwards
SWITCHES = frozenset({"/workspace", "/resume"})
