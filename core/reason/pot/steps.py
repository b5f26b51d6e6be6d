"""Programs written step by step, for small models: the model chooses, sym assembles.

1. kinds of things: each sort's name, whether the text fixes its complete set of members (closed:
   an enumeration) or not (open: individuals of a declared sort), and the named members;
2. words: each function's name, its argument sorts and its result, chosen from enums of what
   step 1 declared; an integer function over a closed sort may be marked `position` (each member
   a different whole number 1..N, as in an order or ranking), and sym writes that constraint;
3. one form per sentence and per claim, in one call: every item is the sentence itself (a
   constant of the schema), then a form (fact, all, some, either, compare, most: core/reason/pot/forms.py)
   filled from enums of the declared names, or a formula whose tokens a pattern limits to the
   declared names, the connectives and the operators. A formula that does not type-check goes
   back, alone, with its error.

sym writes the program (JSON or SMT-LIB), names each knowledge-base entry by its sentence and
each verification by its claim, and runs it. A premise no formula could be found for is left
out and named; a claim without one makes the item unanswered. Nothing here evaluates model text.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from sym.core.errors import UserError
from sym.core.llm import LLMError, examples
from sym.core.llm.repair import REPAIR_SEED
from sym.core.reason.pot.authoring import NoProgram, Written
from sym.core.reason.pot.faithful import compared_with_all, misread, speaks_of, wrong_end
from sym.core.reason.pot.forms import FormError, forms_schema, render
from sym.core.reason.pot.interpret import UNKNOWN
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
    introduced_only,
    kinds_schema,
    open_uncounted,
    token_pattern,
    without_faulty,
    words_schema,
)
from sym.core.reason.pot.vote import Sample, Vote, attempt, said_of, vote_in_rounds
from sym.core.reason.sampling import sample_options
from sym.core.reason.swm import lockstep
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
the sorts of its arguments: a property or relation has result Bool (wug(Thing) -> Bool); a quantity, place
in an order, day or slot has result Int (zib(Person) -> Int). position is true for an Int function that
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
  most: a superlative, the highest or lowest number of all: "red is the leftmost" -> pos, red, lowest;
       "tom is the oldest" -> age, tom, highest (sym compares it with every other member)
  formula: anything else, as one formula over the declared names:
{syntax}
  none: the sentence sets no condition on the declared names (an introduction, a remark); not for a claim
Write what the sentence says and nothing more; for a claim, the claim itself, never its negation."""

FORMULAS_JSON = FORMS.replace("{syntax}", "       And(F, G)  Or(F, G)  Not(F)  Implies(F, G)  Xor(F, G)  "
                                          "ForAll([x], F)  Exists([x], F)  pos(a) + 1 == pos(b)")
FORMULAS_SMT2 = FORMS.replace("{syntax}", "       (and F G)  (or F G)  (not F)  (=> F G)  (xor F G)  "
                                          "(forall ((x Thing)) F)  (= (+ (pos a) 1) (pos b))")


examples.register(KINDS, WORDS, FORMULAS_JSON, FORMULAS_SMT2)     # their names (tom, wug, zib) are the prompt's


def _text(task: Task) -> str:
    claims = "\n".join(f"{name}) {text}" for name, text in task.claims.items())
    return f"Text:\n{task.context.strip() or '(none)'}\n\nQuestion: {task.question.strip()}\nClaims:\n{claims}"



