"""Controlled-English sentences made of invented words, each with the logic the naming scheme says
it must translate to (or, for questions, the goal it asks; for "outside", nothing at all). The
trust categories (TRUST_CATEGORIES) put invented words around real closed-class words whose
meaning is not the plain reading; each item says whether it must be refused or read one way.

Invented words keep the grammar honest: it has to hold for words no lexicon knows. Everything is
driven by one `random.Random`, so a seed fixes the test data. Used by the English unit and
property tests and by benchmarks/english_bench.py; it never imports the translator itself.
"""

from __future__ import annotations

import random

from sym.core.logic.terms import Var, format_const
from tests.english_lexicon import NP, Item, Lexicon, X, _cap, atom, fact, normal_clause, normal_clauses, normal_query, rule

# the words, the expected logic and Item live in tests/english_lexicon.py; tests import them from here
__all__ = ["CATEGORIES", "GENERATORS", "STATEMENT_CATEGORIES", "Item", "Lexicon", "X", "atom", "fact", "generate",
           "items", "normal_clause", "normal_clauses", "normal_query", "rule", "text"]


def _names(lx: Lexicon, rng: random.Random) -> Item:
    a, adj = lx.name(plain=True), lx.adj()
    form = rng.randrange(8)
    if form == 0:
        return Item("names", f"{a.text} is {adj}.", [fact(adj, a.const)])
    if form == 1:   # names are case-insensitive
        return Item("names", f"{a.const} is {adj}.", [fact(adj, a.const)])
    if form == 2:
        n = rng.randint(0, 9)
        return Item("names", f"{a.text} {n} is {adj}.", [fact(adj, f"{a.const}_{n}")])
    if form == 3:
        b = lx.name_word()
        return Item("names", f"{a.text} {b} is {adj}.", [fact(adj, f"{a.const}_{b.lower()}")])
    if form == 4:
        noun = lx.noun().sg
        return Item("names", f"The {noun} is {adj}.", [fact(adj, noun)])
    if form == 5:
        noun, adj2 = lx.noun().sg, lx.adj()
        return Item("names", f"The {adj2} {noun} is {adj}.", [fact(adj, f"{adj2} {noun}")])
    verb, noun, adj2 = lx.verb(), lx.noun().sg, lx.adj()
    if form == 6:
        return Item("names", f"{a.text} {verb.s} the {adj2} {noun}.", [fact(verb.s, a.const, f"{adj2} {noun}")])
    b = lx.name()
    return Item("names", f"The {adj2} {noun} {verb.s} {b.text}.", [fact(verb.s, f"{adj2} {noun}", b.const)])


def _copula(lx: Lexicon, rng: random.Random) -> Item:
    x, adj = lx.individual(), lx.adj()
    if rng.random() < 0.5:
        return Item("copula", f"{x.start} is {adj}.", [fact(adj, x.const)])
    return Item("copula", f"{x.start} is not {adj}.", [fact(adj, x.const, neg=True)])


def _membership(lx: Lexicon, rng: random.Random) -> Item:
    x, noun = lx.individual(), lx.noun()
    if rng.random() < 0.6:
        return Item("membership", f"{x.start} is {noun.article} {noun.sg}.", [fact(noun.sg, x.const)])
    return Item("membership", f"{x.start} is not {noun.article} {noun.sg}.", [fact(noun.sg, x.const, neg=True)])


