"""A built JSON program as an SMT-LIB 2 script (`/export smt2`), in the shape sym reads back."""

from __future__ import annotations

import re

from sym.core.reason.pot.build import build
from sym.core.reason.pot.schema import Program


def _top_level_forms(text: str) -> list[str]:
    forms, depth, start, in_bar = [], 0, None, False
    for i, ch in enumerate(text):
        if ch == "|":
            in_bar = not in_bar
        if in_bar:
            continue
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0 and start is not None:
                forms.append(text[start:i + 1])
    return forms


def quoted(name: str, taken: set[str]) -> str:
    """`name` as an SMT-LIB symbol (|…| when it is not a simple one), not one of `taken`."""
    name = " ".join(name.replace("|", "/").replace("\\", "/").split()) or "claim"
    while name in taken:
        name = f"{name}'"
    taken.add(name)
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-]*", name) else f"|{name}|"


def to_smt2(program: Program, title: str = "program") -> str:
    """The script `/prove --file` reads back to the same verdicts (core/reason/pot/smt2_read.py):
    knowledge-base entries and rules named as in the JSON program's cores, one `define-fun` and
    `check-sat-assuming` per verification, the optimization in its own scope."""
    import z3

    built = build(program)
    everything = z3.Solver(ctx=built.env.ctx)
    for _, f in built.background:
        everything.add(f)
    for v in built.verifications:
        everything.add(v.formula)
    for _, f in built.constraints:
        everything.add(f)
    for o in built.objectives:
        everything.add(o.term == o.term)
    scoped = {f"(declare-fun {c.sexpr()} ()" for c in built.decisions.values()}   # declared in the optimization's scope
    decls = [f for f in _top_level_forms(everything.sexpr())
             if not f.startswith("(assert") and not any(f.startswith(d) for d in scoped)]
    taken = {*built.env.constants, *built.env.functions, *built.env.sorts}
    lines = [f"; {' '.join(title.split())}, exported by sym", "(set-logic ALL)", *decls, ""]
    for label, f in built.background:
        lines.append(f"(assert (! {f.sexpr()} :named {quoted(label, taken)}))")
    for v in built.verifications:
        name = quoted(v.name, taken)
        lines += ["", f"(define-fun {name} () Bool {v.formula.sexpr()})", f"(check-sat-assuming ({name}))"]
    if built.has_optimization:
        lines += ["", "; optimization", "(push 1)"]
        for c in built.decisions.values():
            lines.append(f"(declare-const {c.sexpr()} {c.sort().sexpr()})")
        lines += [f"(assert {f.sexpr()})" for _, f in built.constraints]
        lines += [f"({o.kind} {o.term.sexpr()})" for o in built.objectives]
        lines += ["(check-sat)", "(get-objectives)", "(pop 1)"]
    return "\n".join(lines) + "\n"
