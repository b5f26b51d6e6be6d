"""The propositional Horn program an exploration builds, its minimal model, and its exports.

Clauses are merged as they arrive (same head, same body atoms: one clause); the model comes
from `core.logic.horn`. Exports are plain text — SWI-Prolog, ProbLog and Graphviz dot —
built from the program and the tree; nothing here calls a model or touches memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sym.core.logic.horn import Clause, HornModel, minimal_model

# Clause kinds: how a clause came about.
OR, AND, FACT, SUPPORT, GROUND, FAIL, CONSTRAINT = "or", "and", "fact", "support", "ground", "fail", "constraint"


def quote(atom: str) -> str:
    """An atom in single quotes, as Prolog reads it back."""
    return "'" + atom.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n") + "'"


@dataclass(frozen=True)
class ProgramClause:
    head: str | None              # None: an integrity constraint
    body: tuple[str, ...] = ()
    kind: str = FACT
    prob: float | None = None     # a leaf's probability (rater score or similarity)

    def text(self, *, probabilities: bool = False) -> str:
        """`'a' :- 'b', 'c'.` — a failing clause has the body `fail`."""
        head = "" if self.head is None else quote(self.head)
        if probabilities and self.prob is not None and self.head is not None:
            head = f"{self.prob:.4g}::{head}"
        if self.kind == FAIL:
            return f"{head} :- fail."
        if not self.body:
            return f"{head}."
        body = ", ".join(quote(a) for a in self.body)
        return f"{head} :- {body}." if self.head is not None else f":- {body}."


@dataclass(frozen=True)
class Node:
    """A node of the AND/OR tree, as it was emitted."""

    id: str
    parent: str | None
    kind: str                     # explore.and | explore.or | explore.leaf | explore.rejected
    atom: str
    label: str
    status: str = ""
    detail: str = ""


@dataclass
class ExploredProgram:
    """Clauses in the order they were made, with duplicates merged."""

    clauses: list[ProgramClause] = field(default_factory=list)
    merged: int = 0                                   # clauses that repeated one already there
    _keys: dict[tuple[Any, ...], int] = field(default_factory=dict)

    def add(self, head: str | None, body: tuple[str, ...] = (), kind: str = FACT, prob: float | None = None) -> bool:
        """Add a clause unless the same one (same head, same set of body atoms) is there;
        returns whether it was new."""
        body = tuple(dict.fromkeys(body))
        key = (head, frozenset(body), kind == FAIL)
        if key in self._keys:
            self.merged += 1
            return False
        self._keys[key] = len(self.clauses)
        self.clauses.append(ProgramClause(head, body, kind, prob))
        return True

    def horn_clauses(self) -> list[Clause]:
        """What the model builder sees: failing clauses never fire, so they are left out."""
        return [Clause(c.head, c.body, c.kind) for c in self.clauses if c.kind != FAIL]

    def model(self) -> HornModel:
        """The least model; violated integrity constraints are reported, not raised."""
        return minimal_model(self.horn_clauses(), partial=True)

    def atoms(self) -> list[str]:
        seen: dict[str, None] = {}
        for c in self.clauses:
            if c.head is not None:
                seen.setdefault(c.head)
            for a in c.body:
                seen.setdefault(a)
        return list(seen)

    def text(self) -> str:
        return "\n".join(c.text() for c in self.clauses)

    def __len__(self) -> int:
        return len(self.clauses)


def to_prolog(program: ExploredProgram, *, topic: str = "") -> str:
    """SWI-Prolog source: every atom declared dynamic and tabled (LLM programs loop), integrity
    constraints as `constraint_violated/1`, and `explore_model/1` listing the true atoms."""
    atoms = program.atoms()
    lines = [f"% Horn program of an exploration by sym{': ' + topic if topic else ''}", ""]
    lines += [f":- dynamic {quote(a)}/0." for a in atoms]
    lines += [f":- table {quote(a)}/0." for a in atoms]
    lines.append(":- dynamic constraint_violated/1.")
    lines.append("")
    n = 0
    for c in program.clauses:
        if c.head is None:
            n += 1
            lines.append(f"constraint_violated({n}) :- {', '.join(quote(a) for a in c.body)}.")
        else:
            lines.append(c.text())
    lines += ["", "% the atoms true in the least model",
              "explore_model(Atoms) :- findall(A, (explore_atom(A), call(A)), Atoms).",
              *[f"explore_atom({quote(a)})." for a in atoms]]
    return "\n".join(lines) + "\n"


def to_problog(program: ExploredProgram, *, top: str | None = None) -> str:
    """ProbLog source: leaves carry their probability (`0.8::'a'.`), facts without one are
    certain; integrity constraints become comments (ProbLog has no hard constraints)."""
    lines = ["% ProbLog program of an exploration by sym", ""]
    for c in program.clauses:
        if c.head is None:
            lines.append(f"% integrity constraint: {c.text()}")
        else:
            lines.append(c.text(probabilities=True))
    if top is not None:
        lines += ["", f"query({quote(top)})."]
    return "\n".join(lines) + "\n"


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


_DOT_STYLE = {
    "explore.and": 'shape=ellipse',
    "explore.or": 'shape=box, style=rounded',
    "explore.leaf": 'shape=ellipse, style=filled, fillcolor="#d8f0d8"',
    "explore.rejected": 'shape=ellipse, style="filled,dashed", fillcolor="#f6d5d5"',
}


def to_dot(nodes: list[Node], *, model: frozenset[str] = frozenset(), title: str = "") -> str:
    """The AND/OR tree as Graphviz dot: goals are ellipses, alternatives rounded boxes, leaves
    green (kept) or red (rejected); atoms in the model are drawn bold; loops are dashed edges."""
    latest: dict[str, Node] = {}
    for n in nodes:  # a node re-emitted with a new status replaces the old one
        latest[n.id] = n
    lines = ["digraph explore {", "  rankdir=LR;", '  node [fontname="Helvetica"];']
    if title:
        lines.append(f'  label="{_dot_escape(title)}"; labelloc=t;')
    for n in latest.values():
        style = _DOT_STYLE.get(n.kind, "shape=ellipse")
        if n.status in ("loop", "seen"):
            style += ", color=gray"
        if n.atom in model and n.status not in ("loop", "seen"):
            style += ", penwidth=2"
        label = _dot_escape(n.label)
        if n.status in ("loop", "seen", "rejected"):
            label += f"\\n({n.status})"  # a line break inside the dot label
        lines.append(f'  {n.id} [label="{label}", {style}];')
    for n in latest.values():
        if n.parent is not None:
            edge = " [style=dashed]" if n.status == "loop" else ""
            lines.append(f"  {n.parent} -> {n.id}{edge};")
    lines.append("}")
    return "\n".join(lines) + "\n"
