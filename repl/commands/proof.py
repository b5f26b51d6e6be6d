"""Proof commands: /prove (a program file, or a question the LLM turns into a program),
/check (Z3 consistency of the working memory), /program, /math, and the `smt2` exporter.

The reasoners live in core/reason/pot and core/reason/math; this module parses arguments,
keeps the shell's last program (`ctx.recall.program`), and turns reports into results.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from sym.core.errors import UserError
from sym.core.events import CoreEntry, ModelShown
from sym.core.reason.math import CONSTANTS, FUNCTIONS, OPERATIONS, compute
from sym.core.run import Run
from sym.core.words import count
from sym.repl.arguments import Args, Option, positional
from sym.repl.context import Context
from sym.repl.recall import LastProgram
from sym.repl.registry import command, exporter
from sym.repl.render import to_text
from sym.repl.results import Result

if TYPE_CHECKING:
    from sym.core.reason.math import MathResult
    from sym.core.reason.pot.check_memory import Consistency
    from sym.core.reason.pot.grounded import Assumed
    from sym.core.reason.pot.interpret import ProofReport
    from sym.core.reason.pot.vote import Vote

_MARK = {"proved": "✓", "refuted": "✗", "unknown": "?", "inconsistent": "!"}
MODEL_LINES = 12
# list bounds of the JSON schema a model writes /prove programs under: a grammar-constrained
# server (llama.cpp) expands maxItems into rules, and 100,000 items crashed it; files keep the
# schema's own bounds


@dataclass
class ProofResult(Result):
    kind: ClassVar[str] = "prove"
    report: ProofReport | None = None
    source: str = ""
    attempts: int = 1

    vote: Vote | None = None      # when several programs were sampled

    def to_dict(self) -> dict:
        out = {"source": self.source, "attempts": self.attempts, **self.report.to_dict()}
        if self.vote is not None:
            out["vote"] = self.vote.to_dict()
        return out


@dataclass
class Abstained(Result):
    """/prove QUESTION with no verified answer: the sampled programs' verdicts tied, or none ran.
    `fallback` is the model's own answer (unverified), when llm.fallback allows it."""

    kind: ClassVar[str] = "prove"
    question: str = ""
    vote: Vote | None = None      # None when one program was asked for
    problem: str = ""        # why no program ran (a single sample)
    fallback: str | None = None
    assumed: Assumed | None = None      # the one program's verdict rested on facts no premise states

    def to_dict(self) -> dict:
        out: dict = {"source": f"llm: {self.question}", "verdict": "unknown", "abstained": True}
        if self.vote is not None:
            out["vote"] = self.vote.to_dict()
        assumed = self.assumed or (self.vote.assumed() if self.vote is not None else None)
        if assumed is not None:
            out["unverified"] = {"assumed": assumed.facts, "with": assumed.before, "without": assumed.after}
        if self.problem:
            out["problem"] = self.problem
        if self.fallback is not None:
            out["fallback"] = {"answer": self.fallback, "verified": False}
        return out


@dataclass
class CheckResult(Result):
    kind: ClassVar[str] = "check"
    outcome: Consistency | None = None
    texts: dict = field(default_factory=dict)   # core id -> clause text

    def to_dict(self) -> dict:
        return self.outcome.to_dict()


@dataclass
class ProgramShown(Result):
    kind: ClassVar[str] = "program"
    source: str = ""
    program: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"source": self.source, "program": self.program}


@dataclass
class MathAnswer(Result):
    kind: ClassVar[str] = "math"
    answer: MathResult | None = None
    latex: bool = False

    def to_dict(self) -> dict:
        return self.answer.to_dict()


def _model_lines(model: dict, indent: str = "    ") -> list[str]:
    items = list(model.items())
    lines = [f"{indent}{k} = {v}" for k, v in items[:MODEL_LINES]]
    if len(items) > MODEL_LINES:
        lines.append(f"{indent}… {len(items) - MODEL_LINES} more (the Models pane has them all)")
    return lines


