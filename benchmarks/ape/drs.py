"""A DRS (as APE writes it) → clauses of sym's logic, mechanically; or `Outside`, with the DRS
condition sym's logic cannot say.

What each DRS condition becomes (predicate names as sym's lexicon writes them, from the lemma):

| DRS | clause |
|---|---|
| `named(A, 'John')`, `object(A, 'John', named, …)` | the constant `john` (lower case, `-` → `_`) |
| `object(A, cat, countable, na, eq, 1)`, `object(A, water, mass, na, na, na)` | `cat(A)`, `water(A)` |
| `object(A, something/somebody/thing/person, …)` | nothing (sym's *something*, *someone*, *thing*, *person* add no predicate) |
| `property(A, tall, pos)` | `tall(A)` |
| `property(A, tall, comp_than, B)` | `taller_than(A, B)` (the comparative lemminflect gives; else `more_tall_than`) |
| `property(A, 'fond-of', pos, B)` | `fond_of(A, B)` |
| `predicate(E, wait, A)`, `predicate(E, like, A, B)` | `waits(A)`, `likes(A, B)` (third person, as sym's `third_person`) |
| `predicate(E, live, A)` + `modifier_pp(E, in, B)` | `lives_in(A, B)` |
| `predicate(E, be, A)` + `modifier_pp(E, in, B)` | `in(A, B)` |
| `predicate(E, be, A, B)` (B a thing or property introduced in that box) | B is A: B's conditions are A's |
| `object(B, brother, …)` + `relation(B, of, C)` | `brother_of(B, C)` (the noun of a relation is no type of its own) |
| a referent of the top box | a constant of its own (Skolem): what the text says of *a cat* / *the cat* |
| `A => B` | rules `head :- body` (A's referents are the variables; a rule inside B adds its body) |
| `-B`, B one atom | strong negation `~atom` (a fact, a head, or a body literal) |
| `-B`, B more than one atom, at the top or in a consequent | a constraint `:- …` |
| `A => -B` where A says nothing (`Nobody barks.`) | the constraint `:- barks(X).` |
| `A v B` in a condition | one rule per alternative |
| `[object(X, car, …, leq, 2), predicate(E, own, J, X)]` (top) | `:- aggregate_all(count, (car(X), owns(john, X)), N), N > 2.` |

Everything else is outside: plurals and cardinalities (`eq 2`, `geq 2`, `has_part`), measures,
numbers, strings and arithmetic (`int`, `real`, `string`, `expr`, `formula`), adverbs
(`modifier_adv`), three-place relations (a verb with an object and a prepositional phrase, or two
objects), questions (`question`, `query`), commands, modality (`can`, `must`, `should`, `may`),
subordinated sentences (`A:drs`), negation as failure (`~`), identity of two things (`be` where
neither side is new, or a denied identity), disjunction in a fact or a consequent, a negated compound in a condition,
a rule inside a condition, something new in a consequent (an existential head), and a rule with
nothing in its condition.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from benchmarks.ape.prolog import Struct, Var
from sym.core.logic.terms import Atom
from sym.core.logic.terms import Var as LVar


class Outside(Exception):
    """The DRS has a condition sym's logic cannot say (the message names it)."""


@dataclass(frozen=True, order=True)
class Sk:
    """A constant of the text's own: a referent of the top box (APE's *a cat*, *the cat*)."""

    key: str

    def __str__(self) -> str:
        return f"#{self.key}"


Clause = tuple[Atom | None, tuple[Atom, ...]]      # (head, body): a fact has no body; a constraint no head

THINGS = frozenset({"something", "somebody", "someone", "thing", "person", "everything", "everybody"})
MODAL = {"can": "modality (can)", "must": "modality (must)", "should": "modality (should)",
         "may": "modality (may)", "question": "a question", "command": "a command"}
OUTSIDE_BASIC = {"has_part": "a plural (has_part)", "query": "a question (query)", "formula": "arithmetic (formula)",
                 "modifier_adv": "an adverb (modifier_adv)"}


# -- names: DRS lemma → sym's predicate and constant names --------------------------------------------------

def word(lemma: str) -> str:
    """A noun or adjective lemma as sym names its predicate."""
    return lemma.lower().replace("-", "_")