def _generics(lx: Lexicon, rng: random.Random) -> Item:
    n, adj, adj2 = lx.noun(), lx.adj(), lx.adj()
    form = rng.randrange(10)
    neg = form % 2 == 1
    nt = " not" if neg else ""
    if form in (0, 1):
        return Item("generics", f"{_cap(n.pl)} are{nt} {adj}.", [rule(atom(adj, X, neg=neg), atom(n.sg, X))])
    if form in (2, 3):
        m = lx.noun()
        return Item("generics", f"{_cap(n.pl)} are{nt} {m.pl}.", [rule(atom(m.sg, X, neg=neg), atom(n.sg, X))])
    if form in (4, 5):
        return Item("generics", f"{_cap(adj2)} {n.pl} are{nt} {adj}.",
                    [rule(atom(adj, X, neg=neg), atom(adj2, X), atom(n.sg, X))])
    if form in (6, 7):
        cls = rng.choice(["things", "people"])
        return Item("generics", f"{_cap(adj2)} {cls} are{nt} {adj}.", [rule(atom(adj, X, neg=neg), atom(adj2, X))])
    if form == 8:
        adj3 = lx.adj()
        return Item("generics", f"{_cap(adj2)}, {adj3} things are {adj}.",
                    [rule(atom(adj, X), atom(adj2, X), atom(adj3, X))])
    m = lx.noun()
    return Item("generics", f"{_cap(adj2)} {n.pl} are {m.pl}.", [rule(atom(m.sg, X), atom(adj2, X), atom(n.sg, X))])


def _quantifiers(lx: Lexicon, rng: random.Random) -> Item:
    n, m, adj, adj2 = lx.noun(), lx.noun(), lx.adj(), lx.adj()
    form = rng.randrange(12)
    q = rng.choice(["Every", "Each", "Any"])
    if form == 0:
        return Item("quantifiers", f"All {n.pl} are {adj}.", [rule(atom(adj, X), atom(n.sg, X))])
    if form == 1:
        return Item("quantifiers", f"{q} {n.sg} is {adj}.", [rule(atom(adj, X), atom(n.sg, X))])
    if form == 2:
        return Item("quantifiers", f"{q} {n.sg} is {m.article} {m.sg}.", [rule(atom(m.sg, X), atom(n.sg, X))])
    if form == 3:
        return Item("quantifiers", f"All {n.pl} are {m.pl}.", [rule(atom(m.sg, X), atom(n.sg, X))])
    if form == 4:
        return Item("quantifiers", f"No {n.sg} is {adj}.", [rule(atom(adj, X, neg=True), atom(n.sg, X))])
    if form == 5:
        return Item("quantifiers", f"No {n.pl} are {adj}.", [rule(atom(adj, X, neg=True), atom(n.sg, X))])
    if form == 6:
        return Item("quantifiers", f"No {n.sg} is {m.article} {m.sg}.", [rule(atom(m.sg, X, neg=True), atom(n.sg, X))])
    if form == 7:
        return Item("quantifiers", f"All {adj2} things are {adj}.", [rule(atom(adj, X), atom(adj2, X))])
    if form == 8:
        return Item("quantifiers", f"All {adj2} things are not {adj}.", [rule(atom(adj, X, neg=True), atom(adj2, X))])
    if form == 9:
        return Item("quantifiers", f"{q} {adj2} {n.sg} is {adj}.", [rule(atom(adj, X), atom(adj2, X), atom(n.sg, X))])
    v, y = lx.verb(), lx.individual()
    if form == 10:
        return Item("quantifiers", f"{q} {n.sg} {v.s} {y.text}.", [rule(atom(v.s, X, y.const), atom(n.sg, X))])
    return Item("quantifiers", f"All {n.pl} {v.base} {y.text}.", [rule(atom(v.s, X, y.const), atom(n.sg, X))])