def _both_models(model: dict, counter: dict) -> list[str]:
    """A model (the claim holds) beside a counter-model (it fails): where they differ, side by
    side, and what they share once; two identical tables would hide what tells them apart."""
    if not model or not counter:
        return (["  model (holds):", *_model_lines(model)] if model else []) + \
            (["  counter-model (fails):", *_model_lines(counter)] if counter else [])
    keys = list(dict.fromkeys([*model, *counter]))
    differ = [k for k in keys if model.get(k, _NONE) != counter.get(k, _NONE)]
    shared = {k: model[k] for k in keys if k not in differ}
    lines = []
    if differ:
        rows = [(k, _shown(model.get(k, _NONE)), _shown(counter.get(k, _NONE))) for k in differ]
        name_w = max(len(k) for k, _, _ in rows)
        held_w = max(len("model (holds)"), *(len(h) for _, h, _ in rows))
        lines.append(f"    {'':<{name_w}}   {'model (holds)':<{held_w}}  counter-model (fails)")
        lines += [f"    {k:<{name_w}} = {h:<{held_w}}  {c}" for k, h, c in rows[:MODEL_LINES]]
        if len(rows) > MODEL_LINES:
            lines.append(f"    … {len(rows) - MODEL_LINES} more (the Models pane has them all)")
        lines.insert(0, f"  model and counter-model differ in {count(len(differ), 'value')}:")
    else:
        lines.append("  model and counter-model agree on every value shown; they differ only in values not listed")
    if shared:
        lines += [f"  the same in both ({count(len(shared), 'value')}):", *_model_lines(shared)]
    return lines


_NONE = object()


def _shown(value: object) -> str:
    return "(not in this model)" if value is _NONE else str(value)


def _verification_lines(v) -> list[str]:
    lines = [f"{_MARK.get(v.status, '?')} {v.status:<8} {v.name}"]
    if v.status == "refuted" and v.counter_model:
        lines += ["  counter-model:", *_model_lines(v.counter_model)]
    elif v.status == "proved" and v.model and any("(" not in k for k in v.model):
        witnesses = {k: x for k, x in v.model.items() if "(" not in k}
        lines += ["  model:", *_model_lines(witnesses)]
    elif v.status == "unknown":
        if v.reason:
            lines.append(f"  {v.reason}")
        lines += _both_models(v.model or {}, v.counter_model or {})
    return lines


def _optimization_lines(opt, where: str = "") -> list[str]:
    lines = [f"optimization{where}: {opt.status}"]
    lines += [f"  {o['type']} {o['expression']} = {o['optimum']}" for o in opt.objectives]
    if opt.model:
        lines += _model_lines(opt.model, "  ")
    return lines


def _script_lines(rep) -> list[str]:
    """An SMT-LIB script's report in the script's order: each check (a claim's verdict, or Z3's
    answer with the core of a clash), each optimization, and what the script printed."""
    from sym.core.reason.pot.interpret import VerificationResult

    events = [(c.get("line", 0), 0, c) for c in rep.checks] + [(o["line"], 1, o) for o in rep.output]
    lines = []
    for _line, is_output, e in sorted(events, key=lambda t: (t[0], t[1])):
        if is_output:
            text = e["text"].splitlines() or [""]
            lines += [f"  line {e['line']} ({e['command']}): {text[0]}", *(f"    {t}" for t in text[1:])]
            continue
        at = f"line {e.get('line', '?')}: {e.get('command', 'check-sat')}"
        timeout = " (timeout)" if e.get("timeout") else ""
        if e.get("kind") == "claim":
            v = e.get("verification") or {"name": e.get("name", ""), "status": "unknown",
                                          "reason": e.get("reason", "") + timeout}
            lines += _verification_lines(VerificationResult(v["name"], v["status"], v.get("model"),
                                                            v.get("counter_model"), v.get("reason", "")))
            if "core" in e:
                lines += ["  what is in force is inconsistent; unsat core:", *(f"    {x}" for x in e["core"])]
        elif "optimization" in e:
            from sym.core.reason.pot.interpret import OptimizationResult

            o = e["optimization"]
            lines += _optimization_lines(OptimizationResult(o["status"], o["objectives"], o.get("model")),
                                         f" ({at})")
        else:
            answer = {"sat": "consistent", "unsat": "inconsistent"}.get(e.get("answer", ""), "unknown")
            lines.append(f"{e.get('answer', 'unknown')}{timeout} ({answer}) at {at}")
            if e.get("answer") == "unknown" and e.get("reason") and not timeout:
                lines.append(f"  Z3: {e['reason']}")
            if "core" in e:
                lines += ["  unsat core:", *(f"    {x}" for x in e["core"])]
        if e.get("note"):
            lines.append(f"  {e['note']}")
    return lines or ["no check-sat in the script: nothing was asked"]


