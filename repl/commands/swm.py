"""Natural-language commands: /tell, /ask and chat (the SWM reasoner in core/reason/swm)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import ClassVar

from sym.core.errors import Cancelled, UserError
from sym.core.files import read_text_file
from sym.core.llm import LLMError
from sym.core.memory.documents import read_document
from sym.core.reason import clashes
from sym.core.reason.docs_answer import NO_MODEL
from sym.core.reason.swm.outcomes import AskOutcome, TellIncomplete
from sym.core.run import Run
from sym.repl.arguments import Args, Option
from sym.repl.context import Context
from sym.repl.documents import ask_documents, has_documents
from sym.repl.registry import command
from sym.repl.render import to_text
from sym.repl.results import Failure, Result


@dataclass
class TellResult(Result):
    kind: ClassVar[str] = "told"
    sentences: list = field(default_factory=list)      # sym.core.reason.swm.outcomes.Told
    llm_calls: int = 0
    warnings: list[str] = field(default_factory=list)  # what the new items made inconsistent

    def to_dict(self) -> dict:
        return {"sentences": [s.to_dict() for s in self.sentences], "llm_calls": self.llm_calls,
                **({"warnings": self.warnings} if self.warnings else {})}


@dataclass
class TellFailure(Failure):
    """A /tell that stored nothing because some sentence could not be read: a failed command
    (exit 1 in batch, or 3 when no model answers) that still says what became of each sentence."""

    kind: ClassVar[str] = "error"
    sentences: list = field(default_factory=list)      # sym.core.reason.swm.outcomes.Told
    llm_calls: int = 0
    note: str = ""                                     # what a model could have done (tell.model rewrite)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "sentences": [s.to_dict() for s in self.sentences], "llm_calls": self.llm_calls,
                **({"note": self.note} if self.note else {})}


@dataclass
class Asked(Result):
    kind: ClassVar[str] = "asked"
    outcome: AskOutcome | None = None

    def to_dict(self) -> dict:
        return self.outcome.to_dict()

    @property
    def verified(self) -> bool:      # read by policy scoring
        return bool(self.outcome.verified and self.outcome.answer)

    @property
    def status(self) -> str:
        answer = self.outcome.answer
        if not self.outcome.verified:
            return "unverified"
        return answer if answer in ("true", "false", "unknown", "inconsistent") else ("solved" if answer else "unknown")


_PATHS = {"fast": "fast path", "llm": "LLM", "soft": "LLM, soft rule", "state": "state change", "none": "—",
          "rewrite": "the model's rewrite, read by the grammar"}


@to_text.register
def _(r: TellFailure) -> str:
    lines = [f"error: {r.message}" + (f" — {r.hint}" if r.hint else "")]
    lines += [f"  ✗ {s.sentence}  ({s.problem})" for s in r.sentences if s.problem]
    lines += [f"  note: {r.note}"] if r.note else []
    return "\n".join(lines)


@to_text.register
def _(r: TellResult) -> str:
    lines = []
    for s in r.sentences:
        where = _PATHS.get(s.path, s.path)
        if s.problem:
            lines.append(f"✗ {s.sentence}  ({s.problem})")
            continue
        lines.append(f"{s.sentence}  →  {s.rewrite}  [{where}]" if s.rewrite else f"{s.sentence}  [{where}]")
        if s.read_as:
            lines.append(f"  read as: {s.read_as}")
        lines += [f"  - removed {it.id}: {it.text}" for it in s.removed]
        lines += [f"  + {it.kind} {it.id}: {it.text}" for it in s.items]
        if s.duplicates:
            lines.append(f"  = {s.duplicates} already known")
        if s.warning:
            lines.append(f"  warning: {s.warning}")
        if s.vote:
            lines.append(f"  vote: {s.vote}")
    lines += [f"warning: {w}" for w in r.warnings]
    if r.llm_calls:
        lines.append(f"({r.llm_calls} LLM call{'s' if r.llm_calls != 1 else ''})")
    return "\n".join(lines)


@to_text.register
def _(r: Asked) -> str:
    o = r.outcome
    answer = o.answer or ("unknown" if o.kind == "truth" else "no answer found")
    if not o.verified:
        lines = [answer, "(unverified: the model's answer, not derived from memory"
                 + (f"; memory alone: {o.settle})" if o.settle else ")")]
    else:
        lines = [f"{answer} — {o.settle}" if o.settle else answer]
    if o.derivations:
        for side, steps in o.derivations:
            lines.append(f"{side}:")
            lines += [f"  {n}. {s}" for n, s in enumerate(steps, start=1)]
        lines.append("clashing items:")
        lines += [f"  {it['id']}  {it['text']}" + (f"  ({it['nl']})" if it["nl"] else "") for it in o.clash]
    elif o.steps:
        lines.append("because:")
        lines += [f"  {n}. {s}" for n, s in enumerate(o.steps, start=1)]
    extra = [f"goal {o.goal}", f"{o.rounds} soft-rule step{'s' if o.rounds != 1 else ''}" if o.rounds else "",
             f"{o.llm_calls} LLM call{'s' if o.llm_calls != 1 else ''}" if o.llm_calls else "",
             "mode paper" if o.mode == "paper" else "", o.note]
    lines.append("(" + ", ".join(e for e in extra if e) + ")")
    return "\n".join(lines)


def reasoner(ctx: Context, run: Run):
    from sym.core.reason.swm.reasoner import SWM

    return SWM(ctx.memory, run, merge=run.settings.schema_merge)


def _statements(text: str) -> str:
    """A document's text without Markdown headings (titles are not statements)."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _unchunked(chunks) -> str:
    """A loaded document's text from its chunks in order, each overlap kept once (a sentence
    told twice, or a fragment where a chunk began, would be read as a sentence of its own)."""
    parts, covered = [], 0
    for r in chunks:
        start = int(r.meta.get("start", covered))
        if start >= covered:
            parts.append(("\n" if parts else "") + r.text)
        else:
            parts.append(r.text[covered - start:])
        covered = max(covered, int(r.meta.get("end", start + len(r.text))))
    return "".join(parts)


