"""A proof rests only on what the text says: the facts a model-written program states that no
premise states as a fact.

Seen with the reference model: for the premise "If a design by Max is timeless, then it is a
mass product design and evocative", the program asserted `is_timeless(max_design)`,
`is_mass_product_design(max_design)` and `evocative(max_design)` as facts and then checked the
implication: "proved". A fact here is a knowledge-base entry (or a rule's bare constraint) that
is a ground atom of a declared predicate over named individuals, its negation, or a conjunction
of them. A premise states it when the premise is an assertion (not a condition, a
generalisation, a choice or a question: no "if", "every", "or", ...), says the predicate's words
and names each individual, with the same polarity. The program is then run again without the
facts no premise states (`assumed`): a verdict that changes rested on them, and the caller
reports it as unverified ("the program assumed X"), never as proved. Nothing here calls a model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sym.core.reason.pot.faithful import stems
from sym.core.reason.pot.schema import Assertion, Program
from sym.core.reason.pot.smt2_read import Smt2Error, Smt2Program, forms, symbol
from sym.core.reason.swm.english import split_sentences

if TYPE_CHECKING:
    from collections.abc import Callable

# a sentence that does not state its atoms as facts: a condition, a generalisation, a choice, a
# supposition or a modal ("If a design by Max is timeless, then ...", "Every cat is ...")
_HEDGED = re.compile(r"\b(?:if|when|whenever|unless|provided|suppose|supposing|assume|assuming|or|either|neither|"
                     r"nor|all|every|each|any|anyone|anything|everyone|everything|some|someone|something|whoever|"
                     r"whatever|might|may|could|would|should|can)\b|:-|\?", re.I)
_NEGATED = re.compile(r"\b(?:not|no|never|none|nobody|nothing|cannot)\b|n't\b|~|\\\+", re.I)
_ATOM = re.compile(r"^([A-Za-z_]\w*)(?:\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\))?$")


@dataclass(frozen=True)
class Fact:
    """One fact a program states: where it is (its entry), its text, and its atoms (predicate,
    arguments, negated)."""

    where: tuple[str, int]                       # ("knowledge_base" | "rules" | "smt2", index)
    text: str
    atoms: tuple[tuple[str, tuple[str, ...], bool], ...]


@dataclass
class Assumed:
    """Facts no premise states, and what the program's verdict is without them."""

    facts: list[str]
    before: str | None
    after: str | None

    @property
    def needed(self) -> bool:
        """Whether the verdict rested on the assumed facts (without them it is another)."""
        return self.before != self.after

    def shown(self) -> str:
        said = "; ".join(self.facts[:4]) + (f" (and {len(self.facts) - 4} more)" if len(self.facts) > 4 else "")
        them = "them" if len(self.facts) > 1 else "it"
        return f"unverified: the program assumed {said}, which no premise states" + (
            f" (without {them}: {self.after or 'no verdict'})" if self.needed else "")


def premises_of(question: str, items: list[str] | None = None) -> list[str]:
    """The premises a question's program may rest on: the question's sentences that are not
    themselves questions, and the memory items given to the model (their sentence where they
    have one: `text  % nl`)."""
    said = [s.strip() for s in split_sentences(question) if s.strip() and not s.strip().endswith("?")]
    for item in items or []:
        text, _, nl = item.partition("  % ")
        said.append(nl.strip() or text.strip())
    return said