@to_text.register
def _(r: ProofResult) -> str:
    rep = r.report
    if hasattr(rep, "checks"):
        lines = _script_lines(rep)
    else:
        lines = []
        if rep.consistent is False:
            lines.append("the knowledge base is inconsistent; unsat core:")
            lines += [f"    {label}" for label in rep.core]
        for v in rep.verifications:
            lines += _verification_lines(v)
        if rep.optimization is not None:
            lines += _optimization_lines(rep.optimization)
        if not lines:
            lines.append("nothing to verify (the knowledge base is consistent)")
    if r.attempts > 1:
        lines.append(f"(program written in {r.attempts} attempts)")
    if r.vote is not None:
        lines.append(f"(vote: {r.vote.shown()})")
    return "\n".join(lines)


@to_text.register
def _(r: Abstained) -> str:
    from sym.core.reason.pot.vote import ALONE, DISAGREE

    assumed = r.assumed or (r.vote.assumed() if r.vote is not None else None)
    if assumed is not None:          # the proof rested on facts no premise states: never "✓ proved"
        lines = [assumed.shown()]
    elif r.vote is not None and r.vote.accepted:
        lines = [ALONE if len(r.vote.tally()) == 1 else DISAGREE]
    else:
        lines = ["unknown (no program the model wrote ran)"]
    if r.vote is not None:
        lines.append(f"  vote: {r.vote.shown()}")
    if r.problem and (assumed is None or r.problem != assumed.shown()):
        lines.append(f"  {r.problem}")
    if r.fallback is not None:
        lines.append(f"the model alone (unverified, nothing checked it): {r.fallback}")
    return "\n".join(lines)


@to_text.register
def _(r: CheckResult) -> str:
    o = r.outcome
    by = f"; Z3 read {o.sent} of them classically" if o.sent else ""
    if o.consistent:
        return f"consistent ({count(o.checked, 'item')}{by})"
    if o.consistent is None:
        return f"undecided: Z3 says {o.reason}"
    found = "by the engine" if o.method == "engine" else "by Z3"
    lines = [f"inconsistent: {count(len(o.core), 'item')} clash ({'a minimal core' if o.minimal else 'a core'}, found {found})"]
    if o.clash:
        lines.append(f"  {o.clash}")
    lines += [f"  {i}: {r.texts.get(i, '')}" for i in o.core]
    return "\n".join(lines)


@to_text.register
def _(r: ProgramShown) -> str:
    if set(r.program) == {"smt2"}:
        return f"; {r.source}\n" + r.program["smt2"]
    return f"% {r.source}\n" + json.dumps(r.program, indent=2)


@to_text.register
def _(r: MathAnswer) -> str:
    return r.answer.latex if r.latex else r.answer.text


# -- helpers ------------------------------------------------------------------------

def _remember(ctx: Context, run: Run, program, source: str) -> None:
    from sym.core.reason.pot.smt2_read import Smt2Program

    ctx.recall.program = LastProgram(program, source)
    text = program.text if isinstance(program, Smt2Program) else program.model_dump_json(indent=2, exclude_defaults=True)
    run.emit(ModelShown("program", source, text, program.model_dump(exclude_defaults=True)))


@exporter("smt2")
def export_smt2(ctx: Context) -> str:
    """The `smt2` exporter: the last program this shell proved."""
    from sym.core.reason.pot.smt2_read import Smt2Program
    from sym.core.reason.pot.smt2_write import to_smt2

    last = ctx.recall.program
    if last is None:
        raise UserError("no program to export yet", hint="/prove --file PROGRAM.json or /prove QUESTION first")
    if isinstance(last.program, Smt2Program):
        return last.program.text
    return to_smt2(last.program, last.source)


# -- /prove ---------------------------------------------------------------------------

