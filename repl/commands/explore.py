"""explore commands: /explore (AND/OR exploration into a Horn program) and /prompters.

The last exploration of a memory is kept so `/explore show`, `/explore add` and the
`explore-prolog`, `explore-problog` and `explore-dot` exporters of `/export` can reach it.
"""

from __future__ import annotations

import shlex
import weakref
from dataclasses import dataclass
from typing import ClassVar

from core.errors import UserError
from core.events import ModelShown, Warning
from core.reason.explore import MAX_DEPTH, Exploration, Recursor, memory_search, to_dot, to_problog, to_prolog
from core.reason.explore.program import CONSTRAINT, FAIL, quote
from repl.context import Context
from repl.registry import command
from repl.render import to_text
from repl.results import Added, Result, Table

REFINERS = ("truth", "oracle", "rater")
SHOW = ("program", "model", "tree")
USAGE = "/explore TOPIC [--prompter P] [--depth N] [--refine truth|oracle|rater] [--threshold X] [--k N] [--add]"

# The last exploration per working memory (exporters are handed the memory, not the context).
_last: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def last_exploration(memory) -> Exploration:
    found = _last.get(memory)
    if found is None:
        raise UserError("nothing explored yet in this memory", hint="/explore TOPIC first")
    return found


def install_exporters(registry) -> None:
    """`/export explore-prolog|explore-problog|explore-dot [FILE]` for the last exploration."""
    ex = registry.exporters
    ex.setdefault("explore-prolog", lambda memory: to_prolog(last_exploration(memory).program,
                                                             topic=last_exploration(memory).topic))
    ex.setdefault("explore-problog", lambda memory: to_problog(last_exploration(memory).program,
                                                               top=last_exploration(memory).top))
    ex.setdefault("explore-dot", lambda memory: _dot(last_exploration(memory)))


def _dot(e: Exploration) -> str:
    return to_dot(e.nodes, model=e.model.model, title=f"{e.topic} ({e.prompter}, depth {e.depth})")


# -- results ------------------------------------------------------------------------------

@dataclass
class Explored(Result):
    kind: ClassVar[str] = "explore"
    exploration: Exploration
    added: int = 0                  # items put into memory by --add
    already: int = 0                # clauses memory already held

    def to_dict(self) -> dict:
        e = self.exploration
        out = {"topic": e.topic, "top": e.top, "prompter": e.prompter, "depth": e.depth, "refine": e.refine,
               "status": e.status, "top_holds": e.top_holds,
               "program": [c.text() for c in e.program.clauses], "model": sorted(e.model.model),
               "violated": [str(c) for c in e.model.violated], "nodes": len({n.id for n in e.nodes}),
               "stats": dict(e.stats)}
        if self.added or self.already:
            out["added"], out["already_known"] = self.added, self.already
        return out


@dataclass
class ExploreShown(Result):
    """One part of the last exploration: its program, model or tree."""

    kind: ClassVar[str] = "explore.show"
    what: str
    text: str

    def to_dict(self) -> dict:
        return {"show": self.what, "text": self.text}