def constant(name: str) -> str:
    """A proper name as sym writes its constant (`John` → `john`, `Mary-Ann` → `mary_ann`)."""
    return name.lower().replace("-", "_")


@lru_cache(maxsize=4096)
def verb(lemma: str) -> str:
    """A verb lemma as sym names it: the third person (`like` → `likes`, `look-at` → `looks_at`)."""
    from sym.core.reason.swm.english import third_person
    head, *rest = lemma.lower().split("-")
    return "_".join([third_person(head), *rest])


@lru_cache(maxsize=4096)
def comparative(lemma: str) -> str:
    """`tall` → `taller` (lemminflect's JJR), else `more_tall`."""
    import lemminflect
    forms = lemminflect.getInflection(lemma.lower(), tag="JJR")
    return forms[0] if forms and " " not in forms[0] else f"more_{word(lemma)}"


# -- the DRS ------------------------------------------------------------------------------------------------

def _strip(cond: Any) -> Any:
    """A condition without its position index (`cond-1`, `cond-1/4`)."""
    if isinstance(cond, Struct) and cond.functor == "-" and len(cond.args) == 2 and \
            (isinstance(cond.args[1], int) or isinstance(cond.args[1], Struct) and cond.args[1].functor == "/"):
        return cond.args[0]
    return cond


@dataclass
class Box:
    refs: list[str]
    conds: list[Any]


def _box(term: Any) -> Box:
    if not (isinstance(term, Struct) and term.functor == "drs" and len(term.args) == 2):
        raise Outside(f"a condition that is not a DRS box: {_show(term)}")
    refs, conds = term.args
    return Box([r.name for r in refs if isinstance(r, Var)], [_strip(c) for c in conds])


def _show(term: Any) -> str:
    if isinstance(term, Struct):
        return f"{term.functor}/{len(term.args)}"
    return repr(term)


def _walk(box: Box) -> Iterable[tuple[Box, Any]]:
    """Every (box, basic or complex condition) in the DRS, depth first."""
    for cond in box.conds:
        yield box, cond
        if isinstance(cond, list):                      # a count's conditions, in the same box
            yield from _walk(Box(box.refs, [_strip(c) for c in cond]))
        elif isinstance(cond, Struct):
            for arg in cond.args:
                if isinstance(arg, Struct) and arg.functor == "drs":
                    yield from _walk(_box(arg))
                elif isinstance(arg, Struct) and arg.functor in ("-", "~") and len(arg.args) == 1:
                    yield from _walk(_box(arg.args[0]))