@command("/prove", args="QUESTION", group="reason", leading=True,
         options=(Option("--file", metavar="PROGRAM", values="file",
                         help="check a program file instead: JSON, or SMT-LIB 2 (.smt2)"),
                  Option("--samples", int, metavar="K", low=1, high=20,
                         help="the model writes K programs; the answer is the vote of those that check "
                              "(default: llm.samples)")))
def prove(ctx: Context, args: Args, run: Run) -> Result:
    """Prove or refute claims with Z3, from a program file or a question.

    `--file F` checks a program: JSON (the Proof-of-Thought DSL) or an SMT-LIB 2 script, whose
    claims are `(check-sat-assuming (GOAL))` (or a `(check-sat)` in a push/pop scope). A QUESTION
    has the LLM write the program (up to proof.attempts tries, errors fed back; /set proof_format
    json|smt2 picks the language). Each verification comes out proved,
    refuted, unknown (model and counter-model) or inconsistent (unsat core). `--samples K` (or
    /set llm.samples K) draws K programs and answers by the vote of those that check; a tie
    or none that ran is "unknown (the model's programs disagree)", with the vote shown, and
    with /set llm.fallback on the model's own answer, labelled unverified."""
    if args.file is not None:
        if args.text:
            raise UserError("usage: /prove --file PROGRAM.json|PROGRAM.smt2")
        return _prove_file(ctx, run, args.file)
    if not args.text:
        raise UserError("nothing to prove", hint="/prove QUESTION or /prove --file PROGRAM.json")
    return _prove_question(ctx, run, args.text, args.samples or run.settings.llm_samples)


def _prove_file(ctx: Context, run: Run, name: str) -> Result:
    from sym.core.reason.pot.prove import prove_file

    program, report = prove_file(ctx.path(name), run)
    _remember(ctx, run, program, str(name))
    return ProofResult(report, str(name))


def _prove_question(ctx: Context, run: Run, question: str, samples: int) -> Result:
    """The model writes the program (core.reason.pot.prove and authoring: proof.attempts attempts, errors and
    model timeouts move on to the next one, a Z3 timeout ends it); with `samples` above 1 it writes
    that many (whole, or step by step: the formulas sampled) and their vote answers
    (core.reason.pot.vote)."""
    from sym.core.reason.pot.authoring import NoProgram
    from sym.core.reason.pot.prove import model_alone, prove_question, vote_question

    source = f"llm: {question}"
    if samples > 1:
        vote = vote_question(question, ctx.memory, run, samples)
        chosen = vote.chosen()
        if chosen is None:
            fallback = model_alone(question, ctx.memory, run) if run.settings.llm_fallback else None
            return Abstained(question, vote, fallback=fallback)
        _remember(ctx, run, chosen.program, source)
        return ProofResult(chosen.report, source, chosen.attempts, vote)
    try:
        written = prove_question(question, ctx.memory, run)
    except NoProgram as err:
        if not run.settings.llm_fallback:
            raise
        return Abstained(question, problem=err.message, fallback=model_alone(question, ctx.memory, run))
    _remember(ctx, run, written.program, source)
    assumed = getattr(written, "assumed", None)
    if assumed is not None and assumed.needed:     # the proof rested on facts no premise states
        fallback = model_alone(question, ctx.memory, run) if run.settings.llm_fallback else None
        return Abstained(question, problem=assumed.shown(), fallback=fallback, assumed=assumed)
    return ProofResult(written.report, source, written.attempts)


# -- /check, /program, /math ---------------------------------------------------------

@command("/check", group="reason")
def check(ctx: Context, arg: str, run: Run) -> Result:
    """Check the working memory for consistency (clashing items listed by id).

    The engine decides: integrity constraints and p / ~p clashes in the memory's model, the
    core traced through how each fact was derived, shrunk to a minimal one when small. Z3
    is asked only about rules with a ~ premise, read classically, that the model leaves open.
    Soft rules are left out."""
    from sym.core.reason.pot.check_memory import check_memory

    if arg.strip():
        raise UserError("/check takes no arguments")
    memory = ctx.memory.bound(run.stop)   # Esc, query_timeout and max_facts stop it
    outcome = check_memory(memory, stop=run.stop)
    texts = {i: ctx.memory.items[i].text for i in outcome.core if i in ctx.memory.items}
    _trace_check(ctx, run, outcome, texts)
    return CheckResult(outcome, texts)