class _Steps:
    """One step-wise writing: the model's calls (with their repairs), the errors met, and what
    steps 1-2 declared, shared by every draw of step 3."""

    def __init__(self, task: Task, fmt: str, run: Run, *, attempts: int, kind: str, purpose: str) -> None:
        self.task, self.fmt, self.run, self.kind, self.purpose = task, fmt, run, kind, purpose
        self.repairs = max(0, int(attempts) - 1)
        self.errors: list[str] = []
        self.calls = 0
        self.base = [{"role": "system", "content": STEP_SYSTEM}, {"role": "user", "content": _text(task)}]

    def step(self, node: str, label: str, messages: list[dict[str, Any]], model: type[BaseModel],
             schema: dict[str, Any], check: Callable[[Any], list[str]], options: dict[str, Any] | None = None,
             parent: str = "q") -> Any:
        try:
            value = self.run.llm.json_with_repair(messages, model, check=check, attempts=self.repairs,
                                                  purpose=f"{self.purpose}.{label}", format=schema, options=options,
                                                  on_attempt=lambda i, problems: self.errors.extend(problems[:1]))
        except LLMError as err:
            self.calls += getattr(err, "calls", 1)
            self.run.trace(node, parent, self.kind, f"step {label}", err.message, "failed")
            if err.reason == "bad-output":
                raise NoProgram(self.calls, self.errors or [err.message], err.message) from None
            raise
        self.calls += 1
        self.run.trace(node, parent, self.kind, f"step {label}", "", "ok")
        return value

    def vocabulary(self, options: dict[str, Any] | None = None, tag: str = "") -> Vocabulary:
        """Steps 1 and 2: the sorts (opened where the text does not fix their members) and the words.
        `options` draw them as a sample's own; `tag` ("k2") keeps its trace nodes apart."""
        parent = tag or "q"
        kinds = self.step(f"{tag}s1", "1: kinds", [*self.base, {"role": "user", "content": KINDS}], Kinds,
                          kinds_schema(), check_kinds, options=options, parent=parent)
        opened = open_uncounted(kinds, self.task.context)
        if opened:
            self.run.trace(f"{tag}s1.open", f"{tag}s1", self.kind, "sorts opened",
                           f"{', '.join(opened)}: the text does not fix their members", "ok")
        sorts = [s.name for s in kinds.sorts]
        text = f"{self.task.context}\n{' '.join(self.task.claims.values())}"
        seen: list[Words] = []

        def check(w: Words) -> list[str]:
            seen.append(w)
            return check_words(w, kinds, text)
        try:
            words = self.step(f"{tag}s2", "2: words", [*self.base, {"role": "user", "content": WORDS + "\nSorts: " +
                                                                     ", ".join(sorts)}], Words, words_schema(sorts, text),
                              check, options=options, parent=parent)
        except NoProgram:
            kept = without_faulty(seen[-1], kinds, text) if seen else None
            if kept is None:
                raise
            words, dropped = kept
            self.run.trace(f"{tag}s2.drop", f"{tag}s2", self.kind, "words dropped",
                           f"{', '.join(dropped)}: not the text's words, or a position over no listed members; "
                           "the sentences that need them are left out",
                           "ok")
        idle = introduced_only(words, kinds, [*self.texts()[1], self.task.question])
        if idle and len(idle) < len(words.functions):
            words = Words(functions=[f for f in words.functions if f not in idle])
            written = ", ".join(f"{f.name}({', '.join(f.args)})" for f in idle)
            self.run.trace(f"{tag}s2.idle", f"{tag}s2", self.kind, "words dropped",
                           f"{written}: only an introduction says them", "ok")
        return Vocabulary(kinds, words)

    def texts(self) -> tuple[list[str], list[str]]:
        """(the premises' sentences, every item step 3 asks for: the premises, then "name) claim")."""
        premises = split_sentences(self.task.context) if self.task.context.strip() else []
        return premises, [*premises, *(f"{name}) {text}" for name, text in self.task.claims.items())]

    def request(self, vocab: Vocabulary, wanted: list[int], problems: dict[int, str]) -> tuple[list[dict[str, Any]],
                                                                                              dict[str, Any]]:
        """Step 3's messages and constrained schema for the items `wanted` (with the reasons the
        earlier formulas of `problems` were rejected)."""
        premises, texts = self.texts()
        fmt = self.fmt
        sorts = [s.name for s in vocab.sorts]
        pattern = token_pattern([*vocab.names(), *sorts] if fmt == "smt2" else vocab.names(), fmt)
        note = "" if not problems else "\nThese formulas were rejected; write them again:\n" + "\n".join(
            f"- {texts[i]}: {problems[i]}" for i in wanted)
        prompt = f"{FORMULAS_JSON if fmt == 'json' else FORMULAS_SMT2}\nDeclared:\n{vocab.describe(fmt)}{note}"
        return ([*self.base, {"role": "user", "content": prompt}],
                forms_schema([texts[i] for i in wanted], vocab, pattern, frozenset(texts[len(premises):])))

    def formulas(self, vocab: Vocabulary, accept: Callable[[ProofReport], Any] | None,
                 summary: Callable[[Any], str] | None, options: dict[str, Any] | None = None, tag: str = "") -> Written:
        """Step 3 (one formula per sentence and claim, the rejected ones sent back) and the program
        sym assembles from them, run and passed to `accept`. `options` draw it as a sample; `tag`
        ("k2") keeps a sample's trace nodes apart from the others'."""
        task, fmt, run, repairs = self.task, self.fmt, self.run, self.repairs
        parent = tag or "q"
        premises, texts = self.texts()
        formulas: dict[int, str] = {}
        ran: set[int] | None = None             # the formulas the last program run was assembled from
        wanted, problems = list(range(len(texts))), dict[int, str]()
        claim_names = list(task.claims)
        settings = vocab.position_settings(fmt)
        unplaced: list[str] = []                 # position settings dropped: the text contradicted them
        report: ProofReport | None = None
        before: list[dict[str, Any]] | None = None
        for round_ in range(1 + repairs):
            asked = [texts[i] for i in wanted]
            messages, schema = self.request(vocab, wanted, problems)
            # a round asked as the last one was gets the same reply at temperature 0: vary it, replayably
            again = {"temperature": self.run.llm.settings.repair_temperature, "seed": REPAIR_SEED + round_}
            drawn, before = options if round_ == 0 else (again if messages == before else None), messages

            def same_texts(lines: Lines, asked: list[str] = asked) -> list[str]:
                got = [ln.get("text") for ln in lines.lines]
                return [] if got == asked else [f"write one item per sentence, in order, each with its text: {asked}"]
            lines = self.step(f"{tag}s{3 + round_}", f"{3 + round_}: formulas", messages, Lines, schema, same_texts,
                              options=drawn, parent=parent)
            problems = {}
            for i, line in zip(wanted, lines.lines):
                node = f"{tag}f{round_}.{i}"
                if line.get("form") == "none":
                    spoken = speaks_of(texts[i], vocab) if i < len(premises) else None
                    if i < len(premises) and spoken is None:   # it sets no condition: left out, and named
                        run.trace(node, parent, "steps.formula", texts[i], "(no condition)", "ok")
                        continue
                    problems[i] = ("a claim needs a form that says it" if spoken is None else
                                   f"this sentence speaks of {spoken}: pick the form that says what it says "
                                   "(none is only for a sentence that sets no condition)")
                    self.errors.append(f"{texts[i]}: {problems[i]}")
                    continue
                try:
                    formula = closed_formula(render(line if "form" in line else {**line, "form": "formula"}, vocab,
                                                    fmt), fmt, vocab)
                    # an option is read with its question ("the complete list of CDs on sale?" / "E) used jazz, …")
                    said = texts[i] if i < len(premises) else f"{task.question} {texts[i]}"
                    problem = (wrong_end(line, texts[i]) or formula_problem(vocab, fmt, formula)
                               or compared_with_all(line, formula, said, vocab)
                               or misread(formula, texts[i], vocab, fmt)
                               or self.vacuous(vocab, settings, formula))
                    if problem == NEVER and settings and self.shared(vocab, formula):
                        unplaced, settings = [label for label, _ in settings], []
                        by, labels = f"'{texts[i]}' has two share a place", "; ".join(unplaced)
                        run.trace(f"{tag}unplaced", parent, "steps.formula", "positions dropped", f"{labels}: {by}", "ok")
                        self.errors.append(f"{labels}: dropped, since {by}")
                        problem = self.vacuous(vocab, settings, formula)
                except FormError as err:
                    formula, problem = json.dumps(line)[:300], str(err)
                run.trace(node, parent, "steps.formula", texts[i], formula, "failed" if problem else "ok")
                if problem is None:
                    formulas[i] = formula
                else:
                    problems[i] = problem
                    self.errors.append(f"{texts[i]}: {problem}")
            wanted = [i for i in wanted if i in problems]
            if wanted:
                continue
            kb = settings + [(premises[i], formulas[i]) for i in range(len(premises)) if i in formulas]
            program = assemble(vocab, fmt, kb, [(name, formulas[len(premises) + j])
                                                for j, name in enumerate(claim_names)])
            report = run_any(program, run)      # Cancelled and TimedOut end it
            ran = set(formulas)
            core = _core(report, kb)
            if report.consistent is not False or round_ == repairs:
                break
            # the premises contradict each other as written: the core's sentences go back
            blamed = [premises.index(kb[k][0]) for k in core if kb[k][0] in premises]
            if not blamed:
                break
            problem = "these sentences contradict each other as written: " + " / ".join(premises[i] for i in blamed)
            wanted, problems = blamed, {i: problem for i in blamed}
            self.errors.append(problem)
            for i in blamed:
                formulas.pop(i, None)
        missing = [claim_names[i - len(premises)] for i in wanted if i >= len(premises)]
        if missing:
            raise NoProgram(self.calls, self.errors,
                            f"no formula for claim {', '.join(missing)}: {problems[wanted[-1]]}")
        left_out = [premises[i] for i in range(len(premises)) if i not in formulas] + unplaced
        if ran != set(formulas) or report is None:  # run what could be written (a premise left out weakens)
            kb = settings + [(premises[i], formulas[i]) for i in range(len(premises)) if i in formulas]
            program = assemble(vocab, fmt, kb, [(name, formulas[len(premises) + j])
                                                for j, name in enumerate(claim_names)])
            report = run_any(program, run)
        try:
            outcome = accept(report) if accept is not None else report
        except UserError as err:
            self.errors.append(err.message)
            raise NoProgram(self.calls, self.errors, err.message) from None
        detail = f"{(summary or verdicts)(outcome)}" + (f"; {len(left_out)} premise(s) not encoded" if left_out else "")
        run.trace(f"{tag}steps", parent, self.kind, "assembled program", detail, "ok")
        trace_report(run, f"{tag}steps", report, program)
        written = Written(program, report, outcome, self.calls, list(self.errors))
        written.left_out = left_out      # type: ignore[attr-defined]
        return written


    def vacuous(self, vocab: Vocabulary, settings: list[tuple[str, str]], formula: str) -> str | None:
        """Why a formula says nothing about the world, or None: true of anything (a tautology, given
        only the settings sym writes, such as positions 1..N), or of nothing. A sentence read so
        ("rock is still" as age(rock) <= age(rock) + 1) was misread, and a claim read so would be
        "proved" or "refuted" by logic alone."""
        report = run_any(assemble(vocab, self.fmt, settings, [("f", formula)]), self.run)
        status = report.verifications[0].status if report.verifications else None
        if status == "proved":
            return "this formula is true of anything (it follows from logic alone), so it cannot say what the sentence says"
        if status == "refuted":
            return NEVER
        return None

    def shared(self, vocab: Vocabulary, formula: str) -> bool:
        """Whether one sentence's `formula` contradicts the places sym writes from the model's
        position flag only by their being all different: it holds with each place in 1..N alone.
        Then the sentence has two members share a place (seen: lockers that three children share),
        and the flag was wrong. (Sentences that contradict the places only together go back as
        any contradiction does: seen, a misread "to the right of" as two places to the right.)"""
        ranged = vocab.position_settings(self.fmt, distinct=False)
        if not ranged:
            return False
        report = run_any(assemble(vocab, self.fmt, [*ranged, ("f", formula)], []), self.run)
        return report.consistent is not False