class Translator:
    """One DRS → clauses. Referents are the Prolog variables' names: a name's referent stands
    for its constant (`names`), one a copula merged for the other side (`merged`), one of the top
    box for a Sk, and one of a condition's box for a logic variable (the scopes)."""

    def __init__(self, drs: Any) -> None:
        self.top = _box(drs)
        self.names: dict[str, str] = {}
        self.nouns: dict[str, str] = {}
        self.merged: dict[str, Any] = {}       # referent → what `be` made it (a referent name or a constant)
        self.events: set[str] = set()
        self.mods: dict[str, list[tuple[str, Any]]] = {}
        self.relation_nouns: set[str] = set()
        self._survey()

    # a first pass: names, nouns, events, modifiers, copulas
    def _survey(self) -> None:
        conds = list(_walk(self.top))
        for _, c in conds:
            if isinstance(c, list):                     # [conds…] with a `leq` object: "at most 2 cars"
                continue
            if not isinstance(c, Struct):
                raise Outside(f"a condition that is not a term: {c!r}")
            if c.functor == "named" and len(c.args) == 2:
                self._name(c.args[0], c.args[1])
            elif c.functor == "object" and len(c.args) == 6 and c.args[2] == "named":
                if tuple(c.args[4:]) != ("eq", 1):          # "VisaCards wait.": a plural of a name
                    raise Outside(f"a plural or a count of a name ({c.args[4]} {c.args[5]})")
                self._name(c.args[0], c.args[1])
            elif c.functor == "object" and len(c.args) == 6 and isinstance(c.args[0], Var):
                self.nouns[c.args[0].name] = str(c.args[1])
            elif c.functor == "predicate" and c.args and isinstance(c.args[0], Var):
                self.events.add(c.args[0].name)
            elif c.functor == "modifier_pp" and len(c.args) == 3 and isinstance(c.args[0], Var):
                self.mods.setdefault(c.args[0].name, []).append((str(c.args[1]), c.args[2]))
            elif c.functor == "relation" and len(c.args) == 3 and isinstance(c.args[0], Var):
                self.relation_nouns.add(c.args[0].name)
        for box, c in conds:
            if isinstance(c, Struct) and c.functor == "predicate" and len(c.args) == 4 and c.args[1] == "be":
                self._copula(box, c.args[2], c.args[3])

    def _name(self, ref: Any, name: Any) -> None:
        if not isinstance(ref, Var) or not isinstance(name, str):
            raise Outside("a name that is not a word")
        self.names[ref.name] = constant(name)

    def _ref(self, arg: Any) -> Var:
        """A referent; a name in place (`named('Mary')`) gets a referent of its own."""
        if isinstance(arg, Struct) and arg.functor == "named" and len(arg.args) == 1 and isinstance(arg.args[0], str):
            ref = Var("named:" + arg.args[0])
            self.names[ref.name] = constant(arg.args[0])
            return ref
        if not isinstance(arg, Var):
            raise Outside(f"a number, string or expression as a thing ({_show(arg)})")
        return arg

    def _final(self, ref: str) -> str:
        """The referent `ref` stands for after the copulas (`be`) merged it."""
        seen = set()
        while ref in self.merged and ref not in seen:
            seen.add(ref)
            ref = self.merged[ref]
        return ref

    def _copula(self, box: Box, subject: Any, complement: Any) -> None:
        subject, complement = self._ref(subject), self._ref(complement)
        a, b = self._final(subject.name), self._final(complement.name)
        if a == b:
            return
        if a in self.names and b in self.names and self.names[a] == self.names[b]:
            return
        own = set(box.refs) - set(self.names)
        if b in own:
            self.merged[b] = a
        elif a in own:
            self.merged[a] = b
        else:
            raise Outside("identity of two things (be with nothing new)")

    # the second pass: clauses
    def clauses(self) -> list[Clause]:
        scope = {r: Sk(self.nouns.get(r, "") + ":" + r) for r in self.top.refs}
        out: list[Clause] = []
        for cond in self.top.conds:
            out += self._top(cond, scope)
        return list(dict.fromkeys(out))

    def _own(self, box: Box) -> list[str]:
        """The box's referents that stand for things (not events, not names, not merged away)."""
        return [r for r in box.refs if r not in self.events and r not in self.names and r not in self.merged]

    def _term(self, arg: Any, scope: dict[str, Any]) -> Any:
        if isinstance(arg, Struct) and arg.functor == "named" and len(arg.args) == 1 and isinstance(arg.args[0], str):
            return constant(arg.args[0])            # the newer format's name in place: named('Mary')
        if not isinstance(arg, Var):
            raise Outside(f"a number, string or expression as a thing ({_show(arg)})")
        ref = self._final(arg.name)
        if ref in self.names:
            return self.names[ref]
        if ref in scope:
            return scope[ref]
        raise Outside("a referent outside its box")

    def _basic(self, c: Struct, scope: dict[str, Any]) -> list[Atom]:
        f, args = c.functor, c.args
        if f in OUTSIDE_BASIC:
            raise Outside(OUTSIDE_BASIC[f])
        if f == "named" or f == "modifier_pp" or f == "object" and len(args) == 6 and args[2] == "named":
            return []
        if f == "object" and len(args) == 6:
            ref, noun, count, unit, op, num = args
            if unit != "na":
                raise Outside(f"a measure ({unit})")
            if noun == "na" or not (count == "countable" and (op, num) == ("eq", 1) or
                                    count in ("mass", "dom") and (op, num) == ("na", "na")):
                raise Outside(f"a plural or a count ({op} {num})")
            if count == "dom" or noun in THINGS or ref.name in self.relation_nouns:
                return []
            return [Atom(word(str(noun)), (self._term(ref, scope),))]
        if f == "property" and len(args) == 3 and args[2] == "pos":
            return [Atom(word(str(args[1])), (self._term(args[0], scope),))]
        if f == "property" and len(args) == 4 and args[2] in ("pos", "comp_than"):
            name = word(str(args[1])) if args[2] == "pos" else comparative(str(args[1])) + "_than"
            return [Atom(name, (self._term(args[0], scope), self._term(args[3], scope)))]
        if f == "property":
            raise Outside(f"a comparison ({args[2] if len(args) in (3, 4) else args[3] if len(args) > 3 else '?'})")
        if f == "relation" and len(args) == 3:
            if args[1] != "of":
                raise Outside(f"a relation '{args[1]}'")
            noun = self.nouns.get(args[0].name)
            if noun is None:
                raise Outside("a relation of no noun")
            return [Atom(word(noun) + "_of", (self._term(args[0], scope), self._term(args[2], scope)))]
        if f == "predicate":
            return self._predicate(args, scope)
        raise Outside(f"the condition {_show(c)}")

    def _predicate(self, args: tuple[Any, ...], scope: dict[str, Any]) -> list[Atom]:
        event, lemma, *roles = args
        mods = self.mods.get(event.name, [])
        if len(mods) > 1:
            raise Outside("a verb with two prepositional phrases")
        if len(roles) == 1:
            subject = self._term(roles[0], scope)
            if not mods:
                if lemma == "be":
                    raise Outside("'be' with no complement")
                return [Atom(verb(str(lemma)), (subject,))]
            prep, obj = mods[0]
            name = prep if lemma == "be" else f"{verb(str(lemma))}_{prep}"
            return [Atom(word(name), (subject, self._term(obj, scope)))]
        if len(roles) == 2:
            if lemma == "be":
                if mods:                            # "Every man is fast in every park."
                    raise Outside("a copula with a prepositional phrase (is fast in a park)")
                return []                           # merged in the survey
            if mods:
                raise Outside("a three-place relation (a verb with an object and a prepositional phrase)")
            return [Atom(verb(str(lemma)), (self._term(roles[0], scope), self._term(roles[1], scope)))]
        raise Outside("a three-place relation (a verb with two objects)")

    def _complex(self, c: Any) -> str | None:
        if isinstance(c, list):
            return "count"
        if isinstance(c, Struct):
            if c.functor in MODAL:
                raise Outside(MODAL[c.functor])
            if c.functor == ":":
                raise Outside("a subordinated sentence (that …)")
            if c.functor == "~" and len(c.args) == 1:
                raise Outside("negation as failure (it is not provable that …)")
            if c.functor == "-" and len(c.args) == 1:
                return "neg"
            if c.functor == "=>" and len(c.args) == 2:
                return "rule"
            if c.functor == "v" and len(c.args) == 2:
                return "or"
        return None

    def _fresh(self, box: Box, scope: dict[str, Any]) -> dict[str, Any]:
        inner = dict(scope)
        for ref in box.refs:
            inner.setdefault(ref, LVar("V" + ref))
        return inner

    def _negated(self, term: Any, scope: dict[str, Any]) -> tuple[list[str], list[Atom], dict[str, Any]]:
        box = _box(term.args[0])
        inner = self._fresh(box, scope)
        atoms: list[Atom] = []
        for cond in box.conds:
            if self._complex(cond) is not None:
                raise Outside("a negated compound (a rule, a negation or a disjunction inside a negation)")
            atoms += self._basic(cond, inner)
        if not atoms:                                   # "It is not the case.": not (A is A)
            raise Outside("a negation of nothing (a contradiction, or an identity denied)")
        return self._own(box), atoms, inner

    def _top(self, cond: Any, scope: dict[str, Any]) -> list[Clause]:
        kind = self._complex(cond)
        if kind is None:
            return [(a, ()) for a in self._basic(cond, scope)]
        if kind == "neg":
            own, atoms, _ = self._negated(cond, scope)
            if len(atoms) == 1 and not own:
                return [(atoms[0].negate(), ())]
            return [(None, tuple(atoms))]
        if kind == "rule":
            return self._rules(cond, scope, [()])
        if kind == "count":
            return [self._count(cond, scope)]
        raise Outside("a disjunction in a fact")

    def _count(self, items: list[Any], scope: dict[str, Any]) -> Clause:
        """`[conds…]` with one `object(X, N, …, leq, K)`: at most K things X with the conditions →
        `:- aggregate_all(count, (N(X), conds…), C), C > K.` (as count_literal writes it), for a
        count at the top over names and X alone."""
        conds = [_strip(c) for c in items]
        counted = [c for c in conds if isinstance(c, Struct) and c.functor == "object" and len(c.args) == 6
                   and c.args[4] == "leq"]
        if len(counted) != 1 or not isinstance(counted[0].args[0], Var):
            raise Outside("a count of more than one thing")
        ref, noun, count, unit, _, k = counted[0].args
        if unit != "na" or not isinstance(k, int) or count not in ("countable", "mass") or noun == "na":
            raise Outside(f"a count of a measure or a group ({unit} {k})")
        x = LVar("X")
        inner = {**scope, self._final(ref.name): x}
        atoms = [] if noun in THINGS else [Atom(word(str(noun)), (x,))]
        for c in conds:
            if c is counted[0]:
                continue
            if self._complex(c) is not None:
                raise Outside("a count over a compound condition")
            atoms += self._basic(c, inner)
        if any(isinstance(a, Sk) for atom in atoms for a in atom.args):
            raise Outside("a count that speaks of a thing of the text's own")
        return count_literal(atoms, k)

    def _bodies(self, box: Box, scope: dict[str, Any]) -> list[tuple[Atom, ...]]:
        """The alternatives (one per disjunct) of a condition box, as literal tuples."""
        alternatives: list[tuple[Atom, ...]] = [()]
        for cond in box.conds:
            kind = self._complex(cond)
            if kind is None:
                lits: list[tuple[Atom, ...]] = [tuple(self._basic(cond, scope))]
            elif kind == "neg":
                own, atoms, _ = self._negated(cond, scope)
                if len(atoms) != 1 or own:
                    raise Outside("a negated compound in a condition")
                lits = [(atoms[0].negate(),)]
            elif kind == "count":
                raise Outside("a count in a condition")
            elif kind == "or":
                lits = [alt for side in cond.args for alt in self._bodies(_box(side), self._fresh(_box(side), scope))]
            else:
                raise Outside("a rule inside a condition")
            alternatives = [a + b for a in alternatives for b in lits]
        return alternatives

    def _rules(self, cond: Struct, scope: dict[str, Any], outer: list[tuple[Atom, ...]]) -> list[Clause]:
        ante, cons = _box(cond.args[0]), _box(cond.args[1])
        inner = self._fresh(ante, scope)
        bodies = [o + b for o in outer for b in self._bodies(ante, inner)]
        if self._own(cons):
            raise Outside("something new in a consequent (an existential)")
        inner = self._fresh(cons, inner)
        out: list[Clause] = []
        for c in cons.conds:
            kind = self._complex(c)
            if kind is None:
                out += [(a, body) for a in self._basic(c, inner) for body in bodies]
            elif kind == "neg":
                own, atoms, _ = self._negated(c, inner)
                if len(atoms) == 1 and not own:
                    out += [(atoms[0].negate(), body) for body in bodies]
                else:
                    out += [(None, body + tuple(atoms)) for body in bodies]
            elif kind == "rule":
                out += self._rules(c, inner, bodies)
            elif kind == "count":
                raise Outside("a count in a consequent")
            else:
                raise Outside("a disjunction in a consequent")
        checked: list[Clause] = []
        for head, body in out:
            if not body and head is not None and head.neg:          # "Nobody barks.": :- barks(X).
                head, body = None, (head.negate(),)
            if not body:
                raise Outside("a rule with nothing in its condition (about everything)")
            bound = {a for lit in body for a in lit.args if isinstance(a, LVar)}
            if head is not None and any(isinstance(a, LVar) and a not in bound for a in head.args):
                raise Outside("a rule whose head has a variable its condition does not bind")
            checked.append((head, body))
        return checked


def count_literal(atoms: list[Atom], k: int) -> Clause:
    """A constraint "at most k X with atoms(X)" as one comparable literal: its conjunction written
    with X as the only variable (names are constants), sorted; `#count>k`. compare.py writes sym's
    `:- aggregate_all(count, Goal, N), N > k.` the same way."""
    key = " & ".join(sorted(f"{'~' if a.neg else ''}{a.pred}({','.join('X' if isinstance(v, LVar) else repr(v) for v in a.args)})"
                            for a in dict.fromkeys(atoms)))
    return (None, (Atom(f"#count>{k}", (key,)),))


def translate(drs: Any) -> list[Clause]:
    """The DRS's clauses, or raises Outside (the reason). An empty DRS (APE refused the text) gives []."""
    return Translator(drs).clauses()