def _tell_source(ctx: Context, ref: str, max_mb: float) -> tuple[str, str]:
    """(text, source label) for /tell --from FILE|DOC."""
    path = ctx.path(ref)
    if os.path.lexists(path):    # a name on disk is read as a file: a FIFO, /dev/zero or huge file is refused
        if path.suffix.lower() == ".pdf":
            return _statements(read_document(path, max_mb)), path.name
        return _statements(read_text_file(path, max_mb)), path.name
    store = ctx.memory.store
    if store is not None:
        chunks = sorted((r for r in store.all("docs") if ref in (r.meta.get("doc_id"), r.meta.get("name"))),
                        key=lambda r: r.meta.get("index", 0))
        if chunks:
            return _statements(_unchunked(chunks)), str(chunks[0].meta.get("name", ref))
    raise UserError(f"no file or loaded document {ref!r}", hint="/docs lists loaded documents")


TELL_OPTIONS = (
    Option("--partial", bool, help="store the sentences that were read even if some were not"),
    Option("--from", metavar="FILE|DOC", words=True, values="file", help="read a file or a loaded document"),
)


@command("/tell", args="TEXT", options=TELL_OPTIONS, leading=True, group="llm")
def tell(ctx: Context, args: Args, run: Run) -> TellResult | TellFailure:
    """Add natural-language statements as facts and rules (templated sentences without the LLM).

    Templated sentences ("Bob is big.", "If something is big then it is red.") become facts and
    rules directly; the rest go to the LLM, which picks predicates and names from lists. Each
    added item is shown with its sentence and the path it took; --from reads a file or a loaded
    document. If a sentence cannot be read (or needs a model and none answers) nothing is
    stored and the command fails, naming it; --partial stores the sentences that were read."""
    text, source, partial = args.text, "tell", args.partial
    if args["from"] is not None:     # the name runs to the end of the line: it may hold spaces
        text, name = _tell_source(ctx, args["from"], run.settings.max_file_mb)
        source = f"tell:{name}"
    if not text:
        raise UserError("nothing to tell", hint="/tell Bob is big. If something is big then it is red.")
    from sym.repl.commands.logic import clash_warnings

    swm = reasoner(ctx, run)
    earlier = clashes.before(ctx.memory.bound(run.stop), run.settings.max_steps)
    try:
        with ctx.memory.unit():       # everything one /tell stores: one transaction (a crash keeps none of it)
            sentences = swm.tell(text, source=source, partial=partial, approver=ctx.approver)
    except TellIncomplete as err:
        return TellFailure(err.message, err.hint, err.exit_code, err.told, swm.llm_calls, err.note)
    added = [it for s in sentences for it in s.items]
    return TellResult(sentences, swm.llm_calls, clash_warnings(ctx, run, earlier, added))


ASK_OPTIONS = (
    Option("--mode", choices=("hybrid", "paper"), help="paper: the LLM implements every rule (SWM as published)"),
    Option("--max-steps", int, metavar="N", low=0, help="bound the rounds (default: /set max_steps)"),
    Option("--no-fallback", bool, help="no unverified LLM answer when memory cannot decide"),
    Option("--closed", bool, help="what is not derivable is false (this question only)"),
    Option("--open", bool, help="what is not derivable is unknown (this question only)"),
    Option("--docs", bool, help="answer from the loaded documents, citing their passages (unverified)"),
)