def _relative(lx: Lexicon, rng: random.Random) -> Item:
    n, m, adj, adj2 = lx.noun(), lx.noun(), lx.adj(), lx.adj()
    rel = rng.choice(["that", "who", "which"])
    form = rng.randrange(10)
    if form == 0:   # "Every mammal that lives in water is a swimmer."
        v, prep, where = lx.verb(), lx.prep(), lx.noun().sg
        return Item("relative", f"Every {n.sg} {rel} {v.s} {prep} {where} is {m.article} {m.sg}.",
                    [rule(atom(m.sg, X), atom(n.sg, X), atom(f"{v.s}_{prep}", X, where))])
    if form == 1:
        return Item("relative", f"{_cap(n.pl)} {rel} are {adj} are {adj2}.", [rule(atom(adj2, X), atom(n.sg, X), atom(adj, X))])
    if form == 2:
        cls = rng.choice(["People who", "Things that", "Things which"])
        return Item("relative", f"{cls} are {adj} are {adj2}.", [rule(atom(adj2, X), atom(adj, X))])
    if form == 3:
        adj3 = lx.adj()
        return Item("relative", f"Things that are {adj} and {adj3} are {adj2}.",
                    [rule(atom(adj2, X), atom(adj, X), atom(adj3, X))])
    v, y = lx.verb(), lx.individual()
    if form == 4:
        return Item("relative", f"Every {n.sg} {rel} {v.s} {y.text} is {adj}.",
                    [rule(atom(adj, X), atom(n.sg, X), atom(v.s, X, y.const))])
    if form == 5:
        return Item("relative", f"{_cap(n.pl)} {rel} {v.base} {y.text} are {adj}.",
                    [rule(atom(adj, X), atom(n.sg, X), atom(v.s, X, y.const))])
    if form == 6:
        return Item("relative", f"All {n.pl} {rel} are {adj} are {m.pl}.", [rule(atom(m.sg, X), atom(n.sg, X), atom(adj, X))])
    if form == 7:
        return Item("relative", f"Every {n.sg} {rel} is {adj} is {adj2}.", [rule(atom(adj2, X), atom(n.sg, X), atom(adj, X))])
    if form == 8:
        return Item("relative", f"Every {n.sg} {rel} is {m.article} {m.sg} is {adj}.",
                    [rule(atom(adj, X), atom(n.sg, X), atom(m.sg, X))])
    return Item("relative", f"{_cap(n.pl)} {rel} do not {v.base} {y.text} are {adj}.",
                [rule(atom(adj, X), atom(n.sg, X), atom(v.s, X, y.const, neg=True))])


def _coordination(lx: Lexicon, rng: random.Random) -> Item:
    a, b, adj, adj2 = lx.individual(), lx.individual(), lx.adj(), lx.adj()
    form = rng.randrange(9)
    if form == 0:
        return Item("coordination", f"{a.start} and {b.text} are {adj}.", [fact(adj, a.const), fact(adj, b.const)])
    if form == 1:
        c = lx.individual()
        return Item("coordination", f"{a.start}, {b.text} and {c.text} are {adj}.",
                    [fact(adj, a.const), fact(adj, b.const), fact(adj, c.const)])
    if form == 2:
        n = lx.noun()
        return Item("coordination", f"{a.start} and {b.text} are {n.pl}.", [fact(n.sg, a.const), fact(n.sg, b.const)])
    if form == 3:
        return Item("coordination", f"{a.start} is {adj} and {adj2}.", [fact(adj, a.const), fact(adj2, a.const)])
    if form == 4:
        adj3 = lx.adj()
        return Item("coordination", f"{a.start} is {adj}, {adj2} and {adj3}.",
                    [fact(adj, a.const), fact(adj2, a.const), fact(adj3, a.const)])
    if form == 5:
        return Item("coordination", f"{a.start} is {adj} but not {adj2}.", [fact(adj, a.const), fact(adj2, a.const, neg=True)])
    if form == 6:
        return Item("coordination", f"{a.start} is {adj} and not {adj2}.", [fact(adj, a.const), fact(adj2, a.const, neg=True)])
    v, c = lx.verb(), lx.individual()
    if form == 7:
        return Item("coordination", f"{a.start} {v.s} {b.text} and {c.text}.",
                    [fact(v.s, a.const, b.const), fact(v.s, a.const, c.const)])
    return Item("coordination", f"{a.start} and {b.text} {v.base} {c.text}.",
                [fact(v.s, a.const, c.const), fact(v.s, b.const, c.const)])


