"""The scope of one sentence's reading: its variables (of a rule, of quantified objects), what it
asserts on the side, how its constants were written; and the two ways a reading fails (`Rejected`:
not this reading; `Refused`: the sentence's reading, which logic would misstate)."""

from __future__ import annotations

import re
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

from sym.core.logic.terms import Atom, Var

Arg = str | Var     # what a noun phrase stands for: a constant, or a variable of a rule


class Rejected(Exception):
    """This reading does not give a sound translation."""


class Refused(Rejected):
    """This reading is the sentence's, but its logic would misstate it (a word class whose meaning
    is not a property of each thing): the reason is worth telling the user."""


# the descriptions a rule may name as known things ("The box is red. Every cat is in the box."): the
# /tell's earlier sentences and memory (fastpath.py sets it); by default none
KNOWN_DESCRIPTIONS: ContextVar[Callable[[str], bool] | None] = ContextVar("known_descriptions", default=None)

Written = frozenset[tuple[str, bool]]      # (constant, True if written as a proper name, False as "the …")
Nouns = frozenset[str]                     # the one-place predicates a sentence read from nouns ("an animal")


@dataclass
class Scope:
    """Variables of one sentence; `rule` is False for facts (no variables allowed)."""

    rule: bool
    order: list[Var] = field(default_factory=list)
    body: list[Atom] = field(default_factory=list)      # class atoms of indefinite NPs ("a cat")
    # "a big dog" → (("big",), "dog", X): what "the dog" in the consequent refers back to
    indefinites: list[tuple[tuple[str, ...], str, Var]] = field(default_factory=list)
    head: bool = False                                  # reading a conditional's consequent
    names: set[str] = field(default_factory=set)        # constants from proper names …
    descriptions: set[str] = field(default_factory=set)  # … and from definite descriptions
    # reading what the sentence asserts (a fact, a rule's head): only there may an object be
    # quantified ("likes every cat") or a name get a non-restrictive relative ("Al, who is tall,")
    asserting: bool = False
    # a quantified object's variable → (every | any | no | the, its restriction): each head that
    # holds the variable becomes a rule over the restriction ("likes(bob, X) :- cat(X).")
    universal: dict[Var, tuple[str, list[Atom]]] = field(default_factory=dict)
    side: list[Atom] = field(default_factory=list)      # what non-restrictive relatives assert
    roles: dict[Var, tuple[str, Arg]] = field(default_factory=dict)   # "Bob's sister" → (sister_of, bob)
    # reading a condition (a conditional's antecedent, a generic's relative clause): only there is an
    # indefinite object read, as a variable of the body ("If a farmer owns a donkey …")
    conditions: bool = False
    existential: set[Var] = field(default_factory=set)   # the variables of indefinite objects
    # the descriptions of a rule that repeat no antecedent, each with the nouns of the rule's things it
    # might be ("the animal" in "If a cat is hungry then …" → ("animal", ["cat"]))
    loose: list[tuple[str, list[str]]] = field(default_factory=list)
    cases: dict[str, set[str]] = field(default_factory=dict)   # a one-word name's constant → how written (C, W)
    # the one-place predicates read from a noun ("an animal", "animals"), said so again in the paraphrase
    # (animal is an adjective too: "X is animal" would read back the same, but is not what was said)
    nouns: set[str] = field(default_factory=set)

    def written(self) -> Written:
        return frozenset({(c, True) for c in self.names} | {(c, False) for c in self.descriptions})

    def check_constants(self) -> None:
        """A proper name and a definite description never share a constant ("Bill pays the bill")."""
        shared = self.names & self.descriptions
        if shared:
            raise Refused(f"'{sorted(shared)[0]}' is both a name and a description")

    def check_definites(self) -> None:
        """In a rule whose variables a noun introduced ("a cat", "every cat", "cats"), a *the M* that
        repeats none of its nouns, read where one of those things could stand ("the animal" in "If a cat
        is hungry then the animal eats.": the cat?), may be that thing under another noun or a thing the
        text named before: refused, unless it is a description known already (a constant of memory or
        of an earlier sentence). The subject of the definite's own clause is no candidate (that would be
        *itself*: "Cats chase the dog.", "Every cat that sees the dog runs." name the dog), nor is a
        description the rule read before (it repeats that one). A rule of *something* / *someone* only,
        or of no variable, has no noun for a description to bridge to: its descriptions are its
        constants ("If someone visits the cat then the cat is red.")."""
        known = KNOWN_DESCRIPTIONS.get()
        for const, others in self.loose:
            if known is None or not known(const):
                heads = sorted(set(others))
                raise Refused(f"'the {const}' repeats no noun of the rule: it may be its {' or '.join(heads)} or a "
                              f"thing named before (say {' or '.join(f'the {h}' for h in heads)!r} for the rule's, "
                              f"or tell of the {const} first)")

    def fresh(self) -> Var:
        if not self.rule:
            raise Rejected("a variable in a fact")
        var = self._var()
        self.order.append(var)
        return var

    def _var(self) -> Var:
        n = len(self.order) + len(self.universal)
        return Var("XYZWUV"[n] if n < 6 else f"V{n}")

    def quantified(self, quant: str, what: str) -> Var:
        """The variable of a quantified object (or of a possessive: "Bob's sister"), whose restriction
        is set by the caller; only in what the sentence asserts."""
        if not self.asserting:
            raise Refused(f"'{what}' in a condition or a question is no condition a rule can test")
        var = self._var()
        self.universal[var] = (quant, [])
        return var

    def settle(self, heads: list[Atom]) -> list[Atom]:
        """The heads with what their quantified objects say: "likes no cat" negates the head
        (refused under a negation), "does not like every cat" (not all) has no rule."""
        out = []
        for head in heads:
            for arg in head.args:
                quant = self.universal[arg][0] if isinstance(arg, Var) and arg in self.universal else None
                if quant == "every" and head.neg:
                    raise Refused("'not … every' says that some are not: which ones?")
                if quant == "no":
                    if head.neg:
                        raise Refused("a double negation ('no' under 'not')")
                    head = head.negate()
            out.append(head)
        return out

    def restriction(self, head: Atom) -> list[Atom]:
        """The conditions of the quantified objects in a head. A possessive other than in "Bob's sister
        is Al." says that there is one ("Bob's dog waits.": some dog of Bob's), which no rule says."""
        out = []
        for arg in dict.fromkeys(head.args):
            if isinstance(arg, Var) and arg in self.universal:
                quant, atoms = self.universal[arg]
                if quant == "the":
                    raise Refused(f"'{atoms[0].pred.removesuffix('_of')} of {atoms[0].args[1]}' says there is one: "
                                  "name it (\"Bob's sister is Al.\")")
                out += atoms
        return out

    def pronoun(self) -> Var:
        named = [v for v in self.order if len(v.name) == 1 and v.name in "XYZWUV"]
        if len(named) != 1:
            raise Rejected("a pronoun with no single antecedent")
        return named[0]


def _pred(parts: list[str]) -> str:
    name = "_".join(p.lower().replace("-", "_") for p in parts)
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name) or name in ("not", "false", "true"):
        raise Rejected(f"not a predicate name: {name}")
    return name
