"""SMT-LIB 2 programs: `/prove --file x.smt2` and programs a model writes with `proof_format smt2`.

Z3's own SMT-LIB parser reads every term (nothing is evaluated); sym reads only the script's
command structure, and passes Z3 nothing but declarations, definitions and assertions: option,
output and file commands are dropped, unknown commands rejected. Reading a script:

- `(assert F)` at the top level is the knowledge base; `(assert (! F :named n))` is named `n` in an
  unsat core, an assertion with a comment on the line above (or after it on its line) by the comment,
  others by their line.
- a verification is `(check-sat-assuming (g …))`, named by its literals (a Bool constant or a
  0-ary `define-fun`: `(define-fun |Tom is an animal| () Bool (animal tom))`), or a `(check-sat)`
  inside `(push)` … `(pop)`, whose claim is the conjunction of the scope's assertions;
- `(minimize t)` / `(maximize t)` in a scope make the scope an optimization (its assertions the
  constraints); a `(check-sat)` at the top level only asks for consistency.

The verdicts are those of JSON programs (core/reason/pot/interpret.py): proved, refuted, unknown
with model and counter-model, inconsistent with a core. Errors name the line and column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sym.core.llm.jsonout import BadJSON
from sym.core.reason.pot.declare import BuildError
from sym.core.text import valid_text

if TYPE_CHECKING:
    import z3

    from sym.core.reason.pot.build import Built

DECLARATIONS = frozenset({"declare-sort", "define-sort", "declare-fun", "declare-const", "define-fun",
                          "define-fun-rec", "define-funs-rec", "declare-datatype", "declare-datatypes"})
IGNORED = frozenset({"set-logic", "set-info", "set-option", "get-model", "get-value", "get-info", "get-option",
                     "get-assertions", "get-assignment", "get-unsat-core", "get-unsat-assumptions", "get-proof",
                     "get-objectives", "echo", "exit"})
MAX_DEPTH = 2_000
_Z3_ERROR = re.compile(r'\(error "(?:line (\d+) column (\d+): )?(.*?)"\)', re.S)
_TOKEN = re.compile(r'\s+|;[^\n]*|"(?:[^"]|"")*"|\|[^|]*\||[()]|[^\s()";|]+')


class Smt2Error(BuildError):
    """A script sym cannot read: the problem, with its line and column."""


@dataclass
class Smt2Program:
    """An SMT-LIB script as given (what /program shows and /export smt2 writes back)."""

    text: str
    source: str = "program.smt2"

    def model_dump(self, **_: Any) -> dict[str, Any]:
        return {"smt2": self.text}


@dataclass
class _Form:
    head: str
    tree: list[Any]          # the form as nested lists of tokens
    start: int
    end: int
    line: int
    column: int
    note: str = ""           # the comment on the line above it, or after it on its own line


@dataclass
class _Item:
    kind: str                # kb | goal | scoped | objective
    line: int
    text: str                # the source, whitespace collapsed
    name: str = ""
    index: int = -1          # its place among the assertions Z3 returns
    objective: str = ""      # minimize | maximize


@dataclass
class _Script:
    kept: list[tuple[int, int, str]] = field(default_factory=list)   # (start, end, replacement) over the source
    items: list[_Item] = field(default_factory=list)
    goals: list[tuple[str, int, list[_Item]]] = field(default_factory=list)   # (name, line, parts)
    optimizations: list[tuple[list[_Item], list[_Item]]] = field(default_factory=list)   # (constraints, objectives)
    names: dict[str, int] = field(default_factory=dict)   # declared symbol -> order of declaration


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _error(text: str, offset: int, message: str) -> Smt2Error:
    line, column = _position(text, offset)
    return Smt2Error(f"line {line} column {column}: {message}")


def forms(text: str) -> list[_Form]:
    """The script's top-level forms (comments, strings and |quoted symbols| respected)."""
    out: list[_Form] = []
    stack: list[tuple[int, list[Any]]] = []
    pos = 0
    pending = opening = ""        # the comment above the next top-level form, and above this one
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:     # an unterminated string or |symbol|
            raise _error(text, pos, "unterminated string or |symbol|")
        tok, start, pos = m.group(), m.start(), m.end()
        if tok[0] == ";" and not stack:
            note = tok.lstrip(";").strip()
            if out and not out[-1].note and "\n" not in text[out[-1].end:start]:
                out[-1].note = note                     # (assert F) ; what F says
            else:
                pending = note                          # ; what F says \n (assert F)
            continue
        if tok[0].isspace() or tok[0] == ";":
            if tok.count("\n") > 1:
                pending = ""                            # a blank line ends a comment's reach
            continue
        if tok == "(":
            if not stack:
                opening, pending = pending, ""
            if len(stack) >= MAX_DEPTH:
                raise _error(text, start, f"nested deeper than {MAX_DEPTH} parentheses")
            stack.append((start, []))
        elif tok == ")":
            if not stack:
                raise _error(text, start, "unexpected ')': it closes nothing (the form before it is complete; "
                                          "count that form's parentheses)")
            begin, tree = stack.pop()
            if stack:
                stack[-1][1].append(tree)
            else:
                head = tree[0] if tree and isinstance(tree[0], str) else ""
                line, column = _position(text, begin)
                out.append(_Form(head, tree, begin, pos, line, column, opening))
        elif stack:
            stack[-1][1].append(tok)
        else:
            raise _error(text, start, f"expected '(' before {tok[:30]!r}")
    if stack:
        raise _error(text, stack[-1][0], "this '(' is never closed")
    return out