def _n(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@to_text.register
def _(r: Explored) -> str:
    e, s = r.exploration, r.exploration.stats
    refined = f", leaves refined by {e.refine}" if e.refine else ""
    lines = [f'explored "{e.topic}" with {e.prompter}, depth {e.depth}{refined}']
    tree = [_n(len({n.id for n in e.nodes}), "node")]
    tree += [_n(s[k], k.rstrip("s")) for k in ("loops", "seen") if s[k]]
    tree += [_n(s[k], k[:-1]) for k in ("repeated items", "ignored lines", "merged clauses") if s[k]]
    lines.append("tree: " + ", ".join(tree))
    calls = s["llm calls"]
    lines.append(f"model calls: {calls} ({s['cached']} from the cache)")
    if e.refine:
        judged = f"leaves: {s['kept']} kept, {s['rejected']} rejected"
        extra = [f"{s[k]} {k}" for k in ("unreadable answers", "clamped answers") if s[k]]
        lines.append(judged + (f" ({', '.join(extra)})" if extra else ""))
    lines.append(f"program: {_n(len(e.program), 'clause')}; model: {_n(len(e.model.model), 'atom')}; "
                 f"top goal: {e.status}")
    if not e.model.model:
        why = (f"every leaf was rejected by the {e.refine} refiner" if e.refine and not s["kept"]
               else "nothing was established")
        lines.append(f"the model is empty: {why}")
    for c in e.model.violated[:5]:
        lines.append(f"violated: {c}")
    if r.added or r.already:
        lines.append(f"added {_n(r.added, 'clause')} to memory" + (f" ({r.already} already there)" if r.already else ""))
    lines.append("more: /explore show program|model|tree · /export explore-prolog|explore-problog|explore-dot [FILE]")
    return "\n".join(lines)


@to_text.register
def _(r: ExploreShown) -> str:
    return r.text


# -- /explore ------------------------------------------------------------------------------

@dataclass
class _Options:
    topic: str
    prompter: str = "causal"
    depth: int = 2
    refine: str | None = None
    threshold: float = 0.5
    k: int = 3
    add: bool = False


def _number(flag: str, raw: str, kind, low, high):
    try:
        value = kind(raw)
    except ValueError:
        raise UserError(f"{flag} wants a number, not {raw!r}", hint=USAGE) from None
    if not low <= value <= high:
        raise UserError(f"{flag} must be from {low} to {high}, not {raw}")
    return value


def parse_options(arg: str) -> _Options:
    try:
        words = shlex.split(arg)
    except ValueError as err:
        raise UserError(f"cannot read the arguments: {err}", hint=USAGE) from None
    opts, topic, i = _Options(""), [], 0
    while i < len(words):
        word = words[i]
        flag, eq, inline = word.partition("=") if word.startswith("--") else (word, "", "")
        if flag == "--add":
            opts.add, i = True, i + 1
            continue
        if flag in ("--prompter", "--depth", "--refine", "--threshold", "--k"):
            if eq:
                value, i = inline, i + 1
            elif i + 1 < len(words):
                value, i = words[i + 1], i + 2
            else:
                raise UserError(f"{flag} needs a value", hint=USAGE)
            if flag == "--prompter":
                opts.prompter = value
            elif flag == "--depth":
                opts.depth = _number(flag, value, int, 1, MAX_DEPTH)
            elif flag == "--refine":
                if value not in REFINERS:
                    raise UserError(f"unknown refiner {value!r}", hint="--refine truth|oracle|rater")
                opts.refine = value
            elif flag == "--threshold":
                opts.threshold = _number(flag, value, float, 0.0, 1.0)
            else:
                opts.k = _number(flag, value, int, 1, 50)
            continue
        if word.startswith("--"):
            raise UserError(f"unknown option {word}", hint=USAGE)
        topic.append(word)
        i += 1
    opts.topic = " ".join(topic).strip()
    if not opts.topic:
        raise UserError("what should be explored?", hint=USAGE)
    return opts


def _truth_search(ctx: Context):
    m = ctx.memory
    store = m.store
    empty = not m.items if store is None else not any(store.filled(k) for k in ("facts", "rules", "docs"))
    if empty:
        raise UserError("the truth refiner compares leaves with the working memory, which is empty",
                        hint="/load a document or add facts first, or use --refine oracle")
    return memory_search(m)


def _add_to_memory(ctx: Context, e: Exploration):
    """The program as propositional facts, rules and constraints (failing clauses add nothing)."""
    from core.logic.terms import Atom, Rule

    source = f"explore:{e.run}"
    clauses = []
    for c in e.program.clauses:
        if c.kind == FAIL:
            continue
        body = tuple(Atom(b) for b in c.body)
        if c.kind == CONSTRAINT:
            clauses.append((Rule(None, body), source))
        elif body:
            clauses.append((Rule(Atom(c.head), body), source))
        else:
            clauses.append((Atom(c.head), source))
    return ctx.memory.add(clauses, merge="off")


def _show(ctx: Context, what: str) -> ExploreShown:
    e = last_exploration(ctx.memory)
    if what == "program":
        return ExploreShown(what, e.program.text() or "(empty program)")
    if what == "model":
        atoms = sorted(e.model.model)
        text = "\n".join(quote(a) for a in atoms) if atoms else "(empty model)"
        return ExploreShown(what, text + f"\n% top goal: {e.status}")
    latest: dict[str, object] = {}
    for n in e.nodes:
        latest[n.id] = n
    children: dict[str | None, list] = {}
    for n in latest.values():
        children.setdefault(n.parent, []).append(n)
    mark = {"explore.and": "AND", "explore.or": "OR ", "explore.leaf": "+  ", "explore.rejected": "-  "}
    lines: list[str] = []

    def walk(parent, indent):
        for n in children.get(parent, []):
            extra = f"  ({n.status})" if n.status in ("loop", "seen", "rejected", "unanswered") else ""
            lines.append(f"{'  ' * indent}{mark.get(n.kind, '   ')} {n.label}{extra}")
            walk(n.id, indent + 1)
    walk(None, 0)
    return ExploreShown(what, "\n".join(lines))


@command("/explore", args=USAGE.removeprefix("/explore "),
         group="reason", completer=lambda ctx, text: [w for w in ("add", "show", *(f"show {s}" for s in SHOW),
                                                                    "--prompter", "--depth", "--refine",
                                                                    "--threshold", "--k", "--add")
                                                      if w.startswith(text)])
def explore(ctx: Context, arg: str) -> Result:
    """Explore TOPIC recursively with the model into a Horn program and its minimal model.

    The model proposes alternatives (OR) and their sub-goals (AND) to --depth N (default 2); leaves can be refined by memory similarity (truth), an oracle or a rater.
    Streams the tree, builds a propositional Horn program and its minimal model.
    --threshold X (0..1, default 0.5) is the least similarity (truth) or probability (rater) a leaf
    needs; --k N (default 3) is how many memory items the truth refiner compares a leaf with;
    --add puts the program into memory. /explore show program|model|tree shows the last one; /explore add puts it into memory;
    /export explore-prolog|explore-problog|explore-dot [FILE] exports it."""
    install_exporters(ctx.registry)
    words = arg.split()
    if words == ["add"]:
        outcome = _add_to_memory(ctx, last_exploration(ctx.memory))
        return Added(outcome.items, outcome.duplicates)
    if words and words[0] == "show" and (len(words) == 1 or (len(words) == 2 and words[1] in SHOW)):
        return _show(ctx, words[1] if len(words) == 2 else "tree")
    if len(words) == 2 and words[0] == "show":  # a typo such as `show modle` is no topic to explore
        raise UserError(f"cannot show {words[1]!r}", hint="/explore show program|model|tree")
    opts = parse_options(arg)
    from core.reason.policy import run_hints

    hints = run_hints(ctx)      # a steering policy may pick the prompter (an explicit --prompter wins)
    if "--prompter" not in arg.split() and isinstance(hints.get("prompter"), str):
        opts.prompter = hints["prompter"]
    from plugins.prompters import available

    packs, problems = available(ctx)
    for problem in problems:
        ctx.emit(Warning(problem))
    entry = packs.get(opts.prompter)
    if entry is None:
        raise UserError(f"unknown prompter {opts.prompter!r}", hint="prompters: " + ", ".join(sorted(packs)))
    search = _truth_search(ctx) if opts.refine == "truth" else None
    recursor = Recursor(opts.topic, entry.pack.prompter(), ctx.llm, depth=opts.depth, refine=opts.refine,
                        threshold=opts.threshold, k=opts.k, search=search, emit=ctx.emit, cancel=ctx.cancel,
                        run=ctx.new_run("explore"))
    e = recursor.explore()
    _last[ctx.memory] = e
    ctx.emit(ModelShown("program", f"explore: {e.topic}", e.program.text(),
                        [{"head": c.head, "body": list(c.body), "kind": c.kind, "prob": c.prob}
                         for c in e.program.clauses]))
    ctx.emit(ModelShown("horn.model", f"model of: {e.topic} ({e.status})",
                        "\n".join(sorted(e.model.model)) or "(empty model)",
                        {"model": sorted(e.model.model), "top": e.top, "status": e.status,
                         "violated": [str(c) for c in e.model.violated]}))
    if opts.add:
        outcome = _add_to_memory(ctx, e)
        return Explored(e, len(outcome.items), outcome.duplicates)
    return Explored(e)


@command("/prompters", group="reason")
def prompters(ctx: Context, arg: str) -> Table:
    """List the prompter packs /explore can use, with where each came from.

    Packs are built in, from plugins, or <workspace dir>/prompters/*.toml; packs that cannot be
    used are listed as problems."""
    from plugins.prompters import available, workspace_packs_dir

    packs, problems = available(ctx)
    for problem in problems:
        ctx.emit(Warning(problem))
    rows = []
    for name in sorted(packs):
        entry = packs[name]
        refiners = [r for r in ("oracle", "rater", "constraint") if getattr(entry.pack.prompts, r)]
        note = entry.origin + (f" (overrides {entry.overrides})" if entry.overrides else "")
        if entry.path and entry.origin != "built-in":
            note += f": {entry.path}"
        if refiners:
            note += f"; own {'/'.join(refiners)} prompt" + ("s" if len(refiners) > 1 else "")
        rows.append((name, entry.pack.description, note))
    rows += [("(problem)", p, "") for p in problems]
    ws = workspace_packs_dir(ctx)
    title = "prompter packs" + (f" (add your own in {ws})" if ws is not None else "")
    return Table(title, rows)
