"""What a chat turn returns: the calls it made (each as sym printed its result) and the model's
own text, marked unverified; a reply that contradicts a verified answer is flagged, not shown
as true."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import ClassVar

from sym.repl.agent.tools import WRITES
from sym.repl.render import to_text
from sym.repl.results import Result

SHOWN_LINES = 24           # of one call's output in the transcript
_YES = re.compile(r"^\W*(yes|true|correct|indeed)\b", re.I)
_NO = re.compile(r"^\W*(no|false|not true|incorrect)\b", re.I)
_STEP = re.compile(r"^\s+\d+\. ", re.M)


def _stored(result: Result) -> int | None:
    """How many clauses a telling command stored (None when its result does not say)."""
    items = getattr(result, "items", None)
    if isinstance(items, list):
        return len(items)
    told = getattr(result, "sentences", None)
    if isinstance(told, list):
        return sum(len(getattr(t, "items", []) or []) for t in told)
    return None


@dataclass
class Call:
    """One command a chat turn ran (or was refused): its line, result and what became of it."""

    tool: str
    line: str
    result: Result | None
    status: str = "ran"              # ran, approved, declined, refused, bad call, failed, repeated
    note: str = ""

    @property
    def ok(self) -> bool:
        return self.result is not None and self.result.ok

    @property
    def summary(self) -> str:
        """One line: the result's first line (or why it did not run)."""
        if self.result is None:
            return self.note
        if not self.result.ok:
            return "failed"
        body = to_text(self.result).strip()
        first = body.splitlines()[0] if body else "done"
        if self.verdict:
            steps = len(_STEP.findall(body))
            first = self.verdict + (f" ({steps} step{'s' * (steps != 1)})" if steps else "")
        elif self.ok and self.tool in ("tell", "fact", "rule", "extract"):
            stored = _stored(self.result)
            first = f"stored {stored} clause{'s' * (stored != 1)}" if stored is not None else first
        return first if len(first) <= 90 else first[:89] + "…"

    @property
    def trace_status(self) -> str:
        return "ok" if self.ok else "failed" if self.result is not None else self.status

    @property
    def verdict(self) -> str:
        """true / false / unknown for a question /ask answered (else "")."""
        status = getattr(self.result, "status", "") if self.ok else ""
        return status if status in ("true", "false", "unknown", "inconsistent") else ""

    def for_model(self, limit: int) -> str:
        if self.result is None:
            return self.note
        body = to_text(self.result).strip() or ("done" if self.result.ok else "failed")
        body = f"{body}\n({self.note})" if self.note else body
        return body if len(body) <= limit else body[:limit - 1] + "…"

    def to_dict(self) -> dict:
        out = {"tool": self.tool, "line": self.line, "status": self.status, "ok": self.ok}
        if self.result is not None:
            out["result"] = {"kind": self.result.kind, **self.result.to_dict()}
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Conversed(Result):
    kind: ClassVar[str] = "chat"
    text: str = ""                            # what the user typed
    calls: list[Call] = field(default_factory=list)
    reply: str | None = None                  # the model's own words (unverified); None: it failed
    style: str = "tools"                      # tools, route, offline
    warnings: list[str] = field(default_factory=list)
    note: str = ""                            # how the turn was read (offline: why)
    steps: int = 0                            # model calls the turn made
    invalid: int = 0                          # menu replies (route) that did not fit the menu

    @classmethod
    def of(cls, text: str, calls: list[Call], reply: str | None, *, style: str) -> Conversed:
        done = cls(text, calls, reply, style)
        done.warnings = done._unchanged() + done._contradictions()
        return done

    def _unchanged(self) -> list[str]:
        """A change the model proposed that was declined, refused or failed: said plainly, so that
        its closing words ("Forgotten.") are not read as what happened."""
        if self.style == "offline":       # the user's own lines, each shown with its result
            return []
        missed = [c for c in self.calls if c.tool in WRITES and not c.ok and c.status != "repeated"]
        if not missed:
            return []
        made = any(c.tool in WRITES and c.ok for c in self.calls)
        said = "; ".join(f"{c.line} {_what_became(c)}" for c in missed)
        return [f"{'not every change was made' if made else 'nothing changed in memory'}: {said}"]

    def _contradictions(self) -> list[str]:
        """A yes/no reply against what /ask verified: flagged (the verified answer stands); a yes/no
        reply after a /prove that proved nothing (its program assumed what no premise states)."""
        if not self.reply:
            return []
        verdicts = [c.verdict for c in self.calls if c.verdict]
        unproved = [c for c in self.calls if c.tool == "prove" and c.result is not None
                    and "unverified" in c.result.to_dict()]
        if unproved and not verdicts and (_YES.search(self.reply) or _NO.search(self.reply)):
            return [f"the model's reply gives an answer, but {unproved[-1].line} proved nothing: "
                    f"{to_text(unproved[-1].result).splitlines()[0]}"]
        if not verdicts:
            return []
        said = "true" if _YES.search(self.reply) else "false" if _NO.search(self.reply) else ""
        last = verdicts[-1]
        if said and said != last:
            return [f"the model's reply says {'yes' if said == 'true' else 'no'}, but sym answered {last}: "
                    "trust the verified answer above"]
        return []

    @property
    def ok(self) -> bool:
        return self.reply is not None or any(c.ok for c in self.calls)

    @property
    def exit_code(self) -> int:
        """A turn that did nothing exits as the highest failure behind it (3: no model server
        answers), as the command it ran would have on its own."""
        codes = [getattr(c.result, "exit_code", 1) for c in self.calls if c.result is not None and not c.result.ok]
        return max((code for code in codes if isinstance(code, int)), default=1)

    @property
    def verified(self) -> bool:
        return any(c.verdict for c in self.calls)

    def to_dict(self) -> dict:
        return {"text": self.text, "style": self.style, "note": self.note, "calls": [c.to_dict() for c in self.calls],
                "reply": self.reply, "reply_verified": False, "warnings": self.warnings,
                "steps": self.steps, "invalid": self.invalid}


def _what_became(call: Call) -> str:
    return {"declined": "was declined", "refused": "was refused", "bad call": "was a bad call"}.get(
        call.status, "failed")


@to_text.register
def _(r: Conversed) -> str:
    """Each call's line with its own result under it (a /tell's failure under the /tell, not under
    the last call), then the model's words, marked unverified, and the warnings."""
    lines = [r.note] if r.note else []
    for call in r.calls:
        lines += call_lines(call)
    if r.reply:
        label = "model (unverified)" if r.calls else "model (unverified, no command ran)"
        lines.append(f"{label}: {r.reply}")
    lines += [f"warning: {w}" for w in r.warnings]
    return "\n".join(lines)


def call_lines(call: Call) -> list[str]:
    """One call as a transcript shows it: `→ LINE — summary (status)`, then, indented, the rest of
    its result (a stored /tell's items are not repeated: the summary counts them)."""
    said = call.summary
    mark = "" if call.status in ("ran", "failed") or said.startswith(call.status) else f" ({call.status})"
    lines = [f"→ {call.line} — {said}{mark}"]
    if call.result is not None and call.note:      # what else became of it (a /tell: the sentences not read)
        lines.append(f"  ({call.note})")
    if call.result is None or (call.ok and call.tool in ("tell", "fact", "rule", "forget", "extract")):
        return lines
    body = to_text(call.result).strip().splitlines()
    if len(body) > 1 or (body and body[0] != call.summary):
        more = len(body) - SHOWN_LINES
        lines += ["  " + b for b in body[:SHOWN_LINES]] + ([f"  … {more} more lines"] if more > 0 else [])
    return lines