def _verbs(lx: Lexicon, rng: random.Random) -> Item:
    x, y, v, n = lx.individual(), lx.individual(), lx.verb(), lx.noun()
    does = rng.choice(["does not", "doesn't"])
    do = rng.choice(["do not", "don't"])
    form = rng.randrange(9)
    if form == 0:
        return Item("verbs", f"{x.start} {v.s} {y.text}.", [fact(v.s, x.const, y.const)])
    if form == 1:
        return Item("verbs", f"{x.start} {does} {v.base} {y.text}.", [fact(v.s, x.const, y.const, neg=True)])
    if form == 2:
        return Item("verbs", f"{_cap(n.pl)} {v.base} {y.text}.", [rule(atom(v.s, X, y.const), atom(n.sg, X))])
    if form == 3:
        return Item("verbs", f"{_cap(n.pl)} {do} {v.base} {y.text}.", [rule(atom(v.s, X, y.const, neg=True), atom(n.sg, X))])
    if form == 4:
        return Item("verbs", f"{x.start} {v.s}.", [fact(v.s, x.const)])
    if form == 5:
        return Item("verbs", f"{x.start} {does} {v.base}.", [fact(v.s, x.const, neg=True)])
    p = lx.prep()
    if form == 6:
        return Item("verbs", f"{x.start} {v.s} {p} {y.text}.", [fact(f"{v.s}_{p}", x.const, y.const)])
    if form == 7:
        return Item("verbs", f"{x.start} {does} {v.base} {p} {y.text}.", [fact(f"{v.s}_{p}", x.const, y.const, neg=True)])
    return Item("verbs", f"{_cap(n.pl)} {v.base} {p} {y.text}.", [rule(atom(f"{v.s}_{p}", X, y.const), atom(n.sg, X))])


def _relations(lx: Lexicon, rng: random.Random) -> Item:
    x, y, adj, n = lx.individual(), lx.individual(), lx.adj(), lx.noun()
    form = rng.randrange(9)
    if form == 0:
        return Item("relations", f"{x.start} is {adj} of {y.text}.", [fact(f"{adj}_of", x.const, y.const)])
    if form == 1:
        return Item("relations", f"{x.start} is not {adj} of {y.text}.", [fact(f"{adj}_of", x.const, y.const, neg=True)])
    if form == 2:   # "Wolves are afraid of mice.": a bare plural object is a kind, named as written
        m = lx.noun()
        return Item("relations", f"{_cap(n.pl)} are {adj} of {m.pl}.", [rule(atom(f"{adj}_of", X, m.pl), atom(n.sg, X))])
    if form == 3:
        return Item("relations", f"{x.start} is to the {n.sg} of {y.text}.", [fact(f"{n.sg}_of", x.const, y.const)])
    if form == 4:
        side = rng.choice(["left", "right"])
        return Item("relations", f"{x.start} is to the {side} of {y.text}.", [fact(f"{side}_of", x.const, y.const)])
    if form == 5:
        d = rng.choice(["north", "south", "east", "west"])
        return Item("relations", f"{x.start} is {d} of {y.text}.", [fact(f"{d}_of", x.const, y.const)])
    if form == 6:   # relational nouns
        return Item("relations", f"{x.start} is the {n.sg} of {y.text}.", [fact(f"{n.sg}_of", x.const, y.const)])
    if form == 7:
        return Item("relations", f"{x.start} is the {adj} {n.sg} of {y.text}.", [fact(f"{adj}_{n.sg}_of", x.const, y.const)])
    return Item("relations", f"{x.start} is not the {n.sg} of {y.text}.", [fact(f"{n.sg}_of", x.const, y.const, neg=True)])


