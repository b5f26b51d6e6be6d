"""What each command of an SMT-LIB script means to sym: a whitelist that sorts every top-level form
into a step (a declaration, an assertion, a scope, a check, an output, an option, reset, exit),
read before anything runs, so that a refused script is refused whole, with the command and why.

Nothing here runs or evaluates anything. Z3's own command reader runs the steps later
(smt2_run.py), and only the text this module hands it: no `include`, no option that names a file
or a channel, or that could end the process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from sym.core.reason.pot.smt2_read import Smt2Error, _Form, flat, forms, symbol, z3_error
from sym.core.text import valid_text

DECLARATIONS = frozenset({"declare-sort", "define-sort", "declare-fun", "declare-const", "define-fun",
                          "define-fun-rec", "define-funs-rec", "declare-datatype", "declare-datatypes",
                          "define-const", "declare-codatatypes", "declare-codatatype"})
CHECKS = frozenset({"check-sat", "check-sat-assuming", "check-sat-using"})
# commands that only print (Z3's answer is shown as it is): a model, values, a simplified term …
OUTPUTS = frozenset({"get-model", "get-value", "get-assignment", "get-assertions", "get-unsat-core",
                     "get-unsat-assumptions", "get-proof", "get-objectives", "get-info", "get-option",
                     "echo", "simplify", "eval", "display", "apply", "get-user-tactics", "labels"})
FIXEDPOINT = frozenset({"declare-rel", "declare-var", "rule"})    # Z3's Datalog commands; (query) is a check
# options passed on to Z3: SMT-LIB's own, and Z3's modules by prefix; `timeout` is sym's (proof.timeout)
OPTIONS = frozenset({"produce-models", "produce-unsat-cores", "produce-proofs", "produce-assignments",
                     "produce-assertions", "produce-unsat-assumptions", "model_validate", "model-validate",
                     "auto-config", "auto_config", "model", "proof", "unsat_core", "unsat-core", "numeral-as-real",
                     "print-success", "encoding", "smtlib2-compliant", "smtlib2_compliant", "print-warning",
                     "global-decls", "global-declarations", "interactive-mode", "type_check", "type-check",
                     "random-seed", "random_seed", "rlimit", "reproducible-resource-limits", "well_sorted_check",
                     "memory_max_size", "max_memory", "stable-model", "unicode", "ctrl_c"})
OPTION_MODULES = ("smt.", "sat.", "opt.", "pp.", "model.", "rewriter.", "nlsat.", "nla.", "fp.", "parallel.",
                  "tactic.", "combined_solver.", "nnf.", "algebraic.", "old_simplify.", "parser.", "sls.",
                  "solver.", "spacer.", "qe.", "lp.", "dl.", "datalog.", "arith.", "bv.", "seq.", "str.")
# words that make an option unsafe or noisy whatever its module: files, channels, traces, exiting
UNSAFE_OPTION = re.compile(r"file|channel|trace|log|dump|dot|debug|verbose|output|error.behavior|print_stat", re.I)


@dataclass
class Step:
    kind: str            # decl assert soft objective push pop check output option reset reset-assertions exit
    #                      error-behavior
    head: str
    text: str            # the command as Z3's reader gets it ("" for nothing)
    line: int
    column: int
    tree: Any = None
    label: str = ""      # an assertion: its :named name or its comment ("" for neither)
    literals: str = ""   # check-sat-assuming: its literals, as text
    count: int = 1       # push / pop
    start: int = 0       # where the form is in the source
    end: int = 0


def where(form: _Form) -> str:
    return f"line {form.line} column {form.column}"


def _count(form: _Form) -> int:
    arg = form.tree[1] if len(form.tree) > 1 else "1"
    if not (isinstance(arg, str) and arg.isdigit()):
        raise Smt2Error(f"{where(form)}: ({form.head} N) takes a number of scopes")
    return int(arg)


def _option(form: _Form, source: str) -> Step | None:
    """A set-option Z3 is given, or None when sym leaves it out (a limit of its own, or unsafe)."""
    tree = form.tree
    key = str(tree[1]).lstrip(":") if len(tree) > 1 else ""
    if not key:
        raise Smt2Error(f"{where(form)}: (set-option :NAME VALUE) names an option")
    lowered = key.lower()
    if lowered in ("error-behavior", "error_behavior"):     # sym's to keep: Z3's own could end the process
        return Step("error-behavior", "set-option", "", form.line, form.column, tree)
    if UNSAFE_OPTION.search(lowered) or lowered in ("timeout", "t", "soft_timeout", "config"):
        return None               # the check's limit is proof.timeout; files and channels are not for a script
    if lowered in OPTIONS or lowered.startswith(OPTION_MODULES):
        return Step("option", "set-option", source, form.line, form.column, tree)
    return None


def _label(form: _Form) -> str:
    body = form.tree[1]
    if isinstance(body, list) and body and body[0] == "!" and ":named" in body:
        at = body.index(":named")
        if at + 1 < len(body):
            return symbol(body[at + 1])
    return form.note


def steps(text: str) -> list[Step]:
    """The script's steps in order, up to its (exit); Smt2Error names a command sym does not run."""
    out: list[Step] = []
    for form in forms(text):
        before = len(out)
        _one(text, form, out)
        for step in out[before:]:
            step.start, step.end = form.start, form.end
        if out and out[-1].kind == "exit":
            out.pop()
            break
    return out


