"""Trust items (issue 27): sentences of invented words around the real closed-class words of a class
the English bridge must not read as intersective, distributive or two-place, each with what the
bridge may do with it, and `breach` to judge an answer. Importing this module adds its categories
to tests.english_gen's generators (so `generate`/`items` know them)."""

from __future__ import annotations

import random

from sym.core.logic.parser import parse_program
from sym.core.logic.terms import Atom, Naf, Rule, Var
from tests.english_gen import GENERATORS, Item, Lexicon, X, _cap, atom, fact, normal_clauses, rule

# -- trust: sentences whose meaning is not the plain reading (issue 27) ----------------------
# Invented open-class words around the real closed-class words of a class the grammar must not
# read as intersective, distributive or two-place. tags[0] says what the bridge may do:
# refuse (nothing), form (exactly `clauses`), refuse_or_form, avoid (anything but an argument
# containing a word of `avoid`), split (split_sentences gives `parts`).

NUMERALS = "two three four five six seven eight nine ten eleven twelve".split() + ["3", "7", "12"]
QUANTITY = NUMERALS + ["several", "certain", "numerous", "countless", "few", "many", "some", "most",
                       "additional", "particular", "various", "both", "a few", "a couple of"]
SUBORDINATORS = ["unless", "once", "until", "provided", "given", "whereas", "lest", "although", "because",
                 "since", "while", "before", "after"]    # when / whenever open conditionals (english_gen)
IMPERATIVES = ["suppose", "assume", "imagine", "say", "pretend", "consider"]
PARTICIPLES = ["arrived", "eaten", "gone", "fallen", "left", "slept", "won", "finished", "seen", "come"]
GERUNDS = ["running", "sleeping", "eating", "walking", "singing", "working", "swimming", "waiting"]
PRIVATIVE = ["former", "fake", "alleged", "would-be", "potential", "suspected", "possible", "counterfeit",
             "imaginary", "future", "mere", "false", "pretend", "so-called", "supposed", "ex"]
SUBSECTIVE = ["good", "bad", "small", "big", "large", "little", "tall", "short", "heavy", "light", "old",
              "young", "great", "poor", "skilled", "excellent", "terrible", "beautiful", "huge", "tiny",
              "fast", "slow"]
KIND_LEVEL = ["rare", "common", "extinct", "numerous", "widespread", "abundant", "scarce", "plentiful",
              "endangered", "ubiquitous"]
RECIPROCAL = ["different", "similar", "equal", "alike", "identical", "friends", "siblings", "cousins",
              "neighbors", "neighbours", "partners", "married", "related", "together", "separate"]
RECIPROCAL_VERBS = ["meet", "fight", "collide", "disagree", "agree", "marry", "differ", "kiss", "embrace"]
THREE_PLACE = ["between", "among", "amongst"]
ADVERBS = ["fast", "quickly", "slowly", "well", "hard", "early", "late", "daily", "again", "together",
           "home", "yesterday"]
DAYS = ["Mondays", "Tuesdays", "Wednesdays", "Thursdays", "Fridays", "Saturdays", "Sundays"]
PERIODS = ["night", "day", "week", "morning"]
RESULTS = ["white", "red", "flat", "open", "shut", "clean", "dry"]
DURATIONS = ["hours", "days", "minutes", "weeks", "years"]
CONTAINERS = ["Box", "Crate", "Bag", "Drawer", "Chest"]
IRREGULAR = {"leaves": "leaf", "wolves": "wolf", "knives": "knife", "mice": "mouse", "geese": "goose",
             "children": "child", "women": "woman", "teeth": "tooth", "feet": "foot", "cacti": "cactus",
             "analyses": "analysis"}
TITLES = ["Dr.", "Mr.", "Mrs.", "Ms.", "Prof.", "St."]