def _conditionals(lx: Lexicon, rng: random.Random) -> Item:
    a1, a2, a3 = lx.adj(), lx.adj(), lx.adj()
    some, pron = rng.choice([("something", "it"), ("someone", "they"), ("someone", "he"), ("someone", "she")])
    form = rng.randrange(12)
    if form in (2, 3, 6, 8) and pron in ("he", "she"):     # a name in the sentence could be "he": refused
        some, pron = "someone", "they"
    cop = "are" if pron == "they" else "is"
    if form == 0:
        return Item("conditionals", f"If {some} is {a1} then {pron} {cop} {a2}.", [rule(atom(a2, X), atom(a1, X))])
    if form == 1:
        return Item("conditionals", f"If {some} is {a1} and {a3} then {pron} {cop} {a2}.",
                    [rule(atom(a2, X), atom(a1, X), atom(a3, X))])
    v, v2, y, z = lx.verb(), lx.verb(), lx.individual(), lx.individual()
    vp = v2.base if pron == "they" else v2.s
    if form == 2:
        return Item("conditionals", f"If {some} {v.s} {y.text} then {pron} {vp} {z.text}.",
                    [rule(atom(v2.s, X, z.const), atom(v.s, X, y.const))])
    if form == 3:
        neg = "do not" if pron == "they" else "does not"
        return Item("conditionals", f"If {some} is {a1} and not {a3} then {pron} {neg} {v2.base} {y.text}.",
                    [rule(atom(v2.s, X, y.const, neg=True), atom(a1, X), atom(a3, X, neg=True))])
    if form == 4:
        return Item("conditionals", f"If {y.text} is {a1} then {z.text} is {a2}.", [rule(atom(a2, z.const), atom(a1, y.const))])
    if form == 5:   # CLUTRR shape, letter variables
        r1, r2, r3 = lx.noun().sg, lx.noun().sg, lx.noun().sg
        b, a, c = rng.sample("ABCDEFGH", 3)
        return Item("conditionals", f"If {b} is the {r1} of {a}, and {c} is the {r2} of {b}, then {c} is the {r3} of {a}.",
                    [rule(atom(f"{r3}_of", Var(c), Var(a)), atom(f"{r1}_of", Var(b), Var(a)), atom(f"{r2}_of", Var(c), Var(b)))])
    if form == 6:   # the pronoun as object
        return Item("conditionals", f"If something {v.s} {y.text} and it is {a1} then {y.text} {v2.s} it.",
                    [rule(atom(v2.s, y.const, X), atom(v.s, X, y.const), atom(a1, X))])
    if form == 7:
        n = lx.noun()
        return Item("conditionals", f"If {some} is {n.article} {n.sg} then {pron} {cop} {a2}.",
                    [rule(atom(a2, X), atom(n.sg, X))])
    if form == 8:   # three premises
        return Item("conditionals", f"If {some} is {a1} and {pron} {cop} {a3} and {pron} {vp} {y.text} then {pron} {cop} {a2}.",
                    [rule(atom(a2, X), atom(a1, X), atom(a3, X), atom(v2.s, X, y.const))])
    if form == 9:
        return Item("conditionals", f"If {y.text} is {a1} and {y.text} {v.s} {z.text} then {z.text} is not {a2}.",
                    [rule(atom(a2, z.const, neg=True), atom(a1, y.const), atom(v.s, y.const, z.const))])
    opener = rng.choice(["When", "Whenever"])
    if form == 10:     # when / whenever open a conditional as if does
        return Item("conditionals", f"{opener} {y.text} is {a1}, {z.text} is {a2}.", [rule(atom(a2, z.const), atom(a1, y.const))])
    # the condition after the consequence: "B if A." / "B whenever A."
    word = rng.choice(["if", "whenever"])
    return Item("conditionals", f"{z.start} is {a2} {word} {y.text} {v.s} {z.text}.",
                [rule(atom(a2, z.const), atom(v.s, y.const, z.const))])


def _object_quantifiers(lx: Lexicon, rng: random.Random) -> Item:
    """every / each / all / no / any in object position: a rule over the object's restriction."""
    x, n, m, v, adj = lx.name(plain=True), lx.noun(), lx.noun(), lx.verb(), lx.adj()
    Y = Var("Y")
    form = rng.randrange(8)
    if form == 0:
        q = rng.choice(["every", "each"])
        return Item("object_quantifiers", f"{x.text} {v.s} {q} {n.sg}.", [rule(atom(v.s, x.const, X), atom(n.sg, X))])
    if form == 1:
        return Item("object_quantifiers", f"{x.text} {v.s} all {n.pl}.", [rule(atom(v.s, x.const, X), atom(n.sg, X))])
    if form == 2:
        return Item("object_quantifiers", f"{x.text} {v.s} no {n.sg}.", [rule(atom(v.s, x.const, X, neg=True), atom(n.sg, X))])
    if form == 3:
        return Item("object_quantifiers", f"{x.text} does not {v.base} any {n.sg}.",
                    [rule(atom(v.s, x.const, X, neg=True), atom(n.sg, X))])
    if form == 4:
        return Item("object_quantifiers", f"Every {m.sg} {v.s} every {n.sg}.",
                    [rule(atom(v.s, X, Y), atom(m.sg, X), atom(n.sg, Y))])
    if form == 5:
        return Item("object_quantifiers", f"{_cap(m.pl)} {v.base} every {adj} {n.sg}.",
                    [rule(atom(v.s, X, Y), atom(m.sg, X), atom(adj, Y), atom(n.sg, Y))])
    if form == 6:
        return Item("object_quantifiers", f"{x.text} is {adj} of every {n.sg}.",
                    [rule(atom(f"{adj}_of", x.const, X), atom(n.sg, X))])
    return Item("object_quantifiers", f"Every {m.sg} {v.s} no {n.sg}.",
                [rule(atom(v.s, X, Y, neg=True), atom(m.sg, X), atom(n.sg, Y))])


