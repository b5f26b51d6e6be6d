"""Sentence forms for step 3 of step-wise writing: the model picks a form and fills it from enums
of the declared names; sym writes the formula (JSON DSL or SMT-LIB). A sentence that fits no
form may still be written as a formula, limited by the token pattern.

    fact     {"atom": A}                                      cat(tom), Not(cat(tom))
    all      {"if": [A…], "then": [A…]}                       ForAll x: if all hold, then all hold
    some     {"atoms": [A…]}                                  Exists x: all hold
    either   {"atoms": [A…], "exclusive": b}                  Or (Xor: exactly one)
    compare  {"function", "arg", "op", "to": T}               pos(red) < pos(blue), pos(red) == 2
    most     {"function", "arg", "extreme"}                   ForAll x: x != red -> price(red) < price(x)
    formula  {"formula": text}
    none     {}        (a premise only: it sets no condition — an introduction, a remark; left out and named)

An atom is {"not", "predicate", "args"}; x, y, z are variables (an `all`/`some`/`either` binds
those it uses). T is {"function", "arg", "plus"} or {"place", "from_end"}: a place counted
from the end of a closed sort of N members is N + 1 - place. `most` is a superlative ("the
cheapest", "the leftmost"): sym writes the comparison with every other member of the sort, so the
model chooses the function, the member and "highest" or "lowest", and never names the others.
"""

from __future__ import annotations

from typing import Any

from sym.core.reason.pot.vocabulary import VARIABLES, Vocabulary

OPS = ("<", "<=", "==", "!=", ">", ">=")
EXTREMES = {"highest": ">", "lowest": "<"}
_SMT_OP = {"<": "<", "<=": "<=", "==": "=", ">": ">", ">=": ">="}


def _const(value: str) -> dict[str, Any]:
    return {"const": value}


def forms_schema(texts: list[str], vocab: Vocabulary, pattern: str, claims: frozenset[str] = frozenset()) -> dict[str, Any]:
    """The step-3 schema: one item per text, each a choice among the forms ("none" for all but `claims`)."""
    predicates = [f.name for f in vocab.functions if f.result == "Bool" and f.args]
    numeric = [f.name for f in vocab.functions if f.result == "Int" and len(f.args) == 1]
    members = [m for s in vocab.sorts for m in s.members]
    arg = {"enum": [*members, *VARIABLES]} if members else {"enum": list(VARIABLES)}
    # "not" comes last: the model picks the predicate and its arguments first, then whether it is denied
    atom = {"type": "object", "properties": {"predicate": {"enum": predicates},
                                             "args": {"type": "array", "minItems": 1, "maxItems": 3, "items": arg},
                                             "not": {"type": "boolean"}},
            "required": ["predicate", "args", "not"]}
    atoms = {"type": "array", "minItems": 1, "maxItems": 6, "items": atom}
    shapes: list[tuple[str, dict[str, Any], list[str]]] = []
    if predicates:
        shapes += [("fact", {"atom": atom}, ["atom"]),
                   ("all", {"if": atoms, "then": atoms}, ["if", "then"]),
                   ("some", {"atoms": atoms}, ["atoms"]),
                   ("either", {"atoms": {**atoms, "minItems": 2}, "exclusive": {"type": "boolean"}},
                    ["atoms", "exclusive"])]
    if numeric and members:
        term = {"anyOf": [
            {"type": "object", "properties": {"function": {"enum": numeric}, "arg": {"enum": members},
                                              "plus": {"type": "integer"}}, "required": ["function", "arg", "plus"]},
            {"type": "object", "properties": {"place": {"type": "integer"}, "from_end": {"type": "boolean"}},
             "required": ["place", "from_end"]}]}
        shapes.append(("compare", {"function": {"enum": numeric}, "arg": {"enum": members}, "op": {"enum": list(OPS)},
                                   "to": term}, ["function", "arg", "op", "to"]))
        shapes.append(("most", {"function": {"enum": numeric}, "arg": {"enum": members},
                                "extreme": {"enum": list(EXTREMES)}}, ["function", "arg", "extreme"]))
    shapes.append(("formula", {"formula": {"type": "string", "pattern": pattern}}, ["formula"]))

    def item(text: str) -> dict[str, Any]:
        own = shapes if text in claims else [*shapes, ("none", {}, [])]
        return {"anyOf": [{"type": "object", "properties": {"text": _const(text), "form": _const(name), **props},
                           "required": ["text", "form", *required]} for name, props, required in own]}
    return {"type": "object", "properties": {"lines": {"type": "array", "prefixItems": [item(t) for t in texts],
                                                       "items": False, "minItems": len(texts), "maxItems": len(texts)}},
            "required": ["lines"]}


class FormError(ValueError):
    """A form filled in a way sym cannot write (a missing part, an unknown name)."""


def _atom(a: Any, fmt: str) -> tuple[str, set[str]]:
    if not isinstance(a, dict) or not isinstance(a.get("predicate"), str) or not isinstance(a.get("args"), list):
        raise FormError("an atom needs a predicate and its args")
    args = [str(x) for x in a["args"]]
    used = {x for x in args if x in VARIABLES}
    body = f"{a['predicate']}({', '.join(args)})" if fmt == "json" else f"({a['predicate']} {' '.join(args)})"
    if a.get("not"):
        body = f"Not({body})" if fmt == "json" else f"(not {body})"
    return body, used


def _join(parts: list[str], op: str, fmt: str) -> str:
    if len(parts) == 1:
        return parts[0]
    return f"{op}({', '.join(parts)})" if fmt == "json" else f"({op.lower()} {' '.join(parts)})"