def _symbol(token: Any) -> str:
    return token[1:-1] if isinstance(token, str) and token.startswith("|") else str(token)


def _flat(tree: Any) -> str:
    """A form back as text (iteratively: nesting up to MAX_DEPTH)."""
    out: list[str] = []
    todo: list[Any] = [tree]
    while todo:
        t = todo.pop()
        if isinstance(t, list):
            todo.append(")")
            todo.extend(reversed([x for item in t for x in (item, " ")][:-1]))
            out.append("(")
        else:
            out.append(str(t))
    return "".join(out)


def _declared(form: _Form) -> list[str]:
    """The symbols a declaration introduces (constructors of a datatype included)."""
    tree = form.tree
    if form.head in ("declare-const", "declare-fun", "define-fun", "define-fun-rec", "declare-sort", "define-sort"):
        return [_symbol(tree[1])] if len(tree) > 1 else []
    if form.head == "declare-datatypes" and len(tree) > 2:
        names = []
        for body in tree[2] if isinstance(tree[2], list) else []:
            for ctor in body if isinstance(body, list) else []:
                names.append(_symbol(ctor[0] if isinstance(ctor, list) and ctor else ctor))
        return names
    if form.head == "declare-datatype" and len(tree) > 2 and isinstance(tree[2], list):
        return [_symbol(c[0] if isinstance(c, list) and c else c) for c in tree[2]]
    return []


def _read(text: str) -> _Script:
    script = _Script()
    scopes: list[list[_Item]] = []        # per open push: its assertions and objectives
    for form in forms(text):
        head, tree, where = form.head, form.tree, f"line {form.line} column {form.column}"
        if head in DECLARATIONS:
            script.kept.append((form.start, form.end, text[form.start:form.end]))
            for name in _declared(form):
                script.names.setdefault(name, len(script.names))
        elif head in IGNORED:
            continue
        elif head == "assert":
            if len(tree) != 2:
                raise Smt2Error(f"{where}: assert takes one formula")
            body, name = tree[1], ""
            if isinstance(body, list) and body and body[0] == "!" and ":named" in body:
                at = body.index(":named")
                name = _symbol(body[at + 1]) if at + 1 < len(body) else ""
            name = name or form.note
            item = _Item("scoped" if scopes else "kb", form.line, " ".join(text[form.start:form.end].split()), name)
            script.kept.append((form.start, form.end, text[form.start:form.end]))
            script.items.append(item)
            if scopes:
                scopes[-1].append(item)
        elif head in ("push", "pop"):
            count = int(tree[1]) if len(tree) > 1 and str(tree[1]).isdigit() else 1
            if head == "push":
                scopes.extend([] for _ in range(count))
            elif count > len(scopes):
                raise Smt2Error(f"{where}: pop {count} with {len(scopes)} scope(s) open")
            else:
                del scopes[len(scopes) - count:]
        elif head in ("minimize", "maximize"):
            if not scopes or len(tree) != 2:
                raise Smt2Error(f"{where}: write ({head} TERM) inside (push) … (check-sat) (pop)")
            item = _Item("objective", form.line, _flat(tree[1]), objective=head)
            script.kept.append((form.start, form.end, f"(assert (= {_flat(tree[1])} {_flat(tree[1])}))"))
            script.items.append(item)
            scopes[-1].append(item)
        elif head == "check-sat-assuming":
            if len(tree) != 2 or not isinstance(tree[1], list) or not tree[1]:
                raise Smt2Error(f"{where}: write (check-sat-assuming (GOAL))")
            literals = [_flat(t) for t in tree[1]]
            item = _Item("goal", form.line, " ".join(literals))
            script.kept.append((form.start, form.end, f"(assert (and {' '.join(literals)} true))"))
            script.items.append(item)
            name = " ".join(_symbol(t) if isinstance(t, str) else _flat(t) for t in tree[1])
            script.goals.append((name, form.line, [item]))
        elif head == "check-sat":
            open_items = [i for scope in scopes for i in scope]
            objectives = [i for i in open_items if i.kind == "objective"]
            claims = [i for i in open_items if i.kind == "scoped"]
            if objectives:
                script.optimizations.append((claims, objectives))
            elif claims:
                name = " and ".join(i.name or i.text[len("(assert "):-1] for i in claims)
                script.goals.append((name, form.line, claims))
        else:
            raise Smt2Error(f"{where}: sym does not run {head or 'this form'!r} "
                            "(declarations, assert, push/pop, check-sat, check-sat-assuming, minimize/maximize)")
    for scope in scopes:          # still asserted at the end of the script
        for item in scope:
            if item.kind == "scoped":
                item.kind = "kb"
    return script