def _object_relatives(lx: Lexicon, rng: random.Random) -> Item:
    """Relative clauses on objects (restrictive: a rule) and on names (non-restrictive: a fact), and
    "is a N who …"."""
    x, y, n, m, v, v2, adj = lx.name(plain=True), lx.name(plain=True), lx.noun(), lx.noun(), lx.verb(), lx.verb(), lx.adj()
    rel = rng.choice(["that", "who", "which"])
    wh = rng.choice(["who", "which"])
    form = rng.randrange(7)
    if form == 0:
        return Item("object_relatives", f"{x.text} {v.s} {n.pl} {rel} {v2.base} {y.text}.",
                    [rule(atom(v.s, x.const, X), atom(n.sg, X), atom(v2.s, X, y.const))])
    if form == 1:
        return Item("object_relatives", f"{x.text} {v.s} {n.pl} {rel} are {adj}.",
                    [rule(atom(v.s, x.const, X), atom(n.sg, X), atom(adj, X))])
    if form == 2:
        return Item("object_relatives", f"{x.text} {v.s} every {n.sg} {rel} {v2.s} {y.text}.",
                    [rule(atom(v.s, x.const, X), atom(n.sg, X), atom(v2.s, X, y.const))])
    if form == 3:
        return Item("object_relatives", f"{x.text}, {wh} is {adj}, {v.s} {y.text}.",
                    [fact(adj, x.const), fact(v.s, x.const, y.const)])
    if form == 4:
        return Item("object_relatives", f"{x.text} {v.s} {y.text}, {wh} is {adj}.",
                    [fact(v.s, x.const, y.const), fact(adj, y.const)])
    if form == 5:
        return Item("object_relatives", f"{x.text} is {n.article} {n.sg} {rel} {v.s} {y.text}.",
                    [fact(n.sg, x.const), fact(v.s, x.const, y.const)])
    return Item("object_relatives", f"Every {m.sg} is {n.article} {n.sg} {rel} is {adj}.",
                [rule(atom(n.sg, X), atom(m.sg, X)), rule(atom(adj, X), atom(m.sg, X))])


def _possessives(lx: Lexicon, rng: random.Random) -> Item:
    """"X's R is Y." and "Y is X's R." as the relation R_of(Y, X); "X's ADJ." as "X is ADJ."."""
    x, y, n, adj = lx.name(plain=True), lx.name(plain=True), lx.noun(), lx.adj()
    while n.sg.endswith(("ed", "en")):      # after 's, a word in -ed or -en may be a participle ("has eaten")
        n = lx.noun()
    form = rng.randrange(5)
    if form == 0:
        return Item("possessives", f"{x.text}'s {n.sg} is {y.text}.", [fact(f"{n.sg}_of", y.const, x.const)])
    if form == 1:
        return Item("possessives", f"{y.text} is {x.text}'s {n.sg}.", [fact(f"{n.sg}_of", y.const, x.const)])
    if form == 2:
        return Item("possessives", f"{y.text} is not {x.text}'s {n.sg}.", [fact(f"{n.sg}_of", y.const, x.const, neg=True)])
    if form == 3:
        return Item("possessives", f"{x.text}'s {adj}.", [fact(adj, x.const)])
    return Item("possessives", f"{x.text}'s {n.article} {n.sg}.", [fact(n.sg, x.const)])