def _one(text: str, form: _Form, out: list[Step]) -> None:
    head, tree = form.head, form.tree
    source = text[form.start:form.end]
    at = (form.line, form.column)
    if head in DECLARATIONS or head in FIXEDPOINT:
        out.append(Step("decl", head, source, *at, tree))
    elif head == "assert":
        if len(tree) != 2:
            raise Smt2Error(f"{where(form)}: assert takes one formula")
        out.append(Step("assert", head, source, *at, tree, label=_label(form)))
    elif head == "assert-soft":
        if len(tree) < 2:
            raise Smt2Error(f"{where(form)}: assert-soft takes a formula")
        out.append(Step("soft", head, source, *at, tree, label=f"line {form.line}"))
    elif head in ("minimize", "maximize"):
        if len(tree) < 2:
            raise Smt2Error(f"{where(form)}: write ({head} TERM)")
        out.append(Step("objective", head, source, *at, tree, label=flat(tree[1])))
    elif head in ("push", "pop"):
        out.append(Step(head, head, source, *at, tree, count=_count(form)))
    elif head == "check-sat-assuming":
        if len(tree) != 2 or not isinstance(tree[1], list):
            raise Smt2Error(f"{where(form)}: write (check-sat-assuming (LITERAL …))")
        out.append(_assuming(form, tree[1]))
    elif head == "check-sat":
        # (check-sat LIT …) is Z3's older form of check-sat-assuming
        out.append(_assuming(form, tree[1:]) if len(tree) > 1 else Step("check", head, source, *at, tree))
    elif head in ("check-sat-using", "query", "get-consequences"):     # get-consequences answers, then lists
        out.append(Step("check", head, source, *at, tree))
    elif head in OUTPUTS:
        out.append(Step("output", head, source, *at, tree))
    elif head == "set-option":
        option = _option(form, source)
        if option is not None:
            out.append(option)
    elif head in ("set-logic", "set-info"):
        out.append(Step("option", head, source, *at, tree))
    elif head in ("reset", "reset-assertions"):
        out.append(Step(head, head, source, *at, tree))
    elif head == "exit":
        out.append(Step("exit", head, source, *at, tree))
    elif head == "include":
        raise Smt2Error(f"{where(form)}: sym does not run (include …): a script may not read other files")
    else:
        raise Smt2Error(f"{where(form)}: sym does not run {head or 'this form'!r}: not an SMT-LIB command "
                        "Z3 answers (declarations, assert, push/pop, check-sat…, get-…, set-…)")


def _assuming(form: _Form, literals: list[Any]) -> Step:
    if not literals:
        return Step("check", "check-sat", "(check-sat)", form.line, form.column, form.tree)
    lits = " ".join(flat(t) for t in literals)
    name = " ".join(symbol(t) if isinstance(t, str) else flat(t) for t in literals)
    return Step("check", "check-sat-assuming", f"(check-sat-assuming ({lits}))", form.line, form.column,
                form.tree, label=name, literals=lits)


def build_smt2(program: Any) -> list[Any]:
    """Z3's parser over a script's declarations and assertions, nothing solved: the formulas, or
    Smt2Error (with Z3's line and column) for one that does not read. What `proof_style steps`
    asks of each formula a model writes."""
    import z3

    text = valid_text(program.text)
    try:
        kept, pos = [], 0
        for step in steps(text):
            if step.kind in ("decl", "assert"):
                kept.append(re.sub(r"[^\n]", " ", text[pos:step.start]))
                kept.append(text[step.start:step.end])
                pos = step.end
        try:
            return list(z3.parse_smt2_string("".join(kept), ctx=z3.Context()))
        except z3.Z3Exception as err:
            raise z3_error(err) from None
    except Smt2Error as err:
        raise Smt2Error(f"{program.source}: {err.message}", hint=err.hint) from None
