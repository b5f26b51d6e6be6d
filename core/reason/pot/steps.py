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
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from sym.core.errors import UserError

if TYPE_CHECKING:
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.pot.tasks import Task
    from sym.core.reason.pot.writer import Written
    from sym.core.run import Run

IDENT = r"^[A-Za-z_][A-Za-z0-9_]{0,39}$"
MAX_SORTS, MAX_MEMBERS, MAX_FUNCTIONS, MAX_ARGS = 6, 24, 24, 3
VARIABLES = ("x", "y", "z")
JSON_WORDS = ("And", "Or", "Not", "Implies", "Xor", "If", "Distinct", "ForAll([", "Exists([", "True", "False")
SMT2_WORDS = ("and", "or", "not", "=>", "xor", "ite", "distinct", "forall", "exists", "true", "false", "Int", "Bool")
JSON_OPS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "(", ")", "[", "]", ",", " ", "[0-9]")
SMT2_OPS = ("<=", ">=", "=", "<", ">", "+", "-", "*", "(", ")", " ", "[0-9]")


class SortStep(BaseModel):
    name: str
    closed: bool
    members: list[str] = Field(default_factory=list)


class Kinds(BaseModel):
    sorts: list[SortStep]


class FunctionStep(BaseModel):
    name: str
    args: list[str]
    result: str
    position: bool = False


class Words(BaseModel):
    functions: list[FunctionStep]


class Lines(BaseModel):
    lines: list[dict[str, Any]]      # {"text", "form", …}: core/reason/pot/forms.py


# -- schemas ---------------------------------------------------------------------------------

def _name(extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "string", "pattern": IDENT, **(extra or {})}


def kinds_schema() -> dict[str, Any]:
    sort = {"type": "object", "properties": {
        "name": _name(), "closed": {"type": "boolean"},
        "members": {"type": "array", "maxItems": MAX_MEMBERS, "items": _name()}},
        "required": ["name", "closed", "members"]}
    return {"type": "object", "properties": {"sorts": {"type": "array", "minItems": 1, "maxItems": MAX_SORTS,
                                                       "items": sort}}, "required": ["sorts"]}


def words_schema(sorts: list[str]) -> dict[str, Any]:
    fn = {"type": "object", "properties": {
        "name": _name(), "args": {"type": "array", "maxItems": MAX_ARGS, "items": {"enum": [*sorts, "Int"]}},
        "result": {"enum": ["Bool", "Int", *sorts]}, "position": {"type": "boolean"}},
        "required": ["name", "args", "result", "position"]}
    return {"type": "object", "properties": {"functions": {"type": "array", "minItems": 1, "maxItems": MAX_FUNCTIONS,
                                                           "items": fn}}, "required": ["functions"]}


def token_pattern(names: list[str], fmt: str) -> str:
    """A regex for a formula made only of these names, the format's words and operators."""
    words = JSON_WORDS if fmt == "json" else SMT2_WORDS
    ops = JSON_OPS if fmt == "json" else SMT2_OPS
    alternatives = sorted({*names, *words}, key=len, reverse=True)
    return "^(" + "|".join([*(_literal(a) for a in alternatives), *(o if o == "[0-9]" else _literal(o) for o in ops)]) + ")+$"


def _literal(text: str) -> str:
    """`text` as a regex literal that grammar converters read (re.escape's "\\ " and "\\-" they do not)."""
    return "".join("\\" + c if c in ".^$*+?()[]{}|\\" else c for c in text)


# -- the vocabulary ----------------------------------------------------------------------------