def _counts(lx: Lexicon, rng: random.Random) -> Item:
    """"at most N": a constraint on the count of what is known (not a statement category: its
    clause has no one-clause English form; it reads back through its own canonical form)."""
    x, n = lx.name(plain=True), lx.noun()
    k = rng.randint(2, 9)
    word = rng.choice(["at most", "no more than"])
    if rng.random() < 0.5:
        return Item("counts", f"There are {word} {k} {n.pl}.", [f":- aggregate_all(count, {n.sg}(X), N), N > {k}."])
    return Item("counts", f"{x.text} has {word} {k} {n.pl}.",
                [f":- aggregate_all(count, (has({x.const}, X), {n.sg}(X)), N), N > {k}."])


def _statement(lx: Lexicon, rng: random.Random) -> tuple[str, str]:
    """A fact sentence and its query, for statements to judge."""
    x, y, adj, v = lx.individual(), lx.individual(), lx.adj(), lx.verb()
    form = rng.randrange(4)
    if form == 0:
        return f"{x.start} is {adj}.", f"{adj}({_c(x)})"
    if form == 1:
        return f"{x.start} is not {adj}.", f"~{adj}({_c(x)})"
    if form == 2:
        return f"{x.start} {v.s} {y.text}.", f"{v.s}({_c(x)}, {_c(y)})"
    return f"{x.start} does not {v.base} {y.text}.", f"~{v.s}({_c(x)}, {_c(y)})"


def _c(np: NP) -> str:
    return format_const(np.const)


def _questions(lx: Lexicon, rng: random.Random) -> Item:
    x, y, adj, n, v = lx.individual(), lx.individual(), lx.adj(), lx.noun(), lx.verb()
    form = rng.randrange(13)
    if form in (0, 1):
        judge = ["true or false", "true, false, or unknown"][form]
        text, query = _statement(lx, rng)
        framing = rng.choice(["", "Based on the above information, ", "Given all that, ", "From what is known, "])
        asked = f"{framing}is the following statement {judge}? {text}" if rng.random() < 0.8 else \
            f"true or false{rng.choice([':', '?'])} {text}"
        return Item("questions", asked[0].upper() + asked[1:], goal=("truth", query))
    # some questions come after a sentence of context: the last question is the one asked
    context = f"{lx.name().text} is {lx.adj()}. " if rng.random() < 0.3 else ""
    q = {
        2: (f"Is {x.text} {adj}?", "truth", f"{adj}({_c(x)})"),
        3: (f"Is {x.text} {n.article} {n.sg}?", "truth", f"{n.sg}({_c(x)})"),
        4: (f"Does {x.text} {v.base} {y.text}?", "truth", f"{v.s}({_c(x)}, {_c(y)})"),
        5: (f"Is {x.text} {adj} of {y.text}?", "truth", f"{adj}_of({_c(x)}, {_c(y)})"),
        6: (f"Is {x.text} the {n.sg} of {y.text}?", "truth", f"{n.sg}_of({_c(x)}, {_c(y)})"),
        7: (f"Who is {adj}?", "values", f"{adj}(X)"),
        8: (f"What is {x.text} {adj} of?", "values", f"{adj}_of({_c(x)}, X)"),
        9: (f"Who is the {n.sg} of {y.text}?", "values", f"{n.sg}_of(X, {_c(y)})"),
        10: (f"Which {n.sg} {v.s} {y.text}?", "values", f"{v.s}(X, {_c(y)}), {n.sg}(X)"),
        11: (f"Who {v.s} {y.text}?", "values", f"{v.s}(X, {_c(y)})"),
        12: (f"Which {n.sg} is {adj}?", "values", f"{adj}(X), {n.sg}(X)"),
    }[form]
    text, kind, query = q
    return Item("questions", context + _cap(text), goal=(kind, query))


