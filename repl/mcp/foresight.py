"""What a change would clash with, told before it is made: for the question `--approve elicit`
asks, the clashes (p with ~p, a violated constraint) the clauses of a /fact, /rule or /consult,
or the sentences of a /tell the grammar reads, would bring into memory, computed without storing them.

It stays cheap: clauses that cannot clash (core.reason.clashes.could_clash, the check a change
runs before storing) are not looked at; otherwise a scratch engine reads memory's facts in place
(shared, not copied) with its rules and the new clauses, under the same stops as a query. It never
changes memory, and says nothing (None) where it cannot tell.
"""

from __future__ import annotations

from sym.core.errors import UserError
from sym.core.files import read_text_file
from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Atom, Rule
from sym.core.memory.working import WorkingMemory, item_id
from sym.core.reason import clashes
from sym.core.reason.pot.check_horn import support
from sym.core.reason.swm import english, fastpath
from sym.core.stop import Stop

NAMED = 4              # memory items a line names; the rest are counted
NEW = "the new clause"  # what a line calls a clause of the change


def clauses_of(shell, line: str) -> list[Atom | Rule] | None:
    """The clauses a /fact, /rule, /consult or /tell command line would store (None for another command,
    or text that does not parse: the command itself says what is wrong)."""
    from sym.repl.dispatcher import route

    name, arg = route(line)
    try:
        if name == "/fact":
            text = arg if arg.rstrip().endswith(".") else arg + "."
        elif name == "/rule":
            text = arg
        elif name == "/consult":
            text = read_text_file(shell.ctx.path(arg.strip()), shell.ctx.settings.max_file_mb)
        elif name == "/tell":
            text = _told(shell, arg)
        else:
            return None
        return [c for c in (loc.clause for loc in parse_program(text)) if isinstance(c, (Atom, Rule))]
    except (UserError, OSError, ValueError):
        return None


def _told(shell, arg: str) -> str:
    """The clauses of the sentences of a /tell that the grammar reads, as /tell reads them first
    (core.reason.swm.fastpath); those only a model can read, a state's updates and --from are left
    out."""
    parsed = shell.registry.lookup("/tell").parse(arg)
    if parsed.values.get("from") is not None or not parsed.text:
        return ""
    read = fastpath.read(shell.memory, english.split_sentences(parsed.text))
    return "\n".join(c for _, tr, _ in read if tr is not None and not tr.updates for c in tr.clauses)


def clash(shell, line: str) -> str | None:
    """One line naming what the change would clash with in memory, or None (no clash, or not known).
    Runs on the shell's thread (it reads memory)."""
    clauses = clauses_of(shell, line)
    memory: WorkingMemory = shell.memory
    if not clauses or not clashes.could_clash(memory.engine, clauses):
        return None
    settings = shell.ctx.settings
    stop = Stop(shell.ctx.cancel, settings.query_timeout or None, settings.max_facts)
    try:
        earlier = clashes.before(memory.bound(stop), settings.max_steps, clauses)
        scratch = WorkingMemory(memory.workspace)
        scratch.engine.goal_directed = False     # its goal models would read only its own facts, not shared ones
        scratch.engine.share(memory.engine.base())
        stored = memory.engine.rules
        scratch.engine.add_rules(stored)
        new = {item_id(c) for c in clauses if item_id(c) not in memory.items}
        scratch.engine.add_facts(c for c in clauses if isinstance(c, Atom))
        scratch.engine.add_rules({item_id(c): c for c in clauses if isinstance(c, Rule) and item_id(c) not in stored})
        found = scratch.bound(stop).violations(settings.max_steps)
    except UserError:          # max_facts, a timeout, a rule that cannot be stratified: the command says
        return None
    if earlier is not None:
        found = [v for v in found if v not in earlier]
    if not found:
        return None

    def fact_id(atom: Atom) -> str | None:
        iid = item_id(atom)
        return iid if iid in memory.items or iid in new else None

    for violation in found[:clashes.TRACED]:
        ids, _ = support(scratch.engine, violation, fact_id)
        if earlier is None and not ids & new:
            continue
        return _line(violation, [memory.items[i] for i in memory.items if i in ids], len(found))
    return None


def _line(violation, items: list, count: int) -> str:
    if violation.constraint is None:
        what = " and ".join(str(f) for f in violation.facts)
    else:
        what = f"constraint '{violation.constraint}' violated by {', '.join(map(str, violation.facts))}"
    named = ", ".join(f"{it.id} '{it.nl or it.text}'" for it in items[:NAMED])
    if len(items) > NAMED:
        named += f" and {len(items) - NAMED} more"
    more = f" (and {count - 1} more)" if count > 1 else ""
    return f"it would clash: {what}" + (f" — with {named}" if named else f" — from {NEW}s") + more