class Vocabulary:
    """What steps 1 and 2 declared, and how to write a program from it."""

    def __init__(self, kinds: Kinds, words: Words) -> None:
        self.sorts = kinds.sorts
        self.functions = words.functions

    def names(self) -> list[str]:
        return [*(m for s in self.sorts for m in s.members), *(f.name for f in self.functions), *VARIABLES]

    def describe(self, fmt: str) -> str:
        lines = []
        for s in self.sorts:
            kind = "exactly these" if s.closed else "among others"
            lines.append(f"- {s.name}: {', '.join(s.members) or '(no named members)'} ({kind})")
        for f in self.functions:
            args = ", ".join(f.args)
            sig = f"{f.name}({args}) -> {f.result}" if fmt == "json" else f"({f.name} {' '.join(f.args)}) : {f.result}"
            lines.append(f"- {sig}" + ("  (a different number 1..N for each)" if f.position else ""))
        return "\n".join(lines)

    # the settings sym writes: positions are 1..N and all different
    def position_facts(self) -> list[tuple[str, str, str]]:
        """(label, json formula, smt2 formula) per position function over a closed sort."""
        out = []
        for f in self.functions:
            sort = next((s for s in self.sorts if [s.name] == f.args), None)
            if not (f.position and f.result == "Int" and sort is not None and sort.closed and sort.members):
                continue
            n, ms = len(sort.members), sort.members
            js = "And(" + ", ".join([f"{f.name}({m}) >= 1, {f.name}({m}) <= {n}" for m in ms]
                                    + ([f"Distinct({', '.join(f'{f.name}({m})' for m in ms)})"] if n > 1 else [])) + ")"
            sm = "(and " + " ".join([f"(>= ({f.name} {m}) 1) (<= ({f.name} {m}) {n})" for m in ms]
                                    + ([f"(distinct {' '.join(f'({f.name} {m})' for m in ms)})"] if n > 1 else [])) + ")"
            out.append((f"each {sort.name} has its own {f.name} from 1 to {n}", js, sm))
        return out


def check_kinds(kinds: Kinds) -> list[str]:
    from sym.core.reason.pot.schema import RESERVED

    problems, seen = [], set()
    for s in kinds.sorts:
        for name in [s.name, *s.members]:
            if name in RESERVED or name in VARIABLES or name in seen:
                problems.append(f"{name!r} is used twice or is a reserved word; choose another name")
            seen.add(name)
        if s.closed and not s.members:
            problems.append(f"sort {s.name!r} is closed but lists no members")
    return problems


def check_words(words: Words, kinds: Kinds) -> list[str]:
    from sym.core.reason.pot.schema import RESERVED

    taken = {s.name for s in kinds.sorts} | {m for s in kinds.sorts for m in s.members} | set(VARIABLES) | RESERVED
    problems, seen = [], set()
    sorts = {s.name for s in kinds.sorts}
    for f in words.functions:
        if f.name in taken or f.name in seen:
            problems.append(f"{f.name!r} is already a name; choose another for this function")
        seen.add(f.name)
        bad = [a for a in [*f.args, f.result] if a not in sorts | {"Int", "Bool"}]
        if bad:
            problems.append(f"{f.name}: unknown sort {bad[0]!r}")
    return problems


# -- one formula --------------------------------------------------------------------------------

_BINDERS = re.compile(r"(?:ForAll|Exists)\(\s*\[([^\]]*)\]")


def variable_sorts(formula: str, vocab: Vocabulary) -> dict[str, str]:
    """The sort of each variable a JSON formula binds, from where it is used as an argument."""
    out: dict[str, str] = {}
    bound = {v.strip() for group in _BINDERS.findall(formula) for v in group.split(",") if v.strip()}
    for v in bound:
        for f in vocab.functions:
            for m in re.finditer(rf"\b{re.escape(f.name)}\(([^()]*)\)", formula):
                args = [a.strip() for a in m.group(1).split(",")]
                if v in args and args.index(v) < len(f.args):
                    out.setdefault(v, f.args[args.index(v)])
        if v not in out:
            opens = [s.name for s in vocab.sorts]
            if len(opens) == 1:
                out[v] = opens[0]
    return out


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def closed_formula(formula: str, fmt: str, vocab: Vocabulary) -> str:
    """The formula with its free variables (x, y, z used but not bound) universally closed, as an
    axiom's free variables are read ("If people perform, then they attend": for all x)."""
    if fmt == "json":
        bound = {v.strip() for group in _BINDERS.findall(formula) for v in group.split(",")}
        free = [v for v in VARIABLES if v in set(_WORD.findall(formula)) - bound]
        return f"ForAll([{', '.join(free)}], {formula})" if free else formula
    bound = set(re.findall(r"\(\(?\s*([xyz])\s+[A-Za-z_]", formula))
    free = [v for v in VARIABLES if v in set(_WORD.findall(formula)) - bound]
    if not free:
        return formula
    sorts = variable_sorts_smt2(formula, vocab)
    return f"(forall ({' '.join(f'({v} {sorts.get(v, vocab.sorts[0].name)})' for v in free)}) {formula})"


def variable_sorts_smt2(formula: str, vocab: Vocabulary) -> dict[str, str]:
    out: dict[str, str] = {}
    for f in vocab.functions:
        for m in re.finditer(rf"\({re.escape(f.name)}((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)\s*\)", formula):
            for i, a in enumerate(m.group(1).split()):
                if a in VARIABLES and i < len(f.args):
                    out.setdefault(a, f.args[i])
    return out