def _z3_text(text: str, script: _Script) -> str:
    """The source with only the kept commands, at their own lines (Z3's errors name the right line)."""
    out, pos = [], 0
    for start, end, replacement in script.kept:
        out.append(re.sub(r"[^\n]", " ", text[pos:start]))
        out.append(replacement)
        pos = end
    return "".join(out)


def _z3_error(err: Exception) -> Smt2Error:
    value = getattr(err, "value", None)
    raw = value.decode(errors="replace") if isinstance(value, bytes) else str(err)
    m = _Z3_ERROR.search(raw)
    if m is None:
        return Smt2Error(raw.strip() or "Z3 could not read the script")
    where = f"line {m.group(1)} column {m.group(2)}: " if m.group(1) else ""
    message = m.group(3).replace('\\"', '"')
    hint = next((h for key, h in _Z3_HINTS if key in message.lower()), None)
    return Smt2Error(where + message, hint=hint)


_Z3_HINTS = (
    ("invalid sorted variable", "bind variables as (forall ((x S) (y S)) F): each in its own parentheses, "
                                "all inside one pair"),
    ("unknown sort", "declare a sort before using it: (declare-sort S 0); Int, Real and Bool are built in"),
    ("declared:", "call the function with the number and sorts of arguments it was declared with"),
    ("unknown constant", "declare every name before using it: (declare-const c S), or (declare-fun p (S) Bool) "
                         "for a property"),
)


def build_smt2(program: Smt2Program, z3_context: z3.Context | None = None) -> tuple[Built, dict[str, str]]:
    """(built program, core label -> source text) for a script; Smt2Error when it cannot be read."""
    import z3

    from sym.core.reason.pot.build import Built, Objective
    from sym.core.reason.pot.schema import MAX_PROGRAM_CHARS

    text = valid_text(program.text)   # what Z3 can encode: no lone surrogate or NUL, LF line ends
    try:
        if len(text) > MAX_PROGRAM_CHARS:
            raise Smt2Error(f"larger than {MAX_PROGRAM_CHARS} characters")
        script = _read(text)
        ctx = z3_context or z3.Context()
        try:
            parsed = list(z3.parse_smt2_string(_z3_text(text, script), ctx=ctx))
        except z3.Z3Exception as err:
            raise _z3_error(err) from None
    except Smt2Error as err:
        raise Smt2Error(f"{program.source}: {err.message}",
                        hint=err.hint or "an SMT-LIB 2 script: declarations, (assert F), and a (check-sat-assuming (GOAL)) "
                             "per claim") from None
    if len(parsed) != len(script.items):
        raise Smt2Error(f"Z3 read {len(parsed)} assertions where sym counted {len(script.items)}")
    for i, item in enumerate(script.items):
        item.index = i
    env = _env(ctx, parsed, script.names)
    texts: dict[str, str] = {}
    background = []
    for item, formula in zip(script.items, parsed):
        if item.kind == "kb":
            label = item.name or f"line {item.line}"
            label = f"{label} (line {item.line})" if label in texts else label
            texts[label] = item.text
            background.append((label, formula))
    verifications = []
    for name, line, parts in script.goals:
        formulas = [parsed[p.index] for p in parts]
        body = formulas[0] if len(formulas) == 1 else z3.And(*formulas)
        if len(parts) == 1 and parts[0].kind == "goal":
            body = body.arg(0) if body.num_args() == 2 else z3.And(*body.children()[:-1])
        verifications.append(_verification(name, line, body))
    built = Built(env, background, verifications)
    for constraints, objectives in script.optimizations:
        built.has_optimization = True
        built.constraints = [(c.name or f"line {c.line}", parsed[c.index]) for c in constraints]
        built.objectives = [Objective(o.objective, o.text, parsed[o.index].arg(0)) for o in objectives]
    built.order = {label: i for i, label in enumerate(texts)}
    return built, texts