def _trace_check(ctx: Context, run: Run, outcome, texts: dict) -> None:
    """The verdict in Trace, the core's items by their text in Trace and Models."""
    o = outcome
    by = "by Z3" if o.method == "z3" else "by the engine"
    label, status = (f"consistent: {count(o.checked, 'item')} checked {by}", "ok") if o.consistent else \
        (f"undecided: {count(o.checked, 'item')} checked {by}", "unknown") if o.consistent is None else \
        (f"inconsistent: {len(o.core)} of {o.checked} items clash (found {by})", "failed")
    run.trace("check", None, "check", label, o.clash or o.reason, status)
    entries = tuple(CoreEntry(i, texts.get(i, i)) for i in outcome.core)
    for e in entries:
        nl = ctx.memory.items[e.name].nl if e.name in ctx.memory.items else ""
        run.trace(f"core.{e.name}", "check", "check.core", f"{e.text}  · {e.name}", nl, "clash")
    if outcome.consistent is False:
        title = "memory: unsat core" if outcome.method == "z3" else "memory: clashing items"
        run.emit(ModelShown("z3.core", f"{title} ({len(entries)})", "\n".join(f"{e.text}  ({e.name})" for e in entries),
                            entries))
    elif outcome.consistent:      # an earlier core of the memory no longer holds
        run.emit(ModelShown("z3.core", "memory: consistent", f"no clash among {count(outcome.checked, 'item')}", ()))


@command("/program", group="reason")
def program_cmd(ctx: Context, arg: str, run: Run) -> Result:
    """Show the last program /prove checked (JSON, or the SMT-LIB script)."""
    last = ctx.recall.program
    if last is None:
        raise UserError("no program yet", hint="/prove --file PROGRAM.json or /prove QUESTION")
    return ProgramShown(last.source, last.program.model_dump(exclude_defaults=True))


_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]*)?")
_GREEK = frozenset("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron rho sigma "
                   "tau upsilon phi chi psi omega".split())


def english(text: str) -> bool:
    """Whether /math's argument reads as English: an apostrophe in a word ("Wearstler's"), or two
    words of three letters or more side by side that are neither operations, functions nor
    constants (implicit multiplication would read "design styles" as design*styles)."""
    known = {*OPERATIONS, *FUNCTIONS, *CONSTANTS, *_GREEK, "wrt"}
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
    if any("'" in w for w, _, _ in words):
        return True
    plain = [(w, a, b) for w, a, b in words if len(w) >= 3 and w not in known]
    return any(b1 <= a2 and not text[b1:a2].strip() for (_, _, b1), (_, a2, _) in zip(plain, plain[1:]))


def _operations() -> tuple[str, ...]:
    return OPERATIONS


@command("/math", args="simplify|factor|expand|solve|diff|integrate|collect EXPR [wrt VAR]", group="reason",
         completer=positional(lambda ctx, prefix: list(_operations())),
         options=(Option("--latex", bool, help="print the answer as LaTeX"),))
def math_cmd(ctx: Context, args: Args, run: Run) -> Result:
    """Algebra with SymPy: simplify, factor, expand, solve, diff, integrate, collect.

    `/math factor x**2 - 1`, `/math solve x**2 = 4`, `/math diff sin(x) wrt x --latex`.
    Only arithmetic and whitelisted functions are read; --latex prints LaTeX."""
    text, latex = args.text, args.latex
    op, _, expr = text.partition(" ")
    if not op:
        raise UserError("usage: /math OPERATION EXPR", hint="operations: " + ", ".join(OPERATIONS))
    if english(text):       # "All of Kelly Wearstler's design styles are dreamy" is not a product of symbols
        raise UserError("/math takes a math expression, not an English sentence",
                        hint="/tell it as a statement, or /prove it as a claim; /math factor x**2 - 1")
    answer = compute(op, expr, stop=run.stop, memory_mb=run.settings.math_memory)
    # (a worker process, stopped at the limits or at once on Esc / Ctrl+C)
    return MathAnswer(answer, latex)