_CLAIM = re.compile(r"\s*is it (?:true|the case|so) that\s+(.+?)[\s?.!]*", re.I | re.S)


def as_claim(question: str) -> str:
    """"Is it true that Rock is a turtle?" asks the statement itself: "Rock is a turtle." (which
    /ask reads as a yes/no claim)."""
    m = _CLAIM.fullmatch(question)
    if m is None or not m.group(1).strip():
        return question
    claim = m.group(1).strip()
    return claim[0].upper() + claim[1:] + "."


def no_model(err: UserError, run: Run) -> bool:
    """Whether `err` says no model answers (none configured, none reachable, none pulled, …), not
    that one answered and the question failed, nor that the user stopped the run."""
    if isinstance(err, LLMError):
        return err.reason in NO_MODEL
    return not run.has_model and not isinstance(err, Cancelled)


@command("/ask", args="QUESTION", options=ASK_OPTIONS, group="llm")
def ask(ctx: Context, args: Args, run: Run) -> Result:
    """Answer a question from memory: true/false/unknown/inconsistent or the values, with the steps that justify them.

    Formal rules run symbolically, soft rules through the LLM; an undecided question gets the
    model's answer, labelled unverified. What is not derivable is unknown (open world), and the
    answer says what would settle it; memory that derives both p and ~p answers inconsistent,
    with both derivations and the items they come from.

    --mode paper has the LLM implement every rule (SWM as published); --max-steps N bounds the
    rounds; --no-fallback gives no unverified LLM answer when memory cannot decide. --closed
    reads what is not derivable as false (and "not p" as true when p is not derivable), --open
    as unknown, for one question; `/set world closed|open` for every question. --docs answers from
    the loaded documents instead: the passages that match, and a model's answer citing them. With
    documents loaded, a question memory leaves unknown goes to them before the model's guess: an
    answer citing passages, verified only when the facts read from them let memory prove it."""
    question = as_claim(" ".join(args.words))
    if args.closed and args.open:
        raise UserError("give --closed or --open, not both")
    opts = {"mode": args.mode, "fallback": not args.no_fallback,
            "open_world": True if args.open else False if args.closed else None}
    if not question:
        raise UserError("ask what?", hint="/ask Charlie is furry.  or  /ask How is Jay related to Bob?")
    if args.docs:      # from the documents' passages, cited (repl/documents.py, core/reason/docs_answer.py)
        if args.given - {"docs"}:
            raise UserError("--docs answers from the documents: the other /ask options do not apply")
        return ask_documents(ctx, question, run)
    hinted = str(run.hints.get("mode") or "hybrid")      # a steering policy may pick the mode
    opts["mode"] = opts["mode"] or (hinted if hinted in ("hybrid", "paper") else "hybrid")
    swm = reasoner(ctx, run)
    if opts["open_world"] is None:      # /set world decides; auto (the default) is open for /ask
        opts["open_world"] = run.settings.world != "closed"
    max_steps = run.settings.max_steps if args.max_steps is None else args.max_steps
    to_documents = opts["fallback"] and has_documents(ctx)      # they come before the model's guess
    try:
        outcome = swm.ask(question, max_steps=max_steps, **(opts | {"fallback": opts["fallback"] and not to_documents}))
    except UserError as err:    # no model to read the question with: the documents' passages, cited, as README says
        if not to_documents or not no_model(err, run):
            raise
        return ask_documents(ctx, question, run, unanswered=err)
    if to_documents and outcome.verified and outcome.answer in ("", "unknown"):
        return ask_documents(ctx, question, run, memory=outcome)     # passages, cited (repl/documents.py)
    return Asked(outcome)


@command("/chat", args="TEXT", group="llm")
def chat(ctx: Context, arg: str, run: Run) -> Result:
    """Talk to sym (also: type a sentence without a slash): the model runs sym's commands as tools.

    Statements go to /tell (after your y/n: `/set agent.approve auto|ask|refuse`), questions to
    /ask, algebra to /math, claims to /prove; each call is shown with its result, and the
    model's own words are marked unverified. `/set agent.style tools|route|auto|plain` picks how
    the model calls commands (route: it picks from a menu — for small models; plain: no
    commands); `/set agent.max_steps N` bounds a turn. With no model server, what the grammar
    reads is told and asked offline."""
    from sym.repl.agent.loop import converse

    text = arg.strip()
    if not text:
        raise UserError("say something", hint="e.g. Penguins are birds. Is Tweety a bird?")
    return converse(ctx, text, run)