def _split_args(body: str) -> list[str]:
    """A call's arguments, split at its top-level commas."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(body[start:i].strip())
            start = i + 1
    return [*parts, body[start:].strip()]


def _json_atoms(expr: str, predicates: set[str], constants: set[str]) -> list[tuple[str, tuple[str, ...], bool]] | None:
    """The atoms of a ground conjunction of (negated) atoms, or None for any other expression."""
    expr = expr.strip()
    for head, negated in (("And(", None), ("Not(", True)):
        if expr.startswith(head) and expr.endswith(")"):
            inner = _split_args(expr[len(head):-1])
            if negated is None:
                found = [_json_atoms(part, predicates, constants) for part in inner]
                return None if any(f is None for f in found) else [a for f in found if f for a in f]
            one = _json_atoms(inner[0], predicates, constants) if len(inner) == 1 else None
            return [(p, args, not neg) for p, args, neg in one] if one and len(one) == 1 else None
    m = _ATOM.match(expr)
    if m is None or m.group(1) not in predicates:
        return None
    args = tuple(a.strip() for a in m.group(2).split(",")) if m.group(2) else ()
    return [(m.group(1), args, False)] if all(a in constants for a in args) else None


def json_facts(program: Program) -> list[Fact]:
    """The facts a JSON program states (knowledge-base entries and bare rule constraints)."""
    predicates = {f.name for f in program.functions if f.range in ("BoolSort", "Bool")}
    constants = {m for g in program.constants.values() for m in g.members} | \
        {v for s in program.sorts for v in s.values} | \
        {f.name for f in program.functions if not f.domain and f.range not in ("BoolSort", "Bool")}
    out = []
    for i, entry in enumerate(program.knowledge_base):
        expr, value = (entry, True) if isinstance(entry, str) else (entry.assertion, entry.value)
        if isinstance(entry, Assertion) and entry.variables:
            continue
        atoms = _json_atoms(expr if value else f"Not({expr})", predicates, constants)
        if atoms:
            out.append(Fact(("knowledge_base", i), expr if value else f"Not({expr})", tuple(atoms)))
    for i, rule in enumerate(program.rules):
        if rule.constraint is not None and not rule.forall:
            atoms = _json_atoms(rule.constraint, predicates, constants)
            if atoms:
                out.append(Fact(("rules", i), rule.constraint, tuple(atoms)))
    return out


def _smt2_atoms(tree: Any, predicates: set[str], constants: set[str]) -> list[tuple[str, tuple[str, ...], bool]] | None:
    if isinstance(tree, str):
        name = symbol(tree)
        return [(name, (), False)] if name in predicates else None
    if not tree:
        return None
    head = symbol(tree[0]) if isinstance(tree[0], str) else ""
    if head == "!" and len(tree) >= 2:
        return _smt2_atoms(tree[1], predicates, constants)
    if head == "and":
        found = [_smt2_atoms(t, predicates, constants) for t in tree[1:]]
        return None if any(f is None for f in found) else [a for f in found if f for a in f]
    if head == "not" and len(tree) == 2:
        one = _smt2_atoms(tree[1], predicates, constants)
        return [(p, a, not n) for p, a, n in one] if one and len(one) == 1 else None
    args = tuple(symbol(t) if isinstance(t, str) else "" for t in tree[1:])
    if head in predicates and all(a in constants for a in args):
        return [(head, args, False)]
    return None


def smt2_facts(program: Smt2Program) -> list[Fact]:
    """The facts an SMT-LIB script asserts (`(assert (p c))`, named or not)."""
    try:
        found = forms(program.text)
    except Smt2Error:
        return []
    predicates, constants = set(), set()
    for f in found:
        if f.head == "declare-const" and len(f.tree) == 3:
            constants.add(symbol(f.tree[1]))
        elif f.head == "declare-fun" and len(f.tree) == 4 and isinstance(f.tree[2], list):
            name, bool_valued = symbol(f.tree[1]), f.tree[3] == "Bool"
            if bool_valued:
                predicates.add(name)
            elif not f.tree[2]:
                constants.add(name)
        elif f.head == "declare-datatypes" or f.head == "declare-datatype":
            constants |= {symbol(t) for t in _leaves(f.tree[2:])}
    out = []
    for i, f in enumerate(found):
        if f.head == "assert" and len(f.tree) == 2:
            atoms = _smt2_atoms(f.tree[1], predicates, constants)
            if atoms:
                out.append(Fact(("smt2", i), program.text[f.start:f.end], tuple(atoms)))
    return out


def _leaves(tree: Any) -> list[str]:
    out, todo = [], [tree]
    while todo:
        t = todo.pop()
        if isinstance(t, list):
            todo.extend(t)
        elif isinstance(t, str) and t[:1].isalpha():
            out.append(t)
    return out


def facts(program: Any) -> list[Fact]:
    return smt2_facts(program) if isinstance(program, Smt2Program) else json_facts(program)


def states(premise: str, atom: tuple[str, tuple[str, ...], bool]) -> bool:
    """Whether a premise states an atom as a fact: an assertion that says the predicate's words,
    names each argument and has the atom's polarity."""
    if _HEDGED.search(premise):
        return False
    predicate, args, negated = atom
    said = stems(premise)
    if not stems(predicate) <= said or any(stems(a) and not stems(a) & said for a in args):
        return False
    return bool(_NEGATED.search(premise)) == negated


def unstated(program: Any, premises: list[str]) -> list[Fact]:
    """The facts of a program that no premise states."""
    return [f for f in facts(program) if not all(any(states(p, atom) for p in premises) for atom in f.atoms)]


def without(program: Any, dropped: list[Fact]) -> Any:
    """The program with the `dropped` facts taken out."""
    gone = {f.where for f in dropped}
    if isinstance(program, Smt2Program):
        text = program.text
        spans = [(form.start, form.end) for i, form in enumerate(forms(program.text)) if ("smt2", i) in gone]
        for start, end in sorted(spans, reverse=True):
            text = text[:start] + text[end:]
        return Smt2Program(text, program.source, program.strict)
    kb = [e for i, e in enumerate(program.knowledge_base) if ("knowledge_base", i) not in gone]
    rules = [r for i, r in enumerate(program.rules) if ("rules", i) not in gone]
    return program.model_copy(update={"knowledge_base": kb, "rules": rules})


def check_assumed(program: Any, premises: list[str], verdict: str | None,
                  rerun: Callable[[Any], str | None]) -> Assumed | None:
    """The facts no premise states and the verdict without them (`rerun(program)`: the verdict
    of a program), or None when every fact the program states is a premise's."""
    dropped = unstated(program, premises)
    if not dropped:
        return None
    return Assumed([f.text for f in dropped], verdict, rerun(without(program, dropped)))