def _art(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _refuse(category: str, sentence: str, *why: str, avoid=()) -> Item:
    return Item(category, sentence, None, tags=["refuse", *why], avoid=list(avoid))


def _quantity(lx: Lexicon, rng: random.Random) -> Item:
    n, m, adj, adj2, v = lx.noun(), lx.noun(), lx.adj(), lx.adj(), lx.verb()
    x, y, q = lx.individual(), lx.individual(), rng.choice(QUANTITY)
    forms = [
        f"{_cap(q)} {n.pl} are {adj}.", f"{_cap(q)} {n.pl} {v.base} {y.text}.", f"{_cap(q)} {n.pl} {v.base}.",
        f"{_cap(q)} {n.pl} are {m.pl}.", f"{_cap(q)} {adj2} {n.pl} are {adj}.", f"{x.start} {v.s} {q} {n.pl}.",
        f"{x.start} {v.s} {q} {adj} {n.pl}.", f"{x.start} is {adj} of {q} {n.pl}.",
    ]
    return _refuse("quantity", rng.choice(forms), q, avoid=q.split())


def _subordinator(lx: Lexicon, rng: random.Random) -> Item:
    x, y, z, adj, adj2, v = lx.individual(), lx.individual(), lx.individual(), lx.adj(), lx.adj(), lx.verb()
    if rng.random() < 0.6:
        sub = rng.choice(SUBORDINATORS)
        forms = [f"{_cap(sub)} {x.text} is {adj}, {y.text} is {adj2}.",
                 f"{_cap(sub)} {x.text} {v.s} {z.text}, {y.text} is {adj2}.",
                 f"{_cap(sub)} {x.text} is not {adj}, {y.text} is {adj2}."]
    else:
        sub = rng.choice(IMPERATIVES)
        forms = [f"{_cap(sub)} {x.text} is {adj}.", f"{_cap(sub)} that {x.text} is {adj}.",
                 f"{_cap(sub)} {x.text} {v.s} {z.text}."]
    return _refuse("subordinator", rng.choice(forms), sub, avoid=[sub])


def _auxiliary(lx: Lexicon, rng: random.Random) -> Item:
    x, y, n, v, adj = lx.individual(), lx.individual(), lx.noun(), lx.verb(), lx.adj()
    part, ger = rng.choice(PARTICIPLES), rng.choice(GERUNDS)
    forms = [
        f"{x.start} has {v.base}ed.", f"{x.start} has {v.base}ed {y.text}.", f"{_cap(n.pl)} have {v.base}ed.",
        f"{x.start} had {v.base}ed.", f"{x.start} is {v.base}ing.", f"{x.start} is {v.base}ing {y.text}.",
        f"{x.start} has been {adj}.", f"{x.start} has not {v.base}ed {y.text}.", f"{_cap(n.pl)} are {v.base}ing.",
        f"{x.start} has {part}.", f"{x.start} had {part}.", f"{x.start} has {part} {y.text}.",
        f"{_cap(n.pl)} have {part}.", f"{x.start} is {ger}.", f"{_cap(n.pl)} are {ger}.",
    ]
    return _refuse("auxiliary", rng.choice(forms), avoid=[f"{v.base}ed", f"{v.base}ing", part, ger])


def _adjective_before_noun(category: str, words: list[str], lx: Lexicon, rng: random.Random) -> Item:
    n, m, adj, v = lx.noun(), lx.noun(), lx.adj(), lx.verb()
    x, y, a = lx.individual(), lx.individual(), rng.choice(words)
    forms = [
        f"{x.start} is {_art(a)} {a} {n.sg}.", f"{x.start} is not {_art(a)} {a} {n.sg}.",
        f"{_cap(a)} {n.pl} are {adj}.", f"Every {a} {n.sg} is {adj}.", f"All {a} {n.pl} are {m.pl}.",
        f"Every {a} {n.sg} {v.s} {y.text}.", f"{_cap(a)} {n.pl} {v.base} {y.text}.",
        f"{x.start} and {y.text} are {a} {n.pl}.",
    ]
    return _refuse(category, rng.choice(forms), a)


def _privative(lx: Lexicon, rng: random.Random) -> Item:
    return _adjective_before_noun("privative", PRIVATIVE, lx, rng)


def _subsective(lx: Lexicon, rng: random.Random) -> Item:
    """Refused before a noun; with the class nouns (things, people) and as a predicate the
    adjective stays intersective, so those forms must still read."""
    if rng.random() < 0.6:
        return _adjective_before_noun("subsective", SUBSECTIVE, lx, rng)
    a, b = rng.sample(SUBSECTIVE, 2)
    x, adj = lx.individual(), lx.adj()
    cls = rng.choice(["things", "people"])
    form = rng.randrange(6)
    if form == 0:
        sentence, clauses = f"{_cap(a)} {cls} are {adj}.", [rule(atom(adj, X), atom(a, X))]
    elif form == 1:
        sentence, clauses = f"All {a} {cls} are {adj}.", [rule(atom(adj, X), atom(a, X))]
    elif form == 2:
        sentence, clauses = f"All {a}, {b} things are {adj}.", [rule(atom(adj, X), atom(a, X), atom(b, X))]
    elif form == 3:
        sentence, clauses = f"Every {a} thing is {adj}.", [rule(atom(adj, X), atom(a, X))]
    elif form == 4:
        sentence, clauses = f"{x.start} is {a}.", [fact(a, x.const)]
    else:
        sentence, clauses = f"{x.start} is {a} and {b}.", [fact(a, x.const), fact(b, x.const)]
    return Item("subsective", sentence, clauses, tags=["form", a])


def _kind_level(lx: Lexicon, rng: random.Random) -> Item:
    n, adj, v, y, k = lx.noun(), lx.adj(), lx.verb(), lx.individual(), rng.choice(KIND_LEVEL)
    forms = [f"{_cap(n.pl)} are {k}.", f"All {n.pl} are {k}.", f"{_cap(adj)} {n.pl} are {k}.",
             f"{_cap(n.pl)} are not {k}.", f"{_cap(n.pl)} that {v.base} {y.text} are {k}."]
    return _refuse("kind_level", rng.choice(forms), k)


def _reciprocal(lx: Lexicon, rng: random.Random) -> Item:
    a, b, c, v = lx.individual(), lx.individual(), lx.individual(), lx.verb()
    n, m = lx.noun(), lx.noun()
    r, rv = rng.choice(RECIPROCAL), rng.choice(RECIPROCAL_VERBS)
    forms = [
        (f"{a.start} and {b.text} are {r}.", r), (f"{a.start}, {b.text} and {c.text} are {r}.", r),
        (f"{a.start} and {b.text} are not {r}.", r), (f"{_cap(n.pl)} and {m.pl} are {r}.", r),
        (f"{a.start} and {b.text} {rv}.", rv), (f"{a.start}, {b.text} and {c.text} {rv}.", rv),
        (f"{a.start} and {b.text} do not {rv}.", rv),
        (f"{a.start} and {b.text} {v.base} each other.", "each other"),
        (f"{a.start} and {b.text} {v.base} one another.", "one another"),
    ]
    sentence, why = rng.choice(forms)
    return _refuse("reciprocal", sentence, why, avoid=["other", "another"])


def _three_place(lx: Lexicon, rng: random.Random) -> Item:
    x, y, z, n, v, adj = lx.individual(), lx.individual(), lx.individual(), lx.noun(), lx.verb(), lx.adj()
    w, among = rng.choice(THREE_PLACE), rng.choice(["among", "amongst"])
    forms = [
        f"{x.start} {v.s} {w} {y.text} and {z.text}.", f"{x.start} is {w} {y.text} and {z.text}.",
        f"{x.start} is not {w} {y.text} and {z.text}.", f"{_cap(n.pl)} are {w} {y.text} and {z.text}.",
        f"{x.start} is {among} the {n.pl}.", f"{x.start} {v.s} {among} the {n.pl}.",
        f"{x.start} is {adj} {w} {y.text} and {z.text}.",
    ]
    return _refuse("three_place", rng.choice(forms), w)


def _name_description(lx: Lexicon, rng: random.Random) -> Item:
    word, m, v, adj, adj2 = lx.noun().sg, lx.noun().sg, lx.verb(), lx.adj(), lx.adj()
    name = word.capitalize()
    forms = [
        f"{name} {v.s} the {word}.", f"The {word} {v.s} {name}.", f"{name} and the {word} are {adj}.",
        f"{name} is {adj} of the {word}.", f"The {word} is the {m} of {name}.",
        f"If {name} is {adj} then the {word} is {adj2}.",
    ]
    return _refuse("name_description", rng.choice(forms))


def _anaphora(lx: Lexicon, rng: random.Random) -> Item:
    """"the N" in the consequent after "a N" in the antecedent is the antecedent's variable."""
    n, a1, a2, v, v2, y, z = lx.noun(), lx.adj(), lx.adj(), lx.verb(), lx.verb(), lx.individual(), lx.individual()
    a = f"{n.article} {n.sg}"
    form = rng.randrange(5)
    if form == 0:
        sentence, head, cond = f"If {a} is {a1} then the {n.sg} is {a2}.", atom(a2, X), atom(a1, X)
    elif form == 1:
        sentence, head, cond = f"If {a} is {a1} then the {n.sg} {v2.s} {z.text}.", atom(v2.s, X, z.const), atom(a1, X)
    elif form == 2:
        sentence, head, cond = f"If {a} {v.s} {y.text} then the {n.sg} is {a2}.", atom(a2, X), atom(v.s, X, y.const)
    elif form == 3:
        sentence, head, cond = (f"If {a} {v.s} {y.text} then the {n.sg} {v2.s} {z.text}.", atom(v2.s, X, z.const),
                                atom(v.s, X, y.const))
    else:   # a definite that repeats nothing: never the antecedent's noun as a constant
        m = lx.noun().sg
        return Item("anaphora", f"If {a} is {a1} then the {m} is {a2}.", None, tags=["avoid"], avoid=[n.sg])
    return Item("anaphora", sentence, [rule(head, atom(n.sg, X), cond)], tags=["form"], avoid=[n.sg])


def _adverbial(lx: Lexicon, rng: random.Random) -> Item:
    x, y, v = lx.individual(), lx.individual(), lx.verb()
    adv, day, period, res = rng.choice(ADVERBS), rng.choice(DAYS), rng.choice(PERIODS), rng.choice(RESULTS)
    num, unit = rng.choice(NUMERALS[:11]), rng.choice(DURATIONS)
    forms = [
        (f"{x.start} {v.s} {y.text} {adv}.", [adv]), (f"{x.start} {v.s} {adv}.", [adv]),
        (f"{x.start} {v.s} {day}.", [day.lower()]), (f"{x.start} {v.s} {y.text} {day}.", [day.lower()]),
        (f"{x.start} {v.s} every {period}.", [period]), (f"{x.start} {v.s} {y.text} every {period}.", [period]),
        (f"{x.start} {v.s} the whole {period}.", [period, "whole"]),
        (f"{x.start} {v.s} {y.text} the whole {period}.", [period, "whole"]),
        (f"{x.start} {v.s} {y.text} {res}.", [res]), (f"{x.start} {v.s} {num} {unit}.", [num, unit]),
        (f"{x.start} {v.s} {y.text} {num} {unit}.", [num, unit]),
    ]
    sentence, avoid = rng.choice(forms)
    return _refuse("adverbial", sentence, avoid[0], avoid=avoid)


def _coordinated_verbs(lx: Lexicon, rng: random.Random) -> Item:
    x, y, v, w, n = lx.individual(), lx.individual(), lx.verb(), lx.verb(), lx.noun()
    if rng.random() < 0.7:
        sentence, clauses = f"{x.start} {v.s} and {w.s} {y.text}.", [fact(v.s, x.const, y.const), fact(w.s, x.const, y.const)]
    else:
        sentence = f"{_cap(n.pl)} {v.base} and {w.base} {y.text}."
        clauses = [rule(atom(v.s, X, y.const), atom(n.sg, X)), rule(atom(w.s, X, y.const), atom(n.sg, X))]
    return Item("coordinated_verbs", sentence, clauses, tags=["refuse_or_form"])


def _join(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def _containers(lx: Lexicon, rng: random.Random) -> Item:
    """The Boxes form (a name with a number) replaces the contents; any other subject is a plain fact."""
    y = lx.individual()
    if rng.random() < 0.5:
        word, k = rng.choice(CONTAINERS + [lx.name_word()]), rng.randint(0, 9)
        box = f"{word.lower()}_{k}"
        things = [lx.individual() for _ in range(rng.randint(1, 3))]
        # a name of a noun and a numeral names one of that kind: "Box 3" is a box
        return Item("containers", f"{word} {k} contains {_join([t.text for t in things])}.",
                    [fact("contains", box, t.const) for t in things] + [fact(word.lower(), box)], tags=["form"], kind="state",
                    updates=[(f"contains({box}, X)", [f"contains({box}, X)"], [])])
    x = lx.definite() if rng.random() < 0.5 else lx.name(plain=True)
    return Item("containers", f"{x.start} contains {y.text}.", [fact("contains", x.const, y.const)],
                tags=["form"], kind="fact", updates=[])


def _plurals(lx: Lexicon, rng: random.Random) -> Item:
    pl = rng.choice(list(IRREGULAR))
    sg, adj, adj2, m, v, y = IRREGULAR[pl], lx.adj(), lx.adj(), lx.noun(), lx.verb(), lx.individual()
    form = rng.randrange(7)
    if form == 0:
        sentence, clauses = f"{_cap(pl)} are {adj}.", [rule(atom(adj, X), atom(sg, X))]
    elif form == 1:
        sentence, clauses = f"{_cap(pl)} are not {adj}.", [rule(atom(adj, X, neg=True), atom(sg, X))]
    elif form == 2:
        sentence, clauses = f"All {pl} are {adj}.", [rule(atom(adj, X), atom(sg, X))]
    elif form == 3:
        sentence, clauses = f"{_cap(pl)} {v.base} {y.text}.", [rule(atom(v.s, X, y.const), atom(sg, X))]
    elif form == 4:
        sentence, clauses = f"{_cap(adj2)} {pl} are {adj}.", [rule(atom(adj, X), atom(adj2, X), atom(sg, X))]
    elif form == 5:
        sentence, clauses = f"{_cap(pl)} are {m.pl}.", [rule(atom(m.sg, X), atom(sg, X))]
    else:
        sentence, clauses = f"No {pl} are {adj}.", [rule(atom(adj, X, neg=True), atom(sg, X))]
    return Item("plurals", sentence, clauses, tags=["refuse_or_form" if pl == "cacti" else "form", pl])


def _abbreviations(lx: Lexicon, rng: random.Random) -> Item:
    a, b, c = lx.name(plain=True).text, lx.name(plain=True).text, lx.name(plain=True).text
    adj, adj2, adj3, v, n = lx.adj(), lx.adj(), lx.adj(), lx.verb(), lx.noun().sg
    t, t2 = rng.choice(TITLES), rng.choice(TITLES)
    form = rng.randrange(7)
    if form == 0:
        parts, why = [f"{t} {a} is {adj}.", f"{t2} {b} is {adj2}."], t
    elif form == 1:
        parts, why = [f"{a} is {adj}.", f"{t} {b} is {adj2}.", f"{c} is {adj3}."], t
    elif form == 2:
        parts, why = [f"{t} {a} {v.s} {t2} {b}.", f"{b} is {adj}."], t2
    elif form == 3:
        parts, why = [f"{a} Jr. is {adj}.", f"{b} is {adj2}."], "Jr."
    elif form == 4:
        parts, why = [f"{a} {v.s} things, e.g. the {n}.", f"{b} is {adj}."], "e.g."
    elif form == 5:
        parts, why = [f"{a} is {adj}, i.e. {a} is {adj2}.", f"{b} is {adj3}."], "i.e."
    else:
        parts, why = [f"{a} lives in the U.S. and {b} is {adj}."], "U.S."
    return Item("abbreviations", " ".join(parts), None, tags=["split", why], parts=parts)


def _refused_questions(lx: Lexicon, rng: random.Random) -> Item:
    x, y, z, n, v, adj = lx.individual(), lx.individual(), lx.individual(), lx.noun(), lx.verb(), lx.adj()
    p, s, q = rng.choice(PRIVATIVE), rng.choice(SUBSECTIVE), rng.choice(QUANTITY)
    forms = [
        f"Are {x.text} and {y.text} {rng.choice(RECIPROCAL)}?", f"Do {x.text} and {y.text} {rng.choice(RECIPROCAL_VERBS)}?",
        f"Is {x.text} {_art(p)} {p} {n.sg}?", f"Is {x.text} {_art(s)} {s} {n.sg}?", f"Are {q} {n.pl} {adj}?",
        f"Has {x.text} {v.base}ed?", f"Has {x.text} {v.base}ed {y.text}?", f"Has {x.text} {rng.choice(PARTICIPLES)}?",
        f"Is {x.text} {v.base}ing?", f"Is {x.text} between {y.text} and {z.text}?",
        f"Is {x.text} {rng.choice(['among', 'amongst'])} the {n.pl}?", f"Are {n.pl} {rng.choice(KIND_LEVEL)}?",
        f"Does {x.text} {v.base} {y.text} {rng.choice(ADVERBS)}?",
    ]
    return Item("refused_questions", _cap(rng.choice(forms)), None, tags=["refuse"])


TRUST_GENERATORS = {
    "quantity": _quantity, "subordinator": _subordinator, "auxiliary": _auxiliary, "privative": _privative,
    "subsective": _subsective, "kind_level": _kind_level, "reciprocal": _reciprocal, "three_place": _three_place,
    "name_description": _name_description, "anaphora": _anaphora, "adverbial": _adverbial,
    "coordinated_verbs": _coordinated_verbs, "containers": _containers, "plurals": _plurals,
    "abbreviations": _abbreviations, "refused_questions": _refused_questions,
}
TRUST_CATEGORIES = list(TRUST_GENERATORS)
TRUST_STATEMENT_CATEGORIES = [c for c in TRUST_CATEGORIES if c not in ("abbreviations", "refused_questions")]
GENERATORS.update(TRUST_GENERATORS)


def _argument_words(clause: str) -> set[str]:
    out: set[str] = set()
    for located in parse_program(clause):
        c = located.clause
        for lit in ([c] if isinstance(c, Atom) else [c.head, *c.body] if isinstance(c, Rule) else list(c.body)):
            lit = lit.atom if isinstance(lit, Naf) else lit
            args = lit.args if isinstance(lit, Atom) else (lit.left, lit.right)
            for arg in args:
                if not isinstance(arg, Var):
                    out.update(str(arg).lower().replace("_", " ").split())
    return out


def breach(item: Item, found) -> str | None:
    """How the bridge's answer breaks a trust item's documented form, or None when it keeps it.
    `found` is what split_sentences gave (tag split), question_goal gave (refused_questions), or
    translate gave (the rest: a Translation or None). Refusing is no clause and no update."""
    if item.tags[0] == "split":
        return None if found == item.parts else f"split into {found}"
    if item.category == "refused_questions":
        return None if found is None else f"asked {found.kind} {found.query}"
    clauses = list(found.clauses) if found is not None else []
    updates = list(found.updates) if found is not None else []
    refused = not clauses and not updates
    for clause in clauses:
        hit = _argument_words(clause) & {w.lower() for w in item.avoid}
        if hit:
            return f"gave {clauses}: an argument holds {sorted(hit)}"
    expect = item.tags[0]
    if expect == "avoid" or (refused and expect in ("refuse", "refuse_or_form")):
        return None
    if expect == "refuse":
        return f"gave {clauses} {updates or ''}".rstrip()
    if found is None:
        return "refused"
    if normal_clauses(clauses) != normal_clauses(item.clauses):
        return f"gave {clauses}, not {item.clauses}"
    if item.kind is not None and found.kind != item.kind:
        return f"gave a {found.kind}, not a {item.kind}"
    if item.updates is not None and [(u.match, list(u.remove), list(u.add)) for u in updates] != item.updates:
        return f"gave the updates {updates}, not {item.updates}"
    return None
