"""Workspace and memory commands: workspaces, documents, search, schema, reindex."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sym.core.backends.choice import kind, options_from
from sym.core.errors import UserError
from sym.core.files import check_file
from sym.core.logic.terms import clause_text
from sym.core.memory import library, ops
from sym.core.memory.documents import document_paths, refuse_url
from sym.core.run import Run
from sym.core.words import count
from sym.repl.arguments import Args, Option, last_word, positional, values
from sym.repl.commands.engine import set_engine
from sym.repl.commands.logic import stoppable
from sym.repl.commands.shell import kind_listing
from sym.repl.context import Context
from sym.repl.documents import Found, Preview, document_table, size
from sym.repl.registry import command
from sym.repl.results import Message, Result, Table


def _workspaces(ctx: Context):
    if ctx.workspaces is None:
        raise UserError("this shell keeps memory in the process only", hint="start sym normally to use workspaces")
    return ctx.workspaces


def _workspace_words(ctx: Context, text: str) -> list[str]:
    """Completions for /workspace: workspace names, and `rm` as the first word."""
    words = text.split()
    names = values("workspace", ctx, last_word(text))
    if len(words) <= 1 and not (words and text[-1:].isspace()):
        return (["rm"] if "rm".startswith(last_word(text)) else []) + names
    return names


@command("/workspace", args="[NAME | rm NAME]", group="memory", completer=_workspace_words, steerable=False,
         options=(Option("--yes", bool, help="with rm: delete without asking"),
                  Option("--engine", str, choices=("native", "duckdb", "spark"),
                         help="evaluate the workspace on this engine from now on (see /set engine)")))
def workspace(ctx: Context, args: Args, run: Run) -> Message:
    """Show the current workspace, switch to another (created when new), or delete one with rm."""
    words = args.words
    if words and words[0] == "rm":
        return _remove_workspace(ctx, words[1:], args.yes)
    if args.yes:
        raise UserError("--yes goes with rm only", hint="/workspace rm NAME --yes")
    if len(words) > 1:
        raise UserError("give one workspace name", hint="/workspace NAME  or  /workspace rm NAME")
    name = words[0] if words else ""
    if not name:
        return Message(f"workspace {ctx.memory.workspace}", {"workspace": ctx.memory.workspace})
    if name == ctx.memory.workspace and args.engine:
        return set_engine(ctx, args.engine)
    if name == ctx.memory.workspace:
        return Message(f"already in workspace {name}", {"workspace": name})
    spaces = _workspaces(ctx)
    before = spaces.engine_options    # a new workspace gets the engine the configuration names, not this one's
    spaces.engine_options = options_from(ctx.settings, before.default if before is not None else "native")
    ctx.memory = spaces.open(name, engine=args.engine)
    ctx.settings.engine = kind(ctx.memory.engine)
    counts = ctx.memory.counts()
    return Message(f"workspace {name}: {count(counts['fact'], 'fact')}, {count(counts['rule'], 'rule')}, "
                   f"{count(counts['constraint'], 'constraint')}", {"workspace": name, **counts})


def _remove_workspace(ctx: Context, words: tuple[str, ...], yes: bool) -> Message:
    if len(words) != 1:
        raise UserError("name one workspace to delete", hint="/workspace rm NAME  (/workspaces lists them)")
    ws = _workspaces(ctx)
    name = words[0]
    info = ws.remove(name) if yes else ws.removal(name)
    held = _held(info.summary, documents=True)
    where = " from the Chroma server" if info.server else ""
    data = {"deleted": yes, "workspace": name, **_summary_dict(info.summary)}
    if yes:
        return Message(f"deleted workspace {name}{where} ({held})", data)
    warning = "; a server keeps no locks, so be sure no other sym uses it" if info.server else ""
    return Message(f"this deletes workspace {name}{where} ({held}){warning}; to go ahead: /workspace rm {name} --yes",
                   data)


def _held(summary, *, documents: bool = False) -> str:
    """`3 facts, 1 rule, 0 constraints` (and documents) of a workspace summary."""
    if summary is None:
        return "contents not readable without opening it"
    parts = [_plural(summary.facts, "fact"), _plural(summary.rules, "rule"), _plural(summary.constraints, "constraint")]
    if documents and summary.documents:
        parts.append(_plural(summary.documents, "document"))
    return ", ".join(parts)


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _summary_dict(summary) -> dict:
    if summary is None:
        return {}
    out = {"facts": summary.facts, "rules": summary.rules, "constraints": summary.constraints}
    if summary.documents is not None:
        out["documents"] = summary.documents
    return out | {"created": summary.created, "changed": summary.changed}


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at is not None else "?"


@dataclass
class WorkspaceTable(Table):
    """/workspaces: a row per workspace; its JSON form carries the numbers, not only the text."""

    workspaces: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "workspaces": self.workspaces}


@command("/workspaces", group="memory", steerable=False)
def workspaces(ctx: Context, arg: str, run: Run) -> Table:
    """List the workspaces with what they hold and when they were made and last changed (the current one marked)."""
    if arg.strip():
        raise UserError("/workspaces takes no arguments", hint="/workspace rm NAME deletes one")
    found = _workspaces(ctx).summaries()
    rows, data = [], []
    for info in found:
        s = info.summary
        dates = f"created {_when(s.created)}, changed {_when(s.changed)}" if s is not None and not info.server else ""
        note = ", ".join(p for p in (dates, "current" if info.current else "") if p)
        rows.append((info.name, _held(s), note))
        data.append({"name": info.name, "current": info.current, **_summary_dict(s)})
    return WorkspaceTable("workspaces" if rows else "no workspaces yet", rows, data)


_PARTS = ("facts", "rules", "schema", "docs")


@command("/memory", args="[facts|rules|schema|docs]", group="memory",
         completer=positional(_PARTS))
def memory(ctx: Context, arg: str, run: Run):
    """Counts of what the working memory holds, or a listing of one part."""
    part = arg.strip()
    m = ctx.memory
    if part in ("facts", "rules"):
        return kind_listing(m, part)
    if part == "schema":
        return schema_table(m)
    if part == "docs":
        return document_table(library.documents(m.store))
    if part:
        raise UserError(f"no memory part {part!r}", hint="choose one of: " + ", ".join(_PARTS))
    counts = m.counts()
    store = m.store
    where = "process only" if store is None else (ctx.workspaces.url if ctx.workspaces and ctx.workspaces.url
                                                  else "embedded Chroma")
    return Table(f"workspace {m.workspace} ({where})", [
        ("facts", counts["fact"], ""), ("rules", counts["rule"], ""), ("constraints", counts["constraint"], ""),
        ("predicates", len(m.schema.predicates), ""), ("objects", len(m.schema.objects), ""),
        ("documents", len(library.documents(store)), ""),
        ("embedder", store.embedder.name if store is not None else "none", ""),
    ])


LOAD_USAGE = "/load notes.md  or  /load docs/  or  /load 'docs/**/*.md'"


@command("/load", args="FILE|FOLDER|PATTERN", group="memory", completer=positional("file"))
def load(ctx: Context, arg: str, run: Run) -> Message:
    """Load a .txt, .md or .pdf document (or other UTF-8 text), or every such file of a folder or a
    glob pattern: cut into passages (paragraphs, headings, list items), stored with their heading
    path and offsets, embedded in the background. Loading a file again stores only what changed.
    A URL is refused: nothing is downloaded."""
    name = _unquoted(arg.strip())
    if not name:
        raise UserError("no file given", hint=LOAD_USAGE)
    refuse_url(name)            # before ctx.path, which would read http://x as the file http:/x
    paths = document_paths(name, ctx.base_dir)
    if paths is not None:
        return _load_many(ctx, run, name, paths)
    path = ctx.path(name)
    check_file(path, run.settings.max_file_mb)     # a FIFO or /dev/zero is refused before any read
    run.check()
    done = library.load(ctx.memory.store, path, progress=stoppable(run, f"loading {name}"),
                        limit_mb=run.settings.max_file_mb, emit=run.emit)
    info = done.info
    verb = f"reloaded (replacing {count(done.before, 'chunk')})" if done.before else "loaded"
    text = f"{verb} {info.name}: {count(info.chunks, 'chunk')}, {count(info.chars, 'character')}"
    if done.before:
        text += "; unchanged" if done.unchanged else (f"; {done.added} new or changed, {done.kept} unchanged, "
                                                     f"{done.removed} removed")
    return Message(text, {**info.to_dict(), "before": done.before, "kept": done.kept, "added": done.added,
                          "removed": done.removed})


def _unquoted(name: str) -> str:
    """A name as typed, without the quotes around it (`'docs/*.md'` keeps the shell from nothing)."""
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        return name[1:-1].strip()
    return name


SKIPPED_SHOWN = 3      # files a folder load names as skipped before "and N more"


def _load_many(ctx: Context, run: Run, name: str, paths: list) -> Message:
    run.check()
    done, skipped = library.load_many(
        ctx.memory.store, paths, progress=lambda file, i, n: stoppable(run, f"loading {i}/{n} {file}"),
        limit_mb=run.settings.max_file_mb, emit=run.emit)
    run.check()
    why = "; ".join(reason for _, reason in skipped[:SKIPPED_SHOWN]) + (
        f"; and {len(skipped) - SKIPPED_SHOWN} more" if len(skipped) > SKIPPED_SHOWN else "")
    if not done:
        raise UserError(f"nothing loaded from {name}: {why}")
    chunks, chars = sum(d.info.chunks for d in done), sum(d.info.chars for d in done)
    again = [d for d in done if d.before]
    same = sum(1 for d in again if d.unchanged)
    text = (f"loaded {len(done)} {'document' if len(done) == 1 else 'documents'} from {name}: {count(chunks, 'chunk')}, "
            f"{chars} characters")
    if again:
        text += f" ({len(again)} reloaded, {same} of them unchanged)"
    if skipped:
        text += f"; skipped {len(skipped)}: {why}"
    return Message(text, {"documents": [d.info.to_dict() for d in done], "chunks": chunks, "chars": chars,
                          "reloaded": len(again), "unchanged": same,
                          "skipped": [{"path": str(p), "reason": reason} for p, reason in skipped]})


def _document_names(ctx: Context, prefix: str) -> list[str]:
    store = ctx.memory.store
    return sorted({d.name for d in library.documents(store)}) if store is not None else []


DOCS_USAGE = "/docs, /docs show NAME [N], /docs rm NAME [--yes]"


@command("/docs", args="[show NAME [N] | rm NAME]", group="memory",
         completer=positional(("show", "rm"), _document_names),
         options=(Option("--yes", bool, help="with rm: remove without asking"),))
def docs(ctx: Context, args: Args, run: Run) -> Result:
    """List the loaded documents (chunks and size); show one's passages, or passage N whole; remove
    one and its passages (shown first, done with --yes)."""
    action, _, rest = args.text.strip().partition(" ")
    rest = _unquoted(rest.strip())
    if args.yes and action != "rm":
        raise UserError("--yes goes with /docs rm only", hint=DOCS_USAGE)
    if not action:
        return document_table(library.documents(ctx.memory.store))
    if action == "show" and rest:
        return _show(ctx, rest)
    if action == "rm" and rest:
        return _remove(ctx, run, rest, args.yes)
    if action in ("show", "rm"):
        raise UserError(f"/docs {action} needs a document name", hint=DOCS_USAGE)
    raise UserError(f"unknown /docs form {action!r}", hint=DOCS_USAGE)


def _show(ctx: Context, rest: str) -> Preview:
    store = library.require_store(ctx.memory.store)
    number = None
    head, _, last = rest.rpartition(" ")
    if head and last.isdecimal():
        try:
            doc = library.find(store, rest)          # a name that ends in a number
        except UserError:
            doc, number = library.find(store, head.strip()), int(last)
    else:
        doc = library.find(store, rest)
    found = library.passages(store, doc.id)
    if number is not None and not 1 <= number <= len(found):
        raise UserError(f"{doc.name} has passages 1 to {len(found)}, not {number}", hint=f"/docs show {doc.name}")
    return Preview(doc, found, number)


def _remove(ctx: Context, run: Run, rest: str, yes: bool) -> Message:
    store = library.require_store(ctx.memory.store)
    doc = library.find(store, rest)
    told = sum(1 for it in ctx.memory.items.values() if it.source == f"tell:{doc.name}")
    kept = f"; the {_plural(told, 'item')} told from it stay" if told else ""
    data = {"removed": yes, **doc.to_dict()}
    if not yes and not ctx.confirms:     # a script or pipe: nobody answers the question, so it must not pass as done
        raise UserError(f"/docs rm {rest} removes nothing without --yes in a script or pipe",
                        hint=f"/docs rm {rest} --yes")
    if not yes:
        return Message(f"this removes {doc.name} ({count(doc.chunks, 'chunk')}, {size(doc.chars)}){kept}; "
                       f"to go ahead: /docs rm {rest} --yes", data)
    ids = library.remove(store, doc, emit=run.emit)
    return Message(f"removed {doc.name} ({count(len(ids), 'chunk')}){kept}", {**data, "ids": ids})


SEARCH_OPTIONS = (
    Option("--k", int, metavar="N", low=1, high=1000, aliases=("-k",), help="how many hits (default: /set search_k)"),
    Option("--kind", metavar="facts|rules|docs", values=lambda ctx, prefix: ["facts", "rules", "docs"],
           help="only these kinds, comma-separated"),
)


@command("/search", args="TEXT", options=SEARCH_OPTIONS, group="memory")
def search(ctx: Context, args: Args, run: Run) -> Found:
    """Find facts, rules and document passages: passages by keyword (BM25) and by meaning, fused,
    facts and rules by meaning; each hit with its ranks, and a snippet at its best sentence."""
    k = run.settings.search_k if args.k is None else args.k
    kinds, text = ("facts", "rules", "docs"), args.words
    if args.kind is not None:
        chosen = [library.KIND_NAMES.get(x) for x in args.kind.split(",")]
        if None in chosen:
            raise UserError(f"unknown kind {args.kind!r}", hint="--kind facts|rules|docs")
        kinds = tuple(dict.fromkeys(chosen))
    # batch mode waits for the background writer (a script's output should not depend on its pace);
    # an interactive shell answers from what is embedded after a short wait, and says how much that is
    hits = library.search(ctx.memory.store, " ".join(text), kinds=kinds, k=k,
                          wait=None if ctx.patient else 2.0, cancel=run.cancel, progress=run.progress("embedding"))
    run.check()
    coverage = ctx.memory.embedding_backlog()
    return Found(" ".join(text), hits, coverage if coverage and coverage[0] < coverage[1] else None)


SCHEMA_USAGE = ('/schema, /schema template father_of/2 "{0} is the father of {1}", '
                "/schema merge located_at/2 located_in/2 [--yes], /schema undo")
EXAMPLES = 3        # rewritten items a merge preview shows


@command("/schema", args="[template PRED/N TEXT | merge OLD/N INTO/N | undo]", group="memory",
         options=(Option("--yes", bool, help="with merge: merge without asking"),))
def schema(ctx: Context, args: Args, run: Run):
    """Show predicates (arity, NL template, uses) and objects; set a template; merge two predicates
    of the same arity (shown first, done with --yes); undo the last merge."""
    m = ctx.memory
    parts = args.text.split(None, 2)
    if args.yes and (not parts or parts[0] != "merge"):
        raise UserError("--yes goes with /schema merge only", hint=SCHEMA_USAGE)
    if not parts:
        return schema_table(m)
    if parts[0] == "template" and len(parts) == 3:
        key, template = parts[1], parts[2].strip().strip('"')
        if key not in m.schema.predicates:
            raise UserError(f"unknown predicate {key}", hint="/schema lists predicates as name/arity")
        m.set_templates({key: template})      # saved with the schema
        return Message(f"{key}: {template}")
    if parts[0] == "merge" and len(args.words) == 3:
        return _merge(ctx, args.words[1], args.words[2], args.yes)
    if parts[0] == "undo" and len(parts) == 1:
        return _undo(ctx)
    raise UserError("unknown /schema form", hint=SCHEMA_USAGE)


def schema_table(m) -> Table:
    rows = [(p.key, p.count, p.template or "") for p in sorted(m.schema.predicates.values(), key=lambda p: p.key)]
    objects = ", ".join(sorted(m.schema.objects)[:40])
    more = len(m.schema.objects) - 40
    rows.append(("objects", len(m.schema.objects), objects + (f" … and {more} more" if more > 0 else "")))
    return Table(f"schema of {m.workspace}", rows)


def _counted(counts: dict[str, int]) -> str:
    shown = [_plural(n, kind) for kind, n in counts.items() if n]
    return ", ".join(shown) or "no items"


def _merge(ctx: Context, old: str, into: str, yes: bool) -> Message:
    if yes:
        plan, items = ops.merge(ctx.memory, old, into)
        dropped = f" ({plan.duplicates} already there)" if plan.duplicates else ""
        return Message(f"merged {plan.old} into {plan.into}: {_counted(plan.counts())} rewritten{dropped}; "
                       "/schema undo reverts it",
                       {"merged": True, "old": plan.old, "into": plan.into, **plan.counts(),
                        "rewritten": [it.id for it in items]})
    plan = ops.plan_merge(ctx.memory, old, into)
    new = "" if plan.into_template is not None else " (a new predicate)"
    lines = [f"merging {plan.old} into {plan.into}{new} rewrites {_counted(plan.counts())}"
             + (f"; {plan.duplicates} of them {'is' if plan.duplicates == 1 else 'are'} already there and "
                "will be dropped" if plan.duplicates else "") + ":"]
    lines += [f"  {it.text}  ->  {clause_text(new_clause)}" for it, new_clause in plan.rewritten[:EXAMPLES]]
    if len(plan.rewritten) > EXAMPLES:
        lines.append(f"  … and {len(plan.rewritten) - EXAMPLES} more")
    if plan.template and not plan.into_template:
        lines.append(f"{plan.into} takes the template of {plan.old}: {plan.template}")
    lines.append(f"to go ahead: /schema merge {plan.old} {plan.into} --yes  (/schema undo reverts it)")
    return Message("\n".join(lines), {"merged": False, "old": plan.old, "into": plan.into, **plan.counts(),
                                       "examples": [[it.text, clause_text(c)] for it, c in plan.rewritten[:EXAMPLES]]})


def _undo(ctx: Context) -> Message:
    done = ops.undo_merge(ctx.memory)
    return Message(f"undid the merge of {done.old} into {done.into}: {_plural(len(done.restored), 'item')} back "
                   f"as they were, {_plural(len(done.removed), 'rewritten item')} removed",
                   {"old": done.old, "into": done.into, "restored": [it.id for it in done.restored],
                    "removed": [it.id for it in done.removed]})


@command("/reindex", args="[EMBEDDER]", group="memory")
def reindex(ctx: Context, arg: str, run: Run) -> Message:
    """Rebuild the workspace's collections with an embedder: hash, ollama:MODEL or st:NAME."""
    ws = _workspaces(ctx)
    spec = arg.strip() or (ctx.memory.store.embedder.name if ctx.memory.store is not None else "hash")
    memory, records = ws.reindex(spec, ctx.memory, progress=run.progress("reindexing"))
    ctx.memory = memory
    later = " (embedded in the background; /search says how far)" if memory.embedding_backlog() else ""
    return Message(f"reindexed {count(records, 'record')} with {spec}{later}", {"records": records, "embedder": spec})
