"""A built program as an SMT-LIB 2 script: declarations, the knowledge base and rules, and
for each verification the two checks sym runs (unsat on the first means proved, on the
second refuted)."""

from __future__ import annotations

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


def to_smt2(program: Program, title: str = "program") -> str:
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
    decls = [f for f in _top_level_forms(everything.sexpr()) if not f.startswith("(assert")]
    lines = [f"; {title}, exported by sym", "(set-logic ALL)", *decls, ""]
    for label, f in built.background:
        lines += [f"; {label}", f"(assert {f.sexpr()})"]
    for v in built.verifications:
        name = v.name.replace("\n", " ")
        lines += ["", f"; verification {name!r}: unsat here means proved",
                  "(push 1)", f"(assert (not {v.formula.sexpr()}))", "(check-sat)", "(pop 1)",
                  f"; verification {name!r}: unsat here means refuted",
                  "(push 1)", f"(assert {v.formula.sexpr()})", "(check-sat)", "(pop 1)"]
    if built.has_optimization:
        lines += ["", "; optimization", "(push 1)"]
        for c in built.decisions.values():
            lines.append(f"(declare-const {c.sexpr()} {c.sort().sexpr()})")
        lines += [f"(assert {f.sexpr()})" for _, f in built.constraints]
        lines += [f"({o.kind} {o.term.sexpr()})" for o in built.objectives]
        lines += ["(check-sat)", "(get-objectives)", "(pop 1)"]
    return "\n".join(lines) + "\n"