def _verification(name: str, line: int, body: z3.BoolRef) -> Any:
    """A claim; a quantified one binds constants, so that models can name its witnesses."""
    import z3

    from sym.core.reason.pot.build import Verification

    if z3.is_quantifier(body) and (body.is_exists() or body.is_forall()):
        consts = [z3.FreshConst(body.var_sort(i), prefix=body.var_name(i)) for i in range(body.num_vars())]
        inner = z3.substitute_vars(body.body(), *reversed(consts))
        return Verification(name, f"line {line}", "exists" if body.is_exists() else "forall", consts, inner,
                            [body.var_name(i) for i in range(body.num_vars())])
    return Verification(name, f"line {line}", None, [], body, [])


def _env(zctx: z3.Context, formulas: list[Any], order: dict[str, int]) -> Any:
    """What the script declared, found in its formulas: constants, functions, sorts and named values."""
    import z3

    from sym.core.reason.pot.declare import Env, is_bool, is_numeric

    env = Env(zctx)
    seen: set[int] = set()
    todo = list(formulas)
    while todo:
        e = todo.pop()
        if e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_quantifier(e):
            todo.append(e.body())
            continue
        if not z3.is_app(e):
            continue
        todo.extend(e.children())
        d = e.decl()
        for s in [e.sort(), *(d.domain(i) for i in range(d.arity()))]:
            if not (is_bool(s) or is_numeric(s)):
                env.sorts.setdefault(s.name(), s)
        if d.kind() == z3.Z3_OP_UNINTERPRETED:
            if d.arity() == 0:
                env.constants[d.name()] = e
            else:
                env.functions[d.name()] = (d, [d.domain(i) for i in range(d.arity())], d.range())
    for name, s in env.sorts.items():
        if isinstance(s, z3.DatatypeSortRef):
            for i in range(s.num_constructors()):
                c = s.constructor(i)
                if c.arity() == 0:
                    env.constants.setdefault(c.name(), c())
                    env.members.setdefault(name, []).append(c.name())
        else:
            env.members[name] = [n for n, t in env.constants.items() if t.sort() == s]
    def rank(n: str) -> int:
        return order.get(n.split("(")[0], len(order))

    env.constants = dict(sorted(env.constants.items(), key=lambda kv: rank(kv[0])))
    env.functions = dict(sorted(env.functions.items(), key=lambda kv: rank(kv[0])))
    for name in env.members:
        env.members[name].sort(key=rank)
    return env


def looks_like_smt2(text: str, name: str = "") -> bool:
    """An SMT-LIB script by its file name (.smt2, .smt) or its first character ('(' or ';')."""
    if name.lower().endswith((".smt2", ".smt")):
        return True
    head = text.lstrip()[:1]
    return head in ("(", ";")


def run_smt2(program: Smt2Program, *, timeout_ms: int, cancel: Any = None) -> Any:
    """Check a script as interpret.run checks a JSON program (the same report)."""
    from sym.core.reason.pot.interpret import check_built

    return check_built(build_smt2(program)[0], timeout_ms=timeout_ms, cancel=cancel)


def entry_texts_smt2(program: Smt2Program) -> dict[str, str]:
    return build_smt2(program)[1]


_SCRIPT_LINE = re.compile(r"^[ \t]*([(;])", re.M)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n(.*?)(?:```|$)", re.S)


def script_in_reply(text: str) -> Smt2Program:
    """The SMT-LIB script in a model's reply (a fenced block, or from the first '(' to the last ')')."""
    fenced = [b for b in _FENCE.findall(text) if "(" in b]
    body = fenced[0] if fenced else text
    first = _SCRIPT_LINE.search(body)             # a line that opens a form or is a comment ("; (a remark)")
    start, end = (first.start(1) if first else body.find("(")), body.rfind(")")
    if start < 0 or end < start:
        raise BadJSON("no SMT-LIB script in the reply: write (declare-…), (assert …) and (check-sat-assuming (…))")
    return Smt2Program(body[start:end + 1], "the model's script")


_PROSE_AFTER = re.compile(r"\n[ \t]*[^\s(;)]")


def script_complete(text: str) -> bool:
    """Whether a reply being streamed already holds a whole script, so reading can stop there
    (`LLM.chat(until=…)`): a fenced block that has closed, or, unfenced, balanced forms with a
    (check-sat…) among them followed by a line of prose."""
    opened = text.find("```")
    if opened >= 0:
        return text.find("```", opened + 3) >= 0
    depth, checked, end, i = 0, False, -1, 0
    while i < len(text):
        c = text[i]
        if c == ";":                      # a comment runs to the end of its line
            nl = text.find("\n", i)
            i = len(text) if nl < 0 else nl
            continue
        if c == '"':                      # a string literal ("" is a quote inside it)
            close = text.find('"', i + 1)
            if close < 0:
                return False
            i = close + 1
            continue
        if c == "(":
            if depth == 0:
                start = i
            depth += 1
        elif c == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                end = i + 1
                checked = checked or text.startswith("(check-sat", start)
        i += 1
    return checked and depth == 0 and bool(_PROSE_AFTER.search(text, end))