def _outside(lx: Lexicon, rng: random.Random) -> Item:
    """Sentences the fragment must leave alone: other quantifiers, tense and modality,
    existential objects, broken agreement, adverbs, garbled order, two readings."""
    x, y, adj, adj2, n, m, v = (lx.name(), lx.individual(), lx.adj(), lx.adj(), lx.noun(), lx.noun(), lx.verb())
    forms = [
        (f"Most {n.pl} are {adj}.", "quantifier"),
        (f"Some {n.pl} {v.base}.", "quantifier"),
        (f"Some {n.pl} are {adj}.", "quantifier"),
        (f"Many {n.pl} {v.base} {y.text}.", "quantifier"),
        (f"Few {n.pl} are {m.pl}.", "quantifier"),
        (f"{x.text} was {adj}.", "tense"),
        (f"{x.text} were {adj}.", "tense"),
        (f"{x.text} {v.base}ed {y.text}.", "tense"),
        (f"{x.text} has been {adj}.", "tense"),
        (f"{x.text} might be {adj}.", "modal"),
        (f"{x.text} will be {adj}.", "modal"),
        (f"{x.text} could {v.base} {y.text}.", "modal"),
        (f"{x.text} {v.s} {n.article} {n.sg}.", "existential object"),
        (f"{x.text} does not {v.base} {n.article} {n.sg}.", "existential object"),
        (f"{x.text} are {adj}.", "agreement"),
        (f"The {n.sg} are {adj}.", "agreement"),
        (f"The {n.sg} {v.base} {x.text}.", "agreement"),
        (f"{x.text} does not {v.s} {y.text}.", "agreement"),
        (f"{x.text} usually {v.s}.", "adverb"),
        (f"{x.text} often {v.s} {y.text}.", "adverb"),
        (f"The {n.sg} seems rather {adj} today.", "other verb"),
        (f"{x.text} {adj} is.", "garbled"),
        (f"Is {x.text} {adj} the.", "garbled"),
        (f"{_cap(adj)} the {n.sg} is.", "garbled"),
        (f"{x.text} not is {adj}.", "garbled"),
        (f"Are {n.pl} {adj} the {m.pl}.", "garbled"),
        (f"{x.text} {v.s} the {n.sg} with the {m.sg}.", "two readings"),
        (f"{_cap(adj2)} {n.pl} and {m.pl} are {adj}.", "two readings"),
        (f"{x.text} is not {adj} and {adj2}.", "two readings"),
        (f"{x.text} is {adj} or {adj2}.", "disjunction"),
        (f"If {x.text} is {adj} then something is {adj2}.", "unsafe rule"),
        (f"Is {x.text} {adj}?", "question"),
    ]
    text, why = rng.choice(forms)
    return Item("outside", text, None, tags=[why])


GENERATORS = {
    "names": _names, "copula": _copula, "membership": _membership, "generics": _generics,
    "quantifiers": _quantifiers, "relative": _relative, "coordination": _coordination, "verbs": _verbs,
    "relations": _relations, "conditionals": _conditionals, "questions": _questions, "outside": _outside,
    "object_quantifiers": _object_quantifiers, "object_relatives": _object_relatives, "possessives": _possessives,
    "counts": _counts,
}
CATEGORIES = list(GENERATORS)
STATEMENT_CATEGORIES = [c for c in CATEGORIES if c not in ("questions", "outside", "counts")]


def generate(category: str, rng: random.Random) -> Item:
    """One item of a category, with fresh invented words."""
    return GENERATORS[category](Lexicon(rng), rng)


def items(category: str, count: int, seed: int = 0) -> list[Item]:
    """`count` distinct items of a category from a fixed seed."""
    rng = random.Random(f"{category}:{seed}")
    out, seen = [], set()
    while len(out) < count:
        item = generate(category, rng)
        if item.sentence not in seen:
            seen.add(item.sentence)
            out.append(item)
    return out


def text(count: int, seed: int = 0, categories=None) -> list[str]:
    """`count` statement sentences, categories taken in turn (for benchmarks)."""
    cats = categories or STATEMENT_CATEGORIES
    rng = random.Random(seed)
    return [generate(cats[i % len(cats)], rng).sentence for i in range(count)]
