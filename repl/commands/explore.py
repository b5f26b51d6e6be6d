"""explore commands: /explore (AND/OR exploration into a Horn program) and /prompters.

The shell's last exploration (`ctx.recall.exploration`) is what `/explore show`, `/explore add` and
the `explore-prolog`, `explore-problog` and `explore-dot` exporters of `/export` reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from sym.core.errors import UserError
from sym.core.events import ModelShown, Warning
from sym.core.reason.explore import MAX_DEPTH, Exploration, Recursor, memory_search, to_dot, to_problog, to_prolog
from sym.core.reason.explore.program import quote
from sym.core.reason.explore.store import add_exploration
from sym.core.run import Run
from sym.repl.arguments import Args, Option, parse
from sym.repl.context import Context
from sym.repl.registry import command, exporter
from sym.repl.render import to_text
from sym.repl.results import Added, Result, Table

REFINERS = ("truth", "oracle", "rater")
SHOW = ("program", "model", "tree")
USAGE = "/explore TOPIC [--prompter P] [--depth N] [--refine truth|oracle|rater] [--threshold X] [--k N] [--add]"

def last_exploration(ctx: Context) -> Exploration:
    found = ctx.recall.exploration
    if found is None:
        raise UserError("nothing explored yet in this memory", hint="/explore TOPIC first")
    return found


# `/export explore-prolog|explore-problog|explore-dot [FILE]`: the last exploration
exporter("explore-prolog")(lambda ctx: to_prolog(last_exploration(ctx).program, topic=last_exploration(ctx).topic))
exporter("explore-problog")(lambda ctx: to_problog(last_exploration(ctx).program, top=last_exploration(ctx).top))
exporter("explore-dot")(lambda ctx: _dot(last_exploration(ctx)))


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


def _prompter_names(ctx, prefix: str) -> list[str]:
    from sym.plugins.prompters import available

    return sorted(available(ctx)[0])


OPTIONS = (
    Option("--prompter", metavar="P", values=_prompter_names, help="the prompter pack (/prompters; default causal)"),
    Option("--depth", int, metavar="N", low=1, high=MAX_DEPTH, default=2, help="levels of AND/OR expansion (default 2)"),
    Option("--refine", choices=REFINERS, noun="refiner", help="judge the leaves: memory similarity, oracle or rater"),
    Option("--threshold", float, metavar="X", low=0.0, high=1.0, default=0.5,
           help="least similarity or probability a leaf needs (default 0.5)"),
    Option("--k", int, metavar="N", low=1, high=50, default=3,
           help="memory items the truth refiner compares a leaf with (default 3)"),
    Option("--add", bool, help="put the program into memory"),
)


def _explore_options(args: Args) -> _Options:
    topic = " ".join(args.words).strip()
    if not topic:
        raise UserError("what should be explored?", hint=USAGE)
    return _Options(topic, args.prompter or "causal", args.depth, args.refine, args.threshold, args.k, args.add)


def parse_options(arg: str) -> _Options:
    return _explore_options(parse(OPTIONS, arg, usage=USAGE))


def _complete(ctx, text: str) -> list[str]:
    """`add` and `show`, then what `show` shows (the options complete themselves)."""
    words = text.split()
    if len(words) <= 1 and not text[-1:].isspace():
        return [w for w in ("add", "show") if w.startswith(text.strip())]
    if words[0] == "show" and len(words) <= 2:
        last = words[1] if len(words) == 2 and not text[-1:].isspace() else ""
        return [w for w in SHOW if w.startswith(last)] if len(words) == 1 or last else []
    return []


def _truth_search(ctx: Context):
    m = ctx.memory
    store = m.store
    empty = not m.items if store is None else not any(store.filled(k) for k in ("facts", "rules", "docs"))
    if empty:
        raise UserError("the truth refiner compares leaves with the working memory, which is empty",
                        hint="/load a document or add facts first, or use --refine oracle")
    return memory_search(m)


def _show(ctx: Context, what: str) -> ExploreShown:
    e = last_exploration(ctx)
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


@command("/explore", args="TOPIC", options=OPTIONS, group="reason", completer=_complete)
def explore(ctx: Context, args: Args, run: Run) -> Result:
    """Explore TOPIC recursively with the model into a Horn program and its minimal model.

    The model proposes alternatives (OR) and their sub-goals (AND) to --depth N (default 2); leaves can be refined by memory similarity (truth), an oracle or a rater.
    Streams the tree, builds a propositional Horn program and its minimal model.
    --threshold X (0..1, default 0.5) is the least similarity (truth) or probability (rater) a leaf
    needs; --k N (default 3) is how many memory items the truth refiner compares a leaf with;
    --add puts the program into memory. /explore show program|model|tree shows the last one; /explore add puts it into memory;
    /export explore-prolog|explore-problog|explore-dot [FILE] exports it."""  # noqa: E501  (help text, shown as written)
    words = list(args.words) if not args.given else []
    if words == ["add"]:
        outcome = add_exploration(ctx.memory, last_exploration(ctx))
        return Added(outcome.items, outcome.duplicates)
    if words and words[0] == "show" and (len(words) == 1 or (len(words) == 2 and words[1] in SHOW)):
        return _show(ctx, words[1] if len(words) == 2 else "tree")
    if len(words) == 2 and words[0] == "show":  # a typo such as `show modle` is no topic to explore
        raise UserError(f"cannot show {words[1]!r}", hint="/explore show program|model|tree")
    opts = _explore_options(args)
    hinted = run.hints.get("prompter")   # a steering policy may pick the prompter (an explicit --prompter wins)
    if "prompter" not in args.given and isinstance(hinted, str):
        opts.prompter = hinted
    from sym.plugins.prompters import available

    packs, problems = available(ctx)
    for problem in problems:
        run.emit(Warning(problem))
    entry = packs.get(opts.prompter)
    if entry is None:
        raise UserError(f"unknown prompter {opts.prompter!r}", hint="prompters: " + ", ".join(sorted(packs)))
    search = _truth_search(ctx) if opts.refine == "truth" else None
    recursor = Recursor(opts.topic, entry.pack.prompter(), run, depth=opts.depth, refine=opts.refine,
                        threshold=opts.threshold, k=opts.k, search=search)
    e = recursor.explore()
    ctx.recall.exploration = e
    run.emit(ModelShown("program", f"explore: {e.topic}", e.program.text(),
                        [{"head": c.head, "body": list(c.body), "kind": c.kind, "prob": c.prob}
                         for c in e.program.clauses]))
    run.emit(ModelShown("horn.model", f"model of: {e.topic} ({e.status})",
                        "\n".join(sorted(e.model.model)) or "(empty model)",
                        {"model": sorted(e.model.model), "top": e.top, "status": e.status,
                         "violated": [str(c) for c in e.model.violated]}))
    if opts.add:
        outcome = add_exploration(ctx.memory, e)
        return Explored(e, len(outcome.items), outcome.duplicates)
    return Explored(e)


@command("/prompters", group="reason")
def prompters(ctx: Context, arg: str, run: Run) -> Table:
    """List the prompter packs /explore can use, with where each came from.

    Packs are built in, from plugins, or <workspace dir>/prompters/*.toml; packs that cannot be
    used are listed as problems."""
    from sym.plugins.prompters import available, workspace_packs_dir

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