def json_program(vocab: Vocabulary, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    """The DSL program: sorts, constants, functions, a named entry per premise, a verification per claim."""
    from sym.core.reason.pot.schema import Program

    sorts = [{"name": s.name, "type": "EnumSort" if s.closed else "DeclareSort", **({"values": s.members} if s.closed else {})}
             for s in vocab.sorts]
    constants = {s.name.lower(): {"sort": s.name, "members": s.members} for s in vocab.sorts if not s.closed and s.members}
    functions = [{"name": f.name, "domain": f.args, "range": f"{f.result}Sort" if f.result in ("Int", "Bool") else f.result}
                 for f in vocab.functions]
    kb = [{"name": label, "assertion": formula,
           "variables": [{"name": v, "sort": s} for v, s in variable_sorts(formula, vocab).items()]}
          for label, formula in premises]
    globals_: dict[str, str] = {}
    for _, formula in claims:
        globals_.update(variable_sorts(formula, vocab))
    return Program.model_validate({
        "sorts": sorts, "constants": constants, "functions": functions,
        "variables": [{"name": v, "sort": s} for v, s in globals_.items()], "knowledge_base": kb,
        "verifications": [{"name": name, "constraint": formula} for name, formula in claims]})


def smt2_program(vocab: Vocabulary, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    from sym.core.reason.pot.smt2 import quoted
    from sym.core.reason.pot.smt2_read import Smt2Program

    lines = []
    for s in vocab.sorts:
        if s.closed:
            lines.append(f"(declare-datatypes () (({s.name} {' '.join(s.members)})))")
        else:
            lines.append(f"(declare-sort {s.name} 0)")
            lines += [f"(declare-const {m} {s.name})" for m in s.members]
    lines += [f"(declare-fun {f.name} ({' '.join(f.args)}) {f.result})" for f in vocab.functions]
    taken = set(vocab.names()) | {s.name for s in vocab.sorts}
    lines += [f"(assert (! {formula} :named {quoted(label, taken)}))" for label, formula in premises]
    for name, formula in claims:
        q = quoted(name, taken)
        lines += [f"(define-fun {q} () Bool {formula})", f"(check-sat-assuming ({q}))"]
    return Smt2Program("\n".join(lines) + "\n", "steps")


_STOP = frozenset("a an the of to in on at by for with and or not no is are be been was were has have had does do "
                  "who that which than then if it its their they them he she his her".split())


def _stems(text: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", text).replace("_", " ").lower())
    return {re.sub(r"(?<=...)e?s$", "", w)[:4] for w in words if w not in _STOP}   # cats ~ cat, classes ~ class


def ungrounded(formula: str, sentence: str, vocab: Vocabulary) -> str | None:
    """A predicate or individual in the formula that shares no word with its sentence (a formula
    about something the sentence does not mention misstates it), or None. Numeric functions (a
    place, an amount) are exempt: their names are the model's own."""
    said = _stems(sentence)
    predicates = {f.name for f in vocab.functions if f.result != "Int"}
    members = {m for s in vocab.sorts for m in s.members}
    for name in dict.fromkeys(_WORD.findall(formula)):
        if (name in predicates or name in members) and _stems(name) and not (_stems(name) & said):
            return f"{name!r} is not in the sentence; use only names for what it says"
    return None


def assemble(vocab: Vocabulary, fmt: str, premises: list[tuple[str, str]], claims: list[tuple[str, str]]) -> Any:
    return json_program(vocab, premises, claims) if fmt == "json" else smt2_program(vocab, premises, claims)


def formula_problem(vocab: Vocabulary, fmt: str, formula: str) -> str | None:
    """Why a formula does not type-check against the vocabulary, or None."""
    from sym.core.reason.pot.build import build
    from sym.core.reason.pot.smt2_read import build_smt2

    try:
        if fmt == "json":
            build(json_program(vocab, [("f", formula)], []))
        else:
            build_smt2(smt2_program(vocab, [("f", formula)], []))
    except UserError as err:
        return re.sub(r"^(steps: |knowledge_base\[0\][.\w]*: |line \d+ column \d+: )+", "", err.message)
    except ValueError as err:      # pydantic: a name the schema refuses
        return str(err).splitlines()[0]
    return None


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
    from sym.core.llm import LLMError
    from sym.core.reason.pot.forms import FormError, forms_schema, render
    from sym.core.reason.pot.writer import NoProgram, Written, run_any, trace_report, verdicts
    from sym.core.reason.swm.english import split_sentences

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