def _bind(quantifier: str, used: set[str], body: str, fmt: str, sorts: dict[str, str]) -> str:
    if not used:
        return body
    names = sorted(used)
    if fmt == "json":
        return f"{quantifier}([{', '.join(names)}], {body})"
    binders = " ".join(f"({v} {sorts[v]})" for v in names)
    return f"({'forall' if quantifier == 'ForAll' else 'exists'} ({binders}) {body})"


def _var_sorts(atoms: list[Any], vocab: Vocabulary) -> dict[str, str]:
    fns = {f.name: f for f in vocab.functions}
    out: dict[str, str] = {}
    for a in atoms:
        f = fns.get(a.get("predicate", "")) if isinstance(a, dict) else None
        for i, x in enumerate(a.get("args", []) if isinstance(a, dict) else []):
            if x in VARIABLES and f is not None and i < len(f.args):
                out.setdefault(x, f.args[i])
    for v in VARIABLES:
        out.setdefault(v, vocab.sorts[0].name if vocab.sorts else "Int")
    return out


def render(line: dict[str, Any], vocab: Vocabulary, fmt: str) -> str:
    """The formula a filled form stands for, in `fmt`; FormError when it is incomplete."""
    form = line.get("form")
    if form == "formula":
        text = line.get("formula")
        if not isinstance(text, str) or not text.strip():
            raise FormError("an empty formula")
        return text.strip()
    if form == "fact":
        return _atom(line.get("atom"), fmt)[0]
    if form in ("all", "some", "either"):
        found = [line.get("if"), line.get("then")] if form == "all" else [line.get("atoms")]
        groups: list[list[Any]] = [g for g in found if isinstance(g, list) and g]
        if len(groups) != len(found):
            raise FormError(f"the {form} form needs its atoms")
        sorts = _var_sorts([a for g in groups for a in g], vocab)
        rendered = [[_atom(a, fmt) for a in g] for g in groups]
        used = {v for g in rendered for _, u in g for v in u}
        texts = [[t for t, _ in g] for g in rendered]
        if form == "all":
            head, tail = _join(texts[0], "And", fmt), _join(texts[1], "And", fmt)
            body = f"Implies({head}, {tail})" if fmt == "json" else f"(=> {head} {tail})"
            return _bind("ForAll", used, body, fmt, sorts)
        if form == "some":
            return _bind("Exists", used, _join(texts[0], "And", fmt), fmt, sorts)
        parts = texts[0]
        body = _join(parts, "Or", fmt)
        if line.get("exclusive") and len(parts) == 2:
            body = f"Xor({parts[0]}, {parts[1]})" if fmt == "json" else f"(xor {parts[0]} {parts[1]})"
        elif line.get("exclusive"):
            pairs = [f"Not(And({a}, {b}))" if fmt == "json" else f"(not (and {a} {b}))"
                     for i, a in enumerate(parts) for b in parts[i + 1:]]
            body = _join([body, *pairs], "And", fmt)
        return _bind("ForAll", used, body, fmt, sorts)
    if form == "compare":
        return _compare(line, vocab, fmt)
    if form == "most":
        return _most(line, vocab, fmt)
    raise FormError(f"unknown form {form!r}")


def _compare(line: dict[str, Any], vocab: Vocabulary, fmt: str) -> str:
    fn, arg, op, to = line.get("function"), line.get("arg"), line.get("op"), line.get("to")
    if not (isinstance(fn, str) and isinstance(arg, str) and op in OPS and isinstance(to, dict)):
        raise FormError("the compare form needs a function, an argument, an operator and what it is compared to")
    left = f"{fn}({arg})" if fmt == "json" else f"({fn} {arg})"
    if "place" in to:
        place = int(to.get("place") or 0)
        if to.get("from_end"):
            f = next((f for f in vocab.functions if f.name == fn), None)
            sort = next((s for s in vocab.sorts if f is not None and [s.name] == f.args and s.closed), None)
            if sort is None:
                raise FormError(f"{fn} is not a place in a closed list, so a place from the end has no number")
            place = len(sort.members) + 1 - place
        right = str(place)
    else:
        plus = int(to.get("plus") or 0)
        term = f"{to.get('function')}({to.get('arg')})" if fmt == "json" else f"({to.get('function')} {to.get('arg')})"
        right = term if not plus else (f"{term} + {plus}" if fmt == "json" else f"(+ {term} {plus})")
        if plus < 0:
            right = f"{term} - {-plus}" if fmt == "json" else f"(- {term} {-plus})"
    if fmt == "json":
        return f"{left} {op} {right}"
    return f"(not (= {left} {right}))" if op == "!=" else f"({_SMT_OP[op]} {left} {right})"


def _most(line: dict[str, Any], vocab: Vocabulary, fmt: str) -> str:
    """A superlative: `arg`'s number is above (highest) or below (lowest) every other member's of
    its sort, written over a variable so that the formula names only what the sentence does."""
    fn, arg, extreme = line.get("function"), line.get("arg"), line.get("extreme")
    f = next((f for f in vocab.functions if f.name == fn and f.result == "Int" and len(f.args) == 1), None)
    if f is None or not isinstance(arg, str) or extreme not in EXTREMES:
        raise FormError("the most form needs a numeric function of one argument, a member and highest or lowest")
    op = EXTREMES[str(extreme)]
    if fmt == "json":
        return f"ForAll([x], Implies(x != {arg}, {fn}({arg}) {op} {fn}(x)))"
    return f"(forall ((x {f.args[0]})) (=> (not (= x {arg})) ({op} ({fn} {arg}) ({fn} x))))"
