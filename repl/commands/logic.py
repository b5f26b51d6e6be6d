"""Logic commands: assert, consult, query, infer, explain, list and forget.

Each is one function returning a result; parsing errors surface as UserError and leave
memory as it was.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from sym.core.backends import tabular
from sym.core.errors import ParseError, UserError
from sym.core.files import read_text_file
from sym.core.logic.engine import FALSE, TRUE
from sym.core.logic.parser import check_reserved, ends_clause, parse_atom, parse_program, parse_query
from sym.core.logic.pause import gc_paused
from sym.core.logic.provenance import ABSENT, ProofNode, proof_tree
from sym.core.logic.terms import Atom, Query, Rule, Var
from sym.core.memory.library import read_from
from sym.core.memory.working import Item, item_id
from sym.core.reason import clashes
from sym.core.run import Run
from sym.repl.arguments import Args, Option, last_word, positional
from sym.repl.context import Context
from sym.repl.plain_input import plain_facts, plain_query
from sym.repl.registry import command
from sym.repl.results import Added, Answered, Exit, Forgotten, Inferred, Listing, Message, Proofs


def _predicate_names(ctx: Context, prefix: str) -> list[str]:
    keys = sorted({k.lstrip("~").rsplit("/", 1)[0] for k in ctx.memory.engine.relation_keys()})
    return [k for k in keys if k.startswith(prefix)]


_predicates = positional(_predicate_names)      # /why FACT, /listing PRED, /forget PATTERN: the first word
_NAME_AT_END = re.compile(r"[a-z][\w]*$")
_GOAL_STARTS = ("?-", ":-", "\\+")


def _goals(ctx: Context, text: str) -> list[str]:
    """Predicates where a goal of a query starts: after `?-`, a `,` or `;` between goals, or `\\+`
    (not inside an atom's arguments). Each replaces the whole word being typed."""
    last = last_word(text)
    name = _NAME_AT_END.search(last)
    typed = name.group() if name else ""
    if last and not typed:
        return []
    before = text[:len(text) - len(typed)].rstrip()
    depth = before.count("(") - before.count(")")
    starts = not before or before.endswith(_GOAL_STARTS) or (depth == 0 and before.endswith((",", ";")))
    head = last[:len(last) - len(typed)]
    return [head + k for k in _predicate_names(ctx, typed)] if starts else []


def stoppable(run: Run, task: str):
    """A progress callback that also stops the run when the user cancels (the store undoes what
    the call wrote)."""
    report = run.progress(task)

    def progress(done: int, total: int) -> None:
        run.check()
        report(done, total)

    return progress


def cancellable(ctx: Context, task: str):
    """`stoppable` for a handler that takes no run (the shell's events and cancel flag)."""
    return stoppable(Run(ctx.settings, emit=ctx.emit, cancel=ctx.cancel, client=None), task)


def _bounded(ctx: Context, run: Run):
    """The memory, with inference stoppable by Esc / Ctrl+C, past query_timeout and at max_facts."""
    return ctx.memory.bound(run.stop)


PIECE_LINES = 5_000   # a big file is parsed in pieces of about this many lines, checking cancel between


def parse_cancellable(run: Run, text: str, label: str | None, progress=None) -> list:
    """`parse_program`, in pieces cut after lines that end a clause, so Esc / Ctrl+C stops a big
    file within a piece. A piece that fails to parse (a cut that was not a clause end after all, or
    a real error) sends the whole text to one parse, which reports the error where it is."""
    lines = text.split("\n")
    if len(lines) <= 2 * PIECE_LINES:
        return _parse(text, label)
    located, start, done = [], 0, 0
    try:
        while start < len(lines):
            end = min(start + PIECE_LINES, len(lines))
            while end < len(lines) and not ends_clause(lines[end - 1]):
                end += 1
            piece = "\n".join(lines[start:end])
            located += _parse(piece, label, start)
            done += len(piece) + 1
            run.check()
            if progress is not None:
                progress(min(done, len(text)), len(text))
            start = end
    except ParseError:
        return parse_program(text, source=label)
    return located


def _parse(text: str, label: str | None, line_offset: int = 0) -> list:
    """`parse_program`; lines of plain facts (or none: a file's last piece) without the grammar."""
    with gc_paused():
        plain = plain_facts(text, line_offset)
    return plain if plain is not None else parse_program(text, source=label, line_offset=line_offset)


# what SWI-Prolog users type at the top level: `halt.` and `listing.` / `listing(Pred).` are commands
_HABIT = re.compile(r"(?:\?-)?\s*(halt|listing)\s*(?:\(([^()]*)\))?\s*\.?\s*(?:%[^\n]*)?")


def habit(ctx: Context, text: str, run: Run) -> Exit | Listing | None:
    """`halt.` leaves (as /bye does), `listing.` lists (as /listing does); None for anything else."""
    m = _HABIT.fullmatch(text.strip())
    if m is None or (m.group(1) == "halt" and m.group(2) is not None):
        return None
    if m.group(1) == "halt":
        return Exit()
    if m.group(2) is None:
        return list_items(ctx, run, None)
    pred = m.group(2).strip()
    if len(pred) >= 2 and pred[0] == pred[-1] == "'":
        pred = pred[1:-1]
    if not pred:
        raise UserError("listing() names no predicate", hint="listing.  or  listing(father_of).")
    try:
        return list_items(ctx, run, pred)
    except UserError as err:    # listing(house1). may have been meant as a fact
        raise UserError(err.message, hint=f"{err.hint}; to store it as a fact: /fact {text.strip()}"
                        if err.hint else f"to store it as a fact: /fact {text.strip()}") from None


def add_text(ctx: Context, text: str, run: Run) -> Added | Exit | Listing:
    """What typed logic text does: `halt.` leaves and `listing.` lists; anything else is asserted."""
    done = habit(ctx, text, run)
    return done if done is not None else assert_text(ctx, run, text)


def assert_text(ctx: Context, run: Run, text: str, *, only: str | None = None, file_label: str | None = None,
                progress=None) -> Added:
    """Parse logic text and assert its clauses; queries in it are answered after loading."""
    located = parse_cancellable(run, text, file_label, progress)
    run.check()
    stored, queries = [], []
    for loc in located:
        clause = loc.clause
        if isinstance(clause, Query):
            queries.append(clause)
            continue
        check_reserved(clause, source=file_label, line=loc.line)
        if only == "fact" and not isinstance(clause, Atom):
            raise UserError(f"not a fact: {clause}", hint="use /rule for rules and constraints")
        if only == "rule" and not isinstance(clause, Rule):
            raise UserError(f"not a rule: {clause}.", hint="use /fact for facts")
        where = f"{file_label}:{loc.line}" if file_label else run.source
        stored.append((clause, where))
    if only and not stored:
        example = "/fact father_of(joshua, don)." if only == "fact" else "/rule p(X) :- q(X)."
        raise UserError(f"no {only} given", hint=f"e.g. {example}")

    earlier = clashes.before(_bounded(ctx, run), run.settings.max_steps, [c for c, _ in stored])
    outcome = ctx.memory.add(stored, merge=run.settings.schema_merge, progress=stoppable(run, "storing"))
    warnings = growth_warnings(ctx, outcome.items) + clash_warnings(ctx, run, earlier, outcome.items)
    answers = [_answer(ctx, run, q) for q in queries]
    return Added(outcome.items, outcome.duplicates, file_label, answers, outcome.notes, warnings)


def growth_warnings(ctx: Context, added: list[Item]) -> list[str]:
    """One line for each rule just stored that computes new numbers through recursion (said once,
    when it is stored): its inference can go on without end until max_facts or the deadline."""
    deps = ctx.memory.engine.dependencies()
    return [f"rule {it.id} computes new numbers through recursion ({it.text}): inference may not end; "
            f"max_facts and query_timeout stop it" for it in added
            if isinstance(it.clause, Rule) and deps.computes_through_recursion(it.clause)]


def clash_warnings(ctx: Context, run: Run, earlier, added: list[Item]) -> list[str]:
    """One line naming a clash the added items brought (none that memory had before them); the
    items stay stored. `earlier`: core.reason.clashes.before, taken before they were added."""
    try:
        found = clashes.new_clashes(_bounded(ctx, run), earlier, added, run.settings.max_steps)
    except UserError as err:      # max_facts, or Esc: what was added stays; only the check is missing
        return [f"consistency not checked: {err.message}"]
    line = clashes.warning(ctx.memory, found)
    return [line] if line else []


def _ask(ctx: Context, run: Run, query: Query):
    s = run.settings
    return _bounded(ctx, run).ask(query, open_world=s.world == "open", max_steps=s.max_steps)


def _answer(ctx: Context, run: Run, query: Query):
    """The answer a user sees: a query whose variables are all anonymous (`?- bird(_).`) has no
    bindings to show, so it is answered true or false, as a ground query is."""
    answer = _ask(ctx, run, query)
    if answer.truth is None and not answer.variables:
        answer = replace(answer, bindings=[], truth=TRUE if answer.bindings else FALSE)
    return answer


@command("/fact", args="FACT.")
def fact(ctx: Context, arg: str, run: Run) -> Added:
    """Assert one or more ground facts, e.g. /fact father_of(joshua, don)."""
    return assert_text(ctx, run, arg if arg.rstrip().endswith(".") else arg + ".", only="fact")


@command("/rule", args="HEAD :- BODY.")
def rule(ctx: Context, arg: str, run: Run) -> Added:
    """Add a rule or an integrity constraint, e.g. /rule sister_of(C, A) :- father_of(B, A), daughter_of(C, B)."""
    return assert_text(ctx, run, arg if arg.rstrip().endswith(".") else arg + ".", only="rule")


@command("/consult", args="FILE [as NAME/ARITY | as NAME(COLUMN, …)]", completer=positional("file"))
def consult(ctx: Context, arg: str, run: Run) -> Added:
    """Load a Prolog-syntax file of facts, rules and constraints (all or nothing); a table,
    FILE.csv|.tsv|.parquet as NAME/ARITY (its columns in order) or as NAME(COLUMN, …) (columns by
    header name or number; --header, --no-header, --skip-bad), is read as the facts of one relation."""
    name = arg.strip()
    if not name:
        raise UserError("no file given", hint="/consult family.pl")
    table = tabular.parse_spec(name)
    if table is not None or tabular.is_table_name(name):
        return consult_table(ctx, run, table, name)

    path = ctx.path(name)
    text = read_text_file(path, run.settings.max_file_mb)
    run.check()
    parsing = run.progress(f"parsing {path.name}")
    parsing(0, len(text))              # a large file takes a while to parse: say so before, and after
    added = assert_text(ctx, run, text, file_label=path.name, progress=parsing)
    parsing(len(text), len(text))
    return added


def consult_table(ctx: Context, run: Run, spec: tabular.TableSpec | None, name: str) -> Added:
    """A table's rows as the facts of one relation, all or nothing: items of the working memory on
    the native engine; on a relational one (`attach`) a relation of its own in the backend's tables,
    checked in a first pass and filled in a second. `spec` None: a table named with no `as …`."""
    if spec is None:
        stem = Path(name).name.split(".")[0]
        pred = stem.lower() if stem.isidentifier() and not stem.startswith("_") else "p"
        raise UserError(f"{name} is a table: say which relation its rows are",
                        hint=f"/consult {name} as {pred}/ARITY  or  as {pred}(COLUMN, …)")
    path, s, engine = ctx.path(spec.file), run.settings, ctx.memory.engine
    if hasattr(engine, "attach"):
        checked = tabular.survey(path, spec, check=run.check, progress=run.progress(f"checking {path.name}"))
        fill = tabular.filler(path, spec, checked, check=run.check, progress=run.progress(f"loading {path.name}"))
        count = engine.attach(spec.key, checked.types, fill)
        return Added([], 0, path.name, warnings=checked.staged.skipped(), rows=checked.staged.rows,
                     relation=spec.key, loaded=count)
    staged = tabular.stage(path, spec, check=run.check, progress=run.progress(f"reading {path.name}"),
                           max_rows=s.max_facts)
    run.check()
    facts = list(staged.sources())
    earlier = clashes.before(_bounded(ctx, run), s.max_steps, [f for f, _ in facts])
    outcome = ctx.memory.add(facts, merge=s.schema_merge, progress=stoppable(run, "storing"))
    warnings = staged.skipped() + clash_warnings(ctx, run, earlier, outcome.items)
    return Added(outcome.items, outcome.duplicates, path.name, [], outcome.notes, warnings,
                 rows=staged.rows, relation=spec.key)


@command("/query", args="?- GOAL, ….", aliases=("/q",), completer=_goals)
def query(ctx: Context, arg: str, run: Run) -> Answered | Exit | Listing:
    """Answer a query: bindings for its variables, or true / false / unknown when it is ground.

    A query with only anonymous variables (?- bird(_).) answers true or false, and one nothing
    answers says false. Goals include `\\+ G` (not G), `true` and `fail`; ?- halt. leaves and
    ?- listing. lists."""
    if not arg.strip() or arg.strip() == "?-":
        raise UserError("empty query", hint="?- sister_of(X, louis).")
    done = habit(ctx, arg, run)
    if done is not None:
        return done
    return Answered(_answer(ctx, run, plain_query(arg) or parse_query(arg)), run.settings.max_answers)


@command("/infer", args="[N]")
def infer(ctx: Context, arg: str, run: Run) -> Inferred:
    """Run forward chaining to the fixpoint, or for at most N steps; reports violations."""
    arg = arg.strip()
    if arg and not re.fullmatch(r"\d+", arg):
        raise UserError(f"not a step count: {arg!r}", hint="/infer 3")
    steps = int(arg) if arg else run.settings.max_steps
    return Inferred(_bounded(ctx, run).infer(steps))


@command("/why", args="FACT", completer=_predicates)
def why(ctx: Context, arg: str, run: Run) -> Proofs:
    """Show how FACT was derived, as a proof tree (with variables: the first few answers)."""
    atom = parse_atom(arg)
    memory, s = _bounded(ctx, run), run.settings
    if atom.is_ground:
        targets = [atom]
    else:
        answer = _ask(ctx, run, Query((atom,)))
        targets = [Atom(atom.pred, tuple(b.get(a.name, a) if isinstance(a, Var) else a for a in atom.args), atom.neg)
                   for b in answer.bindings[:5]]
    trees: list[ProofNode] = []
    for target in targets:
        tree = memory.why(target, max_depth=s.proof_depth, max_steps=s.max_steps)
        trees.append(tree)
        if tree.status == ABSENT and memory.engine.holds(target.negate()):
            trees.append(proof_tree(memory.engine, target.negate(), max_depth=s.proof_depth))
    _trace_why(ctx, run, arg, trees)
    used = _used_items(ctx, trees)
    return Proofs(trees, used, s.world == "open", read_from(ctx.memory.store, used.values()))


TRACED_PROOF_NODES = 200   # a /why's proof trees in Trace stop here (the transcript has them whole)


def _trace_why(ctx: Context, run: Run, fact: str, trees: list[ProofNode]) -> None:
    """The proof trees in Trace: a node per literal, with the rule that derived it or where it was stated."""
    shown = 0
    run.trace("why", None, "why", fact.strip(), f"{len(trees)} proof tree(s)" if trees else "no answers")

    def walk(node: ProofNode, parent: str) -> None:
        nonlocal shown
        if shown == TRACED_PROOF_NODES:
            run.trace("cut", "why", "why", f"… cut at {TRACED_PROOF_NODES} nodes (the transcript has all)")
        shown += 1
        if shown > TRACED_PROOF_NODES:
            return
        me = f"n{shown}"
        iid = node.rule_id or (item_id(node.literal) if isinstance(node.literal, Atom) else None)
        item = ctx.memory.items.get(iid) if iid else None
        detail = "" if item is None else f"by {item.id}: {item.text}" if node.rule_id else f"{item.id}, {item.source}"
        run.trace(me, parent, "why", str(node.literal), detail, node.status)
        for child in node.children:
            walk(child, me)

    for tree in trees:
        walk(tree, "why")


def _used_items(ctx: Context, trees: list[ProofNode]) -> dict[str, Item]:
    used: dict[str, Item] = {}
    stack = list(trees)
    while stack:
        node = stack.pop()
        iid = node.rule_id or (item_id(node.literal) if isinstance(node.literal, Atom) else None)
        if iid and iid in ctx.memory.items:
            used[iid] = ctx.memory.items[iid]
        stack.extend(node.children)
    return used


LISTING_PAGE = 1_000    # derived facts a listing shows unless --limit says otherwise
LISTING_MOST = 10**9    # … and at most (a page is one SQL LIMIT: Spark's is a 32-bit int)


@command("/listing", args="[PRED[/N]]", completer=_predicates,
         options=(Option("--derived", bool, help="add the derived facts"),
                  Option("--offset", int, metavar="N", low=0, help="derived facts: skip the first N"),
                  Option("--limit", int, metavar="N", low=1, high=LISTING_MOST,
                         help=f"derived facts: show at most N (default {LISTING_PAGE:,})")))
def listing(ctx: Context, args: Args, run: Run) -> Listing:
    """List stored facts and rules with their ids, optionally of one predicate; --derived adds derived facts,
    a page at a time (--offset, --limit)."""
    parts, derived = list(args.words), args.derived
    if len(parts) > 1:
        raise UserError("give at most one predicate", hint="/listing father_of/2")
    paged = {k for k in ("offset", "limit") if k in args.given}
    if paged and not derived:
        raise UserError(f"--{sorted(paged)[0]} pages the derived facts: it goes with --derived",
                        hint="/listing --derived --offset 1000")
    return list_items(ctx, run, parts[0] if parts else None, derived=derived, offset=args.offset or 0,
                      limit=args.limit or LISTING_PAGE)


def list_items(ctx: Context, run: Run, pred: str | None, *, derived: bool = False, offset: int = 0,
               limit: int = LISTING_PAGE) -> Listing:
    """The stored items (of one predicate, `name` or `name/arity`), with a page of the derived facts
    if asked: counted and read from the engine (in its database on a relational one), never all."""
    items = _bounded(ctx, run).listing(pred)
    if not derived:
        return Listing(items)
    return derived_page(ctx.memory.engine, pred, items, offset, limit)


def derived_page(engine, pred: str | None, items: list[Item], offset: int, limit: int) -> Listing:
    """`items` and the derived facts from `offset` (at most `limit`), of the relations `pred` names
    (all: None), with how many there are in all."""
    if pred is None:
        keys: list[str | None] = [None]
    else:
        name, _, arity = pred.partition("/")
        keys = sorted(k for k in engine.relation_keys() if k.lstrip("~").rsplit("/", 1)[0] == name
                      and (not arity or k.rsplit("/", 1)[1] == arity))
    total, shown, skip = 0, [], offset
    for key in keys:
        n = engine.count_facts(key, derived=True)
        total += n
        if skip >= n:
            skip -= n
            continue
        if len(shown) < limit:
            shown += [str(f) for f in engine.facts(key, derived=True, offset=skip, limit=limit - len(shown))]
        skip = 0
    return Listing(items, shown, derived_count=total, offset=offset, pred=pred)


_ID = re.compile(r"[frc][0-9a-f]{2,12}\Z")


@command("/forget", args="ID…|PATTERN", completer=_predicates,
         options=(Option("--derived", bool, help="drop the derived facts only (nothing else with it)"),))
def forget(ctx: Context, args: Args, run: Run) -> Forgotten | Message:
    """Remove items by id (or unique id prefix), facts matching a pattern such as father_of(joshua, _), or a rule by its text; --derived drops the derived facts only."""  # noqa: E501  (help text, shown as written)
    arg = args.text
    if args.derived:
        if arg:
            raise UserError("/forget --derived takes nothing else", hint="/forget --derived  or  /forget ID…")
        n = ctx.memory.forget_derived()
        return Message(f"dropped {n} derived facts; asserted items are unchanged", {"dropped": n})
    if not arg:
        raise UserError("nothing to forget", hint="/forget f1a2b3c  or  /forget father_of(joshua, _)")
    words = arg.split()
    if all(_ID.match(w) for w in words):
        items = [ctx.memory.resolve(w) for w in words]
    else:
        try:
            clauses = [loc.clause for loc in parse_program(arg if arg.endswith(".") else arg + ".")]
        except ParseError as err:  # a pattern such as father_of(joshua, _) is no fact: read it as a query
            try:
                clauses = list(parse_query(arg.removesuffix(".")).body)
            except ParseError:
                raise err from None
        if not clauses:  # only a comment
            raise UserError("nothing to forget", hint="/forget f1a2b3c  or  /forget father_of(joshua, _)")
        items = []
        for clause in clauses:
            if isinstance(clause, Atom):
                found = ctx.memory.matching(clause)
                if not found:
                    derived = clause.is_ground and ctx.memory.engine.holds(clause)
                    hint = "it is derived; forget what it depends on (see /why)" if derived else "/listing shows what is stored"
                    raise UserError(f"no stored fact matches {clause}", hint=hint)
                items += found
            elif isinstance(clause, Rule):
                iid = item_id(clause)
                if iid not in ctx.memory.items:
                    raise UserError(f"no such rule: {clause}", hint="/listing shows rules and their ids")
                items.append(ctx.memory.items[iid])
            else:
                raise UserError(f"cannot forget {'a query' if isinstance(clause, Query) else clause}",
                                hint="/forget takes ids, fact patterns and rules")
    return Forgotten(ctx.memory.remove(dict.fromkeys(it.id for it in items)))
