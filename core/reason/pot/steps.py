"""Programs written step by step, for small models: the model chooses, sym assembles.

1. kinds of things: each sort's name, whether the text fixes its complete set of members (closed:
   an enumeration) or not (open: individuals of a declared sort), and the named members;
2. words: each function's name, its argument sorts and its result, chosen from enums of what
   step 1 declared; an integer function over a closed sort may be marked `position` (each member
   a different whole number 1..N, as in an order or ranking), and sym writes that constraint;
3. one form per sentence and per claim, in one call: every item is the sentence itself (a
   constant of the schema), then a form (fact, all, some, either, compare: core/reason/pot/forms.py)
   filled from enums of the declared names, or a formula whose tokens a pattern limits to the
   declared names, the connectives and the operators. A formula that does not type-check goes
   back, alone, with its error.

sym writes the program (JSON or SMT-LIB), names each knowledge-base entry by its sentence and
each verification by its claim, and runs it. A premise no formula could be found for is left
out and named; a claim without one makes the item unanswered. Nothing here evaluates model text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from sym.core.errors import UserError
from sym.core.llm import LLMError
from sym.core.reason.pot.authoring import NoProgram, Written
from sym.core.reason.pot.forms import FormError, forms_schema, render
from sym.core.reason.pot.programs import run_any, trace_report, verdicts
from sym.core.reason.pot.vocabulary import (
    Kinds,
    Lines,
    Vocabulary,
    Words,
    assemble,
    check_kinds,
    check_words,
    closed_formula,
    formula_problem,
    kinds_schema,
    token_pattern,
    ungrounded,
    words_schema,
)
from sym.core.reason.swm.english import split_sentences

if TYPE_CHECKING:
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.pot.tasks import Task
    from sym.core.run import Run


# -- the steps ---------------------------------------------------------------------------------

STEP_SYSTEM = """You help encode a text as a logic program for the Z3 solver, one small step at a time.
Answer with the JSON only."""

KINDS = """Step 1: the kinds of things. List each kind of thing the text talks about (a sort: Person, Book,
Thing, ...) with the individuals it names (lower-case identifiers: tom, red_book). closed is true when the
text fixes the complete set of them (a puzzle: "five books: ...", "exactly seven children"); false when
there may be others. Use one sort Thing when the kinds are not kept apart. Numbers need no sort."""

WORDS = """Step 2: the words. List a function for each property, relation or quantity the text uses, with
the sorts of its arguments: a property or relation has result Bool (cat(Thing) -> Bool); a quantity, place
in an order, day or slot has result Int (age(Person) -> Int). position is true for an Int function that
gives each member of a closed sort a different number 1..N (the place in an order or a ranking)."""

FORMS = """Step 3: for each sentence, pick the form that says what it says, and fill it with the declared names
(x, y, z are variables; an atom is a predicate, its arguments, and "not" when it is denied):
  fact: one atom: "Tom is a cat" -> cat(tom); "Tom is not a cat" -> not cat(tom)
  all: "All A that are B are C", "If someone is A, then they are C", "No A is C" -> if [A(x), B(x)] then [C(x)]
       (then [not C(x)] for "no")
  some: "Some A is B" -> atoms [A(x), B(x)]
  either: "A or B" -> atoms [A, B]; exclusive true for "either ... or ... but not both"
  compare: a number or a place in an order: "red is left of blue" -> pos(red) < pos(blue) (plus 0);
       "red is second from the left" -> pos(red) == place 2; "second from the right" -> place 2 from the end
  formula: anything else, as one formula over the declared names:
{syntax}
  none: the sentence sets no condition on the declared names (an introduction, a remark); not for a claim
