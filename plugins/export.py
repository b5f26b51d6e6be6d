"""Built-in plugin: `/export FORMAT [FILE]` and the `prolog` exporter.

The Prolog export consults in SWI-Prolog: strong negation becomes a quoted `'~p'`
predicate, `not` becomes `\\+`, constraints become `constraint_violated/1` clauses, and
recursive predicates are tabled so left recursion terminates.
"""

from __future__ import annotations

from pathlib import Path

from sym.core.errors import UserError
from sym.core.logic.terms import (
    FAIL_GOAL,
    TRUE_GOAL,
    Aggregate,
    Atom,
    Compare,
    Eval,
    Is,
    Naf,
    Rule,
    clause_atoms,
    expr_variables,
    format_const,
    format_term,
)
from sym.repl.arguments import positional
from sym.repl.registry import Command
from sym.repl.results import Message


def _atom(atom: Atom) -> str:
    name = format_const(("~" if atom.neg else "") + atom.pred)
    if not atom.args:
        return name
    return f"{name}({', '.join(format_term(a) for a in atom.args)})"


def _literal(lit) -> str:
    if isinstance(lit, Atom):
        return _atom(lit)
    if isinstance(lit, Naf):
        return f"\\+ {_atom(lit.atom)}"
    if isinstance(lit, (Is, Eval)):
        return str(lit)                  # SWI-Prolog's own syntax
    if isinstance(lit, Aggregate):
        goal = ", ".join(_literal(g) for g in _swi_order(lit.goal, set()))
        goal = f"({goal})" if len(lit.goal) != 1 else goal
        result = format_term(lit.result)
        if lit.found is not None:
            result = f"{lit.op}({result}, {format_term(lit.found)})"
        return f"aggregate_all({lit.spec()}, {goal}, {result})"
    assert isinstance(lit, Compare)
    if lit in (TRUE_GOAL, FAIL_GOAL):
        return str(lit)                  # true / fail, as written
    # sym orders atoms too, so use the standard order of terms (numbers compare by value)
    op = {"<": "@<", ">": "@>", "=<": "@=<", ">=": "@>="}.get(lit.op, lit.op)
    return f"{format_term(lit.left)} {op} {format_term(lit.right)}"


def _swi_order(body, bound: set) -> list:
    """The body in an order SWI-Prolog can run left to right: sym binds a variable wherever its
    atom stands, so a comparison, `not`, `is` or aggregate written before the atom that binds its
    variables moves after it (nothing else moves)."""
    out, waiting, bound = [], list(body), set(bound)

    def ready(lit) -> bool:
        if isinstance(lit, Atom):
            return True
        if isinstance(lit, Is):
            needs = expr_variables(lit.expr)
        elif isinstance(lit, Aggregate):
            needs = lit.outer(list(body))
        elif isinstance(lit, Naf):
            needs = [v for v in lit.variables() if any(v in o.variables() for o in body if o is not lit)]
        elif isinstance(lit, Compare) and lit.op == "=":
            return any(v in bound for v in lit.variables()) or len(lit.variables()) < 2
        else:
            needs = lit.variables()
        return all(v in bound for v in needs)

    while waiting:
        lit = waiting.pop(next((i for i, w in enumerate(waiting) if ready(w)), 0))
        out.append(lit)
        bound.update(lit.results() if isinstance(lit, Aggregate) else lit.variables())
    return out


# 0-ary control constructs SWI-Prolog will not let a program declare (a sym atom of that
# name behaves the same way there: `fail`/`false` never hold, `true` always does)
_CONTROL = {"true", "fail", "false", "halt", "otherwise", "nl", "listing", "abort", "trace", "notrace", "break"}


def _indicator(a: Atom) -> str:
    return format_const(("~" if a.neg else "") + a.pred) + f"/{len(a.args)}"


def recursive(uses: dict[str, set[str]]) -> set[str]:
    """The predicates that depend on themselves through rules (directly or by a cycle): only these
    need tabling (a table on any other only costs SWI-Prolog memory)."""
    found = set()
    for start in uses:
        seen, todo = set(), list(uses[start])
        while todo:
            pred = todo.pop()
            if pred == start:
                found.add(start)
                break
            if pred not in seen:
                seen.add(pred)
                todo.extend(uses.get(pred, ()))
    return found


def to_prolog(memory) -> str:
    """The asserted facts, rules and constraints of a memory as SWI-Prolog source."""
    items = list(memory.items.values())
    preds: dict[str, int] = {}
    uses: dict[str, set[str]] = {}       # a rule head's indicator -> the indicators its bodies use
    for it in items:
        clause = it.clause
        for a in clause_atoms(clause):
            preds[format_const(("~" if a.neg else "") + a.pred)] = len(a.args)
        if isinstance(clause, Rule) and clause.head is not None:
            head, *body = clause_atoms(clause)
            uses.setdefault(_indicator(head), set()).update(_indicator(a) for a in body)
    heads = recursive(uses)
    lines = [f"% exported by sym from workspace {memory.workspace}", ""]
    declared = sorted((n, a) for n, a in preds.items() if not (a == 0 and n in _CONTROL))
    lines += [f":- dynamic {name}/{arity}." for name, arity in declared]
    lines += [f":- discontiguous {name}/{arity}." for name, arity in declared]
    lines += [f":- table {h}." for h in sorted(heads)]
    lines.append("")
    for it in items:
        clause = it.clause
        if isinstance(clause, Atom):
            lines.append(f"{_atom(clause)}.")
        elif clause.head is None:
            body = ", ".join(_literal(lit) for lit in _swi_order(clause.body, set()))
            lines.append(f"constraint_violated({format_const(it.id)}) :- {body}.")
        else:
            body = ", ".join(_literal(lit) for lit in _swi_order(clause.body, set()))
            lines.append(f"{_atom(clause.head)} :- {body}.")
    if not any(it.kind == "constraint" for it in items):
        lines.append("constraint_violated(_) :- fail.")
    return "\n".join(lines) + "\n"


def export(ctx, arg: str, run):
    """Write the memory, the last proof program or the last exploration to FILE (shown without FILE).

    prolog: the working memory; smt2: the last /prove program; explore-prolog, explore-problog,
    explore-dot: the last /explore."""
    parts = arg.split()
    exporters = ctx.registry.exporters
    if not parts:
        raise UserError("no format given", hint="formats: " + ", ".join(sorted(exporters)))
    fmt, *rest = parts
    if fmt not in exporters:
        raise UserError(f"unknown export format {fmt!r}", hint="formats: " + ", ".join(sorted(exporters)))
    if len(rest) > 1:
        raise UserError("give one file name", hint="/export prolog family.pl")
    text = exporters[fmt](ctx)       # an exporter is handed the shell: its memory, its last program, …
    if not rest:
        return Message(text.rstrip("\n"), {"format": fmt})
    try:
        path = Path(rest[0]).expanduser()
        path.write_text(text, encoding="utf-8")
    except (OSError, ValueError, RuntimeError) as err:  # ValueError: a NUL; RuntimeError: ~nosuchuser
        raise UserError(f"cannot write {rest[0]}: {getattr(err, 'strerror', None) or err}") from None
    return Message(f"wrote {fmt} export to {path}", {"format": fmt, "path": str(path)})


def register(registry) -> None:
    registry.exporters["prolog"] = lambda ctx: to_prolog(ctx.memory)
    registry.add(Command("/export", export, args="FORMAT [FILE]", group="shell",
                         completer=positional(lambda ctx, prefix: sorted(ctx.registry.exporters), "file")))
