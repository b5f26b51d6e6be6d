"""Renderers: turn command results into plain text or JSON lines for a front-end.

`to_text` is the single place a result becomes words; the batch runner, the line REPL
and (later) the TUI all call it. Results go to stdout, narration (errors, warnings) to stderr.
"""

from __future__ import annotations

import json
import re
from functools import singledispatch
from typing import Protocol, TextIO

from sym.core.logic.provenance import ABSENT, AGGREGATED, ASSERTED, BUILTIN, DERIVED, ELIDED, MORE, NEGATION, ProofNode
from sym.core.logic.terms import format_const
from sym.core.memory.working import item_id
from sym.repl.results import (
    Added,
    Answered,
    Exit,
    Failure,
    Forgotten,
    HelpText,
    Hits,
    Inferred,
    Listing,
    Message,
    Proofs,
    Result,
    Table,
)


@singledispatch
def to_text(result: Result) -> str:
    return ""


def _count(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _summary(items) -> str:
    kinds: dict[str, int] = {}
    for it in items:
        kinds[it.kind] = kinds.get(it.kind, 0) + 1
    return ", ".join(_count(n, k) for k, n in kinds.items()) or "nothing new"


@to_text.register
def _(r: Added) -> str:
    if r.source and r.rows is not None:      # a table: its rows, and the facts they became
        made = f"{r.loaded:,} rows loaded into the engine's tables" if r.loaded is not None else _summary(r.items)
        lines = [f"consulted {r.source}: {r.rows:,} row{'' if r.rows == 1 else 's'} as {r.relation}, {made}"]
    elif r.source:
        lines = [f"consulted {r.source}: {_summary(r.items)}"]
    elif len(r.items) <= 8:
        lines = [f"added {it.kind} {it.id}: {it.text}" for it in r.items]
    else:
        lines = [f"added {_summary(r.items)}"]
    if r.duplicates:
        lines.append(f"{_count(r.duplicates, 'clause')} already known, skipped")
    lines += [f"schema: {note}" for note in r.notes]
    lines += [f"warning: {w}" for w in r.warnings]
    lines += [f"{a.query}\n{to_text(Answered(a))}" for a in r.answers]
    return "\n".join(lines)


@to_text.register
def _(r: Answered) -> str:
    a = r.answer
    note = "" if a.complete else "  (inference stopped early: /set max_steps none for the full model)"
    if a.truth is not None:
        return f"{a.truth}.{note}"
    if not a.bindings:
        return f"false.{note}"          # as SWI-Prolog says it, for every query nothing answers
    if not a.variables:                 # only anonymous variables: nothing to show but that it holds
        return f"true.{note}"
    shown = a.bindings[: r.max_answers]
    lines = [", ".join(f"{k} = {format_const(v)}" for k, v in b.items()) for b in shown]
    more = len(a.bindings) - len(shown)
    tail = f"… and {more} more (/set max_answers N)" if more else _count(len(a.bindings), "answer") + "."
    return "\n".join(lines + [tail + note])


@to_text.register
def _(r: Inferred) -> str:
    i = r.inference
    state = "fixpoint" if i.complete else "stopped at the step limit"
    lines = [f"derived {_count(i.derived, 'fact')} in {_count(i.steps, 'step')} ({state})"]
    lines += [f"violation: {v}" for v in i.violations]
    return "\n".join(lines)


_MARK = {ASSERTED: "fact", DERIVED: "by", NEGATION: "not derivable", BUILTIN: "builtin",
         ABSENT: "does not hold", ELIDED: "…"}


def proof_label(node: ProofNode, items: dict) -> str:
    if node.status == ASSERTED:
        it = items.get(item_id(node.literal))
        return f"{node.literal}  [fact {it.id}, {it.source}]" if it else f"{node.literal}  [fact]"
    if node.status == DERIVED:
        step = f", step {node.step}" if node.step else ""   # 0: a rule instance a database found (no step)
        return f"{node.literal}  [rule {node.rule_id}{step}]"
    if node.status == NEGATION:
        return f"{node.literal}  [{node.literal.atom} is not derivable]"
    if node.status == ELIDED:
        return "…  (deeper steps elided: /set proof_depth N)"
    if node.status == AGGREGATED:
        return f"{node.literal}  [aggregate of {_count(node.step or 0, 'solution')}]"
    if node.status == MORE:
        return f"…  and {node.step} more"
    return f"{node.literal}  [{_MARK[node.status]}]"


def _tree_lines(node: ProofNode, items: dict, prefix: str = "", last: bool = True, root: bool = True) -> list[str]:
    connector = "" if root else ("└── " if last else "├── ")
    lines = [prefix + connector + proof_label(node, items)]
    child_prefix = prefix + ("" if root else ("    " if last else "│   "))
    for i, child in enumerate(node.children):
        lines += _tree_lines(child, items, child_prefix, i == len(node.children) - 1, False)
    return lines


@to_text.register
def _(r: Proofs) -> str:
    if not r.trees:
        return "no."
    blocks = []
    for tree in r.trees:
        if tree.status == ABSENT:
            why = "unknown (open world)" if r.open_world else "false (closed world)"
            blocks.append(f"{tree.literal} is not derivable: {why}")
            continue
        blocks.append("\n".join(_tree_lines(tree, r.items)))
    rules = [f"  {i}  {it.text}" for i, it in r.items.items() if it.kind != "fact"]
    if rules:
        blocks.append("rules used:\n" + "\n".join(rules))
    if r.passages:
        blocks.append("read from documents:\n" + "\n".join(
            f"  {r.items[i].text if i in r.items else i}  ← [{p['cite']}]" + (f" · {p['heading']}" if p.get("heading") else "")
            + f"\n      {p['snippet']}" for i, p in r.passages.items()))
    return "\n".join(blocks)


@to_text.register
def _(r: Listing) -> str:
    lines = [f"{it.id}  {it.text}" + (f"    % {it.nl}" if it.nl else "") for it in r.items]
    if r.derived:
        lines.append("% derived:")
        lines += [f"         {d}." for d in r.derived]
    if r.paged:
        lines.append(f"% {listing_page(r)}")
    return "\n".join(lines) if lines else "memory is empty"


def listing_page(r: Listing) -> str:
    """Which of a listing's derived facts are shown, and the command that shows the next ones."""
    total, first, last = r.derived_count or 0, r.offset + 1, r.offset + len(r.derived)
    said = f"derived facts {first:,}–{last:,} of {total:,}" if r.derived else \
        f"no derived facts after the first {r.offset:,} ({total:,} in all)"
    if last >= total:
        return said
    words = " ".join(w for w in ("/listing", r.pred, "--derived", f"--offset {last}") if w)
    return f"{said}; {words} shows the next ones (--limit N: how many)"


@to_text.register
def _(r: Forgotten) -> str:
    return "\n".join(f"forgot {it.kind} {it.id}: {it.text}" for it in r.items)


@to_text.register
def _(r: Table) -> str:
    width = max((len(n) for n, _, _ in r.rows), default=0)
    lines = [r.title] if r.title else []
    for name, value, note in r.rows:
        shown = "none" if value is None else str(value)
        lines.append(f"  {name.ljust(width)}  {shown}" + (f"    {note}" if note else ""))
    return "\n".join(lines)


@to_text.register
def _(r: HelpText) -> str:
    if r.detailed:
        return "\n\n".join(f"{u}\n  {d}" for u, _, d in r.entries)
    width = min(max((len(u) for u, _, _ in r.entries), default=0), 36)
    lines = [f"  {u.ljust(width)}  {s}" if len(u) <= width else f"  {u}\n  {'':{width}}  {s}"   # long usages wrap
             for u, s, _ in r.entries]
    return "\n".join(["commands:"] + lines + ["", "facts, rules and ?- queries can also be typed directly; /? CMD for details"])


def search_heading(r: Hits) -> tuple[list[str], str | None]:
    """The lines a search result starts with (how far embedding is behind) and, with no hit, its
    whole text."""
    behind = (f"({r.embedded[0]:,} of {r.embedded[1]:,} records embedded so far; the rest follow in the background)"
              if r.embedded else "")
    if not r.hits:
        return [], "no matches" + (f" {behind}" if behind else "")
    return ([behind] if behind else []), None


@to_text.register
def _(r: Hits) -> str:
    lines, empty = search_heading(r)
    if empty is not None:
        return empty
    for h in r.hits:
        if h.kind == "docs":
            where = f"{h.meta.get('name', '?')}:{h.meta.get('start', 0)}-{h.meta.get('end', 0)}"
            snippet = " ".join(h.text.split())
            snippet = snippet[:100] + ("…" if len(snippet) > 100 else "")
            lines.append(f"{h.score:5.2f}  doc  {where}  {snippet}")
        else:
            nl = f"    % {h.meta['nl']}" if h.meta.get("nl") else ""
            lines.append(f"{h.score:5.2f}  {h.id}  {h.text}{nl}  [{h.meta.get('source', '')}]")
    return "\n".join(lines)


@to_text.register
def _(r: Message) -> str:
    return r.text


@to_text.register
def _(r: Exit) -> str:
    return "bye."


@to_text.register
def _(r: Failure) -> str:
    return ("" if r.cancelled else "error: ") + r.message + (f" — {r.hint}" if r.hint else "")


_WITHIN = re.compile(r"(?:line (\d+), )?column (\d+): ")


def _failure_line(line: int, result: Failure) -> str:
    """A failure as stderr shows it: `error: line N: …`, or a calm `line N: cancelled`. A parse
    error's place inside an input that starts on script line N is told as a script line
    (`line 4, column 7`), not as two line numbers that do not add up."""
    body = to_text(result).removeprefix("error: ")
    where = f"line {line}: " if line else ""
    within = _WITHIN.match(body) if line else None
    if within:
        where = f"line {line + int(within.group(1) or 1) - 1}, column {within.group(2)}: "
        body = body[within.end():]
    return f"{where}{body}" if result.cancelled else f"error: {where}{body}"


class Renderer(Protocol):
    """What a front-end implements to show results and narration."""

    def begin(self, line: int, text: str) -> None:
        """An input is about to run (echo it, show a spinner, …)."""

    def result(self, line: int, text: str, command: str, result: Result) -> None: ...

    def narrate(self, message: str) -> None: ...


class TextRenderer:
    def __init__(self, out: TextIO, err: TextIO, *, echo: bool = False):
        self.out, self.err, self.echo = out, err, echo

    def begin(self, line: int, text: str) -> None:
        if self.echo:
            self.out.write(f"» {text}\n")
            self.out.flush()

    def result(self, line: int, text: str, command: str, result: Result) -> None:
        body = to_text(result)
        if isinstance(result, Failure):
            self.err.write(_failure_line(line, result) + "\n")
            self.err.flush()
        elif body:
            self.out.write(body + "\n")
        self.out.flush()

    def narrate(self, message: str) -> None:
        self.err.write(message + "\n")
        self.err.flush()


class JsonRenderer:
    """One JSON object per command on stdout."""

    def __init__(self, out: TextIO, err: TextIO):
        self.out, self.err = out, err

    def begin(self, line: int, text: str) -> None:
        pass

    def result(self, line: int, text: str, command: str, result: Result) -> None:
        obj = {"line": line, "input": text, "command": command, "ok": result.ok, "kind": result.kind,
               **result.to_dict()}
        self.out.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")
        self.out.flush()
        if isinstance(result, Failure):
            self.err.write(_failure_line(line, Failure(result.message, exit_code=result.exit_code)) + "\n")
            self.err.flush()

    def narrate(self, message: str) -> None:
        self.err.write(message + "\n")
        self.err.flush()