Write what the sentence says and nothing more; for a claim, the claim itself, never its negation."""

FORMULAS_JSON = FORMS.replace("{syntax}", "       And(F, G)  Or(F, G)  Not(F)  Implies(F, G)  Xor(F, G)  "
                                          "ForAll([x], F)  Exists([x], F)  pos(a) + 1 == pos(b)")
FORMULAS_SMT2 = FORMS.replace("{syntax}", "       (and F G)  (or F G)  (not F)  (=> F G)  (xor F G)  "
                                          "(forall ((x Thing)) F)  (= (+ (pos a) 1) (pos b))")


def _text(task: Task) -> str:
    claims = "\n".join(f"{name}) {text}" for name, text in task.claims.items())
    return f"Text:\n{task.context.strip() or '(none)'}\n\nQuestion: {task.question.strip()}\nClaims:\n{claims}"


def write_stepwise(task: Task, fmt: str, run: Run, *, attempts: int, kind: str, purpose: str,
                   accept: Callable[[ProofReport], Any] | None = None,
                   summary: Callable[[Any], str] | None = None) -> Written:
    """Steps 1-3, then the assembled program run and passed to `accept`; NoProgram when a step
    has no valid answer after its repairs or a claim has no formula."""
    repairs = max(0, int(attempts) - 1)
    errors: list[str] = []
    calls = 0

    def step(n: int, label: str, messages: list[dict[str, Any]], model: type[BaseModel], schema: dict[str, Any],
             check: Callable[[Any], list[str]]) -> Any:
        nonlocal calls
        try:
            value = run.llm.json_with_repair(messages, model, check=check, attempts=repairs, purpose=f"{purpose}.{label}",
                                         format=schema, on_attempt=lambda i, problems: errors.extend(problems[:1]))
        except LLMError as err:
            calls += getattr(err, "calls", 1)
            run.trace(f"s{n}", "q", kind, f"step {n}: {label}", err.message, "failed")
            if err.reason == "bad-output":
                raise NoProgram(calls, errors or [err.message], err.message) from None
            raise
        calls += 1
        run.trace(f"s{n}", "q", kind, f"step {n}: {label}", "", "ok")
        return value

    base = [{"role": "system", "content": STEP_SYSTEM}, {"role": "user", "content": _text(task)}]
    kinds = step(1, "kinds", [*base, {"role": "user", "content": KINDS}], Kinds, kinds_schema(), check_kinds)
    sorts = [s.name for s in kinds.sorts]
    words = step(2, "words", [*base, {"role": "user", "content": WORDS + "\nSorts: " + ", ".join(sorts)}], Words,
                 words_schema(sorts), lambda w: check_words(w, kinds))
    vocab = Vocabulary(kinds, words)
    premises = split_sentences(task.context) if task.context.strip() else []
    texts = [*premises, *(f"{name}) {text}" for name, text in task.claims.items())]
    guide = FORMULAS_JSON if fmt == "json" else FORMULAS_SMT2
    pattern = token_pattern([*vocab.names(), *sorts] if fmt == "smt2" else vocab.names(), fmt)
    formulas: dict[int, str] = {}
    ran: set[int] | None = None             # the formulas the last program run was assembled from
    wanted, problems = list(range(len(texts))), dict[int, str]()
    claim_names = list(task.claims)
    settings = [(label, js if fmt == "json" else sm) for label, js, sm in vocab.position_facts()]
    for round_ in range(1 + repairs):
        asked = [texts[i] for i in wanted]
        note = "" if not problems else "\nThese formulas were rejected; write them again:\n" + "\n".join(
            f"- {texts[i]}: {problems[i]}" for i in wanted)
        prompt = f"{guide}\nDeclared:\n{vocab.describe(fmt)}{note}"

        def same_texts(lines: Lines, asked: list[str] = asked) -> list[str]:
            got = [ln.get("text") for ln in lines.lines]
            return [] if got == asked else [f"write one item per sentence, in order, each with its text: {asked}"]
        lines = step(3 + round_, "formulas", [*base, {"role": "user", "content": prompt}], Lines,
                     forms_schema(asked, vocab, pattern, frozenset(texts[len(premises):])), same_texts)
        problems = {}
        for i, line in zip(wanted, lines.lines):
            if line.get("form") == "none":
                if i < len(premises):       # the model says it sets no condition: left out, and named
                    run.trace(f"f{round_}.{i}", "q", "steps.formula", texts[i], "(no condition)", "ok")
                    continue
                problems[i] = "a claim needs a form that says it"
                errors.append(f"{texts[i]}: {problems[i]}")
                continue
            try:
                formula = closed_formula(render(line if "form" in line else {**line, "form": "formula"}, vocab, fmt),
                                         fmt, vocab)
                problem = formula_problem(vocab, fmt, formula) or ungrounded(formula, texts[i], vocab)
            except FormError as err:
                formula, problem = json.dumps(line)[:300], str(err)
            run.trace(f"f{round_}.{i}", "q", "steps.formula", texts[i], formula, "failed" if problem else "ok")
            if problem is None:
                formulas[i] = formula
            else:
                problems[i] = problem
                errors.append(f"{texts[i]}: {problem}")
        wanted = [i for i in wanted if i in problems]
        if wanted:
            continue
        kb = settings + [(premises[i], formulas[i]) for i in range(len(premises)) if i in formulas]
        program = assemble(vocab, fmt, kb, [(name, formulas[len(premises) + j]) for j, name in enumerate(claim_names)])
        report = run_any(program, run)      # Cancelled and TimedOut end it
        ran = set(formulas)
        if report.consistent is not False or round_ == repairs:
            break
        # the premises contradict each other as written: the core's sentences go back
        labels = [label for label, _ in kb]
        core = [int(x.split("[")[1].split("]")[0]) if x.startswith("knowledge_base[") else labels.index(x)
                for x in report.core if x.startswith("knowledge_base[") or x in labels]
        blamed = [premises.index(labels[k]) for k in core if k < len(labels) and labels[k] in premises]
        if not blamed:
            break
        problem = "these sentences contradict each other as written: " + " / ".join(premises[i] for i in blamed)
        wanted, problems = blamed, {i: problem for i in blamed}
        errors.append(problem)
        for i in blamed:
            formulas.pop(i, None)
    missing = [claim_names[i - len(premises)] for i in wanted if i >= len(premises)]
    if missing:
        raise NoProgram(calls, errors, f"no formula for claim {', '.join(missing)}: {problems[wanted[-1]]}")
    left_out = [premises[i] for i in range(len(premises)) if i not in formulas]
    if ran != set(formulas):        # run what could be written (a premise left out weakens, never misstates)
        kb = settings + [(premises[i], formulas[i]) for i in range(len(premises)) if i in formulas]
        program = assemble(vocab, fmt, kb, [(name, formulas[len(premises) + j]) for j, name in enumerate(claim_names)])
        report = run_any(program, run)
    try:
        outcome = accept(report) if accept is not None else report
    except UserError as err:
        errors.append(err.message)
        raise NoProgram(calls, errors, err.message) from None
    detail = f"{(summary or verdicts)(outcome)}" + (f"; {len(left_out)} premise(s) not encoded" if left_out else "")
    run.trace("steps", "q", kind, "assembled program", detail, "ok")
    trace_report(run, "steps", report, program)
    written = Written(program, report, outcome, calls, errors)
    written.left_out = left_out      # type: ignore[attr-defined]
    return written
