"""Workspace and memory commands: workspaces, documents, search, schema, reindex."""

from __future__ import annotations

from sym.core.errors import UserError
from sym.core.memory import library
from sym.repl.arguments import Args, Option, completer
from sym.repl.commands.shell import kind_listing
from sym.repl.context import Context
from sym.repl.registry import command
from sym.repl.results import Hits, Message, Table


def _workspaces(ctx: Context):
    if ctx.workspaces is None:
        raise UserError("this shell keeps memory in the process only", hint="start sym normally to use workspaces")
    return ctx.workspaces


@command("/workspace", args="[NAME]", group="memory", completer=completer("workspace"), steerable=False)
def workspace(ctx: Context, arg: str) -> Message:
    """Show the current workspace, or switch to another (created when new)."""
    name = arg.strip()
    if not name:
        return Message(f"workspace {ctx.memory.workspace}", {"workspace": ctx.memory.workspace})
    if name == ctx.memory.workspace:
        return Message(f"already in workspace {name}", {"workspace": name})
    ctx.memory = _workspaces(ctx).open(name)
    counts = ctx.memory.counts()
    return Message(f"workspace {name}: {counts['fact']} facts, {counts['rule']} rules, "
                   f"{counts['constraint']} constraints", {"workspace": name, **counts})


@command("/workspaces", group="memory", steerable=False)
def workspaces(ctx: Context, arg: str) -> Table:
    """List the workspaces (the current one is marked)."""
    names = _workspaces(ctx).names()
    return Table("workspaces", [(n, "current" if n == ctx.memory.workspace else "", "") for n in names])


_PARTS = ("facts", "rules", "schema", "docs")


@command("/memory", args="[facts|rules|schema|docs]", group="memory",
         completer=lambda ctx, text: [p for p in _PARTS if p.startswith(text.strip())])
def memory(ctx: Context, arg: str):
    """Counts of what the working memory holds, or a listing of one part."""
    part = arg.strip()
    m = ctx.memory
    if part in ("facts", "rules"):
        return kind_listing(m, part)
    if part == "schema":
        return schema(ctx, "")
    if part == "docs":
        return docs(ctx, "")
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


@command("/load", args="FILE", group="memory", completer=completer("file"))
def load(ctx: Context, arg: str) -> Message:
    """Load a .txt, .md or .pdf document (or other UTF-8 text): chunked by paragraphs, embedded, stored with offsets."""
    name = arg.strip()
    if not name:
        raise UserError("no file given", hint="/load notes.md")
    from sym.core.files import check_file
    from sym.repl.commands.logic import cancellable

    path = ctx.path(name)
    check_file(path, ctx.settings.max_file_mb)     # a FIFO or /dev/zero is refused before any read
    ctx.check_cancel()
    info, before = library.load(ctx.memory.store, path, progress=cancellable(ctx, f"loading {name}"),
                                 limit_mb=ctx.settings.max_file_mb, emit=ctx.emit)
    verb = f"reloaded (replacing {before} chunks)" if before else "loaded"
    return Message(f"{verb} {info.name}: {info.chunks} chunks, {info.chars} characters", info.to_dict())


@command("/docs", group="memory")
def docs(ctx: Context, arg: str) -> Table:
    """List the loaded documents."""
    found = library.documents(ctx.memory.store)
    return Table("documents" if found else "no documents loaded (/load FILE)",
                 [(d.name, f"{d.chunks} chunks", d.path) for d in found])


SEARCH_OPTIONS = (
    Option("--k", int, metavar="N", low=1, high=1000, aliases=("-k",), help="how many hits (default: /set search_k)"),
    Option("--kind", metavar="facts|rules|docs", values=lambda ctx, prefix: ["facts", "rules", "docs"],
           help="only these kinds, comma-separated"),
)


@command("/search", args="TEXT", options=SEARCH_OPTIONS, group="memory")
def search(ctx: Context, args: Args) -> Hits:
    """Find facts, rules and document chunks by meaning, ranked, with scores and sources."""
    k = ctx.settings.search_k if args.k is None else args.k
    kinds, text = ("facts", "rules", "docs"), args.words
    if args.kind is not None:
        chosen = [library.KIND_NAMES.get(x) for x in args.kind.split(",")]
        if None in chosen:
            raise UserError(f"unknown kind {args.kind!r}", hint="--kind facts|rules|docs")
        kinds = tuple(dict.fromkeys(chosen))
    # batch mode waits for the background writer (a script's output should not depend on its pace);
    # an interactive shell answers from what is embedded after a short wait, and says how much that is
    hits = library.search(ctx.memory.store, " ".join(text), kinds=kinds, k=k,
                          wait=None if ctx.patient else 2.0, cancel=ctx.cancel, progress=ctx.progress("embedding"))
    ctx.check_cancel()
    coverage = ctx.memory.embedding_backlog()
    return Hits(" ".join(text), hits, coverage if coverage and coverage[0] < coverage[1] else None)


@command("/schema", args="[template PRED/N TEXT | merge OLD/N INTO/N]", group="memory")
def schema(ctx: Context, arg: str):
    """Show predicates (arity, NL template, uses) and objects; set a template; merge two predicates."""
    m = ctx.memory
    parts = arg.split(None, 2)
    if not parts:
        rows = [(p.key, p.count, p.template or "") for p in sorted(m.schema.predicates.values(), key=lambda p: p.key)]
        objects = ", ".join(sorted(m.schema.objects)[:40])
        more = len(m.schema.objects) - 40
        rows.append(("objects", len(m.schema.objects), objects + (f" … and {more} more" if more > 0 else "")))
        return Table(f"schema of {m.workspace}", rows)
    if parts[0] == "template" and len(parts) == 3:
        key, template = parts[1], parts[2].strip().strip('"')
        if key not in m.schema.predicates:
            raise UserError(f"unknown predicate {key}", hint="/schema lists predicates as name/arity")
        m.set_templates({key: template})      # saved with the schema
        return Message(f"{key}: {template}")
    if parts[0] == "merge" and len(parts) == 3:
        items = m.merge_predicates(parts[1], parts[2].strip())    # items and schema: one transaction
        return Message(f"merged {parts[1]} into {parts[2].strip()}: {len(items)} items rewritten",
                       {"rewritten": [it.id for it in items]})
    raise UserError("unknown /schema form", hint='/schema, /schema template father_of/2 "{0} is the father of {1}", '
                                                 "/schema merge located_at/2 located_in/2")


@command("/reindex", args="[EMBEDDER]", group="memory")
def reindex(ctx: Context, arg: str) -> Message:
    """Rebuild the workspace's collections with an embedder: hash, ollama:MODEL or st:NAME."""
    ws = _workspaces(ctx)
    spec = arg.strip() or (ctx.memory.store.embedder.name if ctx.memory.store is not None else "hash")
    memory, count = ws.reindex(spec, ctx.memory, progress=ctx.progress("reindexing"))
    ctx.memory = memory
    later = " (embedded in the background; /search says how far)" if memory.embedding_backlog() else ""
    return Message(f"reindexed {count} records with {spec}{later}", {"records": count, "embedder": spec})