NEVER = "this formula can never hold (it contradicts itself), so it cannot say what the sentence says"


def _core(report: ProofReport, kb: list[tuple[str, str]]) -> list[int]:
    """Where in `kb` the entries of an inconsistent program's unsat core are ([] when consistent)."""
    if report.consistent is not False:
        return []
    labels = [label for label, _ in kb]
    at = [int(x.split("[")[1].split("]")[0]) if x.startswith("knowledge_base[") else labels.index(x)
          for x in report.core if x.startswith("knowledge_base[") or x in labels]
    return [k for k in at if 0 <= k < len(kb)]


def write_stepwise(task: Task, fmt: str, run: Run, *, attempts: int, kind: str, purpose: str,
                   accept: Callable[[ProofReport], Any] | None = None,
                   summary: Callable[[Any], str] | None = None) -> Written:
    """Steps 1-3, then the assembled program run and passed to `accept`; NoProgram when a step
    has no valid answer after its repairs or a claim has no formula."""
    steps = _Steps(task, fmt, run, attempts=attempts, kind=kind, purpose=purpose)
    return steps.formulas(steps.vocabulary(), accept, summary)


def vote_stepwise(task: Task, fmt: str, run: Run, *, samples: int, attempts: int, kind: str, purpose: str,
                  verdict_of: Callable[[Any], str | None], accept: Callable[[ProofReport], Any] | None = None,
                  summary: Callable[[Any], str] | None = None, vet: Callable[[Sample], None] | None = None) -> Vote:
    """Steps 1-2 once, then step 3 drawn as `samples` samples (sample n at llm.sample_temperature
    with its own seed, each with its repairs) in rounds until the vote is settled
    (core/reason/sampling.py), each assembled, run and voted by `verdict_of(outcome)`. A round's
    samples are written together, each on a thread of its own (lockstep.py): whenever every one
    waits on the model, their calls, first requests and repairs alike, go out at once, in
    parallel where the server allows. The samples share the prompt up to step 3's, so a server
    that caches prompt prefixes reads it once. When steps 1-2 find no valid vocabulary, each
    sample draws its own (at its seed) rather than all of them failing with the one. A sample
    whose premises were not all encoded votes only when it proves or refutes: an "unknown" from
    a program missing a premise may be the missing premise's doing."""
    steps = _Steps(task, fmt, run, attempts=attempts, kind=kind, purpose=purpose)
    k = max(1, int(samples))
    temperature = run.settings.llm_sample_temperature
    options = sample_options(temperature, k)
    try:
        shared: Vocabulary | None = steps.vocabulary()
    except NoProgram as err:
        if k == 1:
            raise
        shared = None
        run.trace("s.own", "q", kind, "no shared vocabulary", f"{err.message}; each sample declares its own", "failed")

    def one(n: int, where: Run) -> Sample:
        own = _Steps(task, fmt, where, attempts=attempts, kind=kind, purpose=purpose)   # its calls and errors
        sample = Sample(n)
        where.trace(f"k{n}", "q", kind, f"sample {n}")

        def write() -> Written:
            vocab = shared or own.vocabulary(options[n - 1], tag=f"k{n}")
            return own.formulas(vocab, accept, summary, options=options[n - 1], tag=f"k{n}")
        attempt(sample, write)
        if sample.written is not None:
            sample.verdict = verdict_of(sample.written.outcome)
            if _weak(sample.verdict) and getattr(sample.written, "left_out", None):
                sample.verdict = None
        said = (summary or said_of)(sample.written.outcome) if sample.written else sample.problem
        where.trace(f"k{n}", "q", kind, f"sample {n}", said, "ok" if sample.written else "failed")
        return sample

    def draw(batch: list[int]) -> list[Sample]:
        if len(batch) == 1:
            return [one(batch[0], run)]
        held: dict[int, deque[object]] = {n: deque() for n in batch}     # each sample's events, for this thread

        def flush() -> None:
            for n in batch:
                while held[n]:
                    run.emit(held[n].popleft())
        return lockstep.draw(run.llm, batch, lambda client: one(client.n, run.sample(client, held[client.n].append)),
                             temperature=temperature, between=flush)
    return vote_in_rounds(k, run, draw, vet)


def _weak(verdict: str | None) -> bool:
    """An "unknown" verdict (bare, or a claim's "name: unknown")."""
    return verdict is not None and (verdict == UNKNOWN or verdict.endswith(f": {UNKNOWN}"))
